/**
 * Every GraphQL document the console sends, and how it reads and writes the schema's enum values,
 * in one place: when the schema changes, this file is what changes. Documents are plain strings
 * (schema/schema.graphql is the reference); amounts arrive as decimal strings, times as ISO 8601 UTC.
 */

/** The fields of a payment the console shows (table, live rows and the detail panel). */
const PAYMENT_FIELDS = 'id status paymentMethod sourceCurrency amountStablecoin fiatAmount destinationCurrency '
  + 'reference createdAt updatedAt failureReason failureCode providerRef exchangeRate payoutFee country recipient';

/** One page of payments, newest first; `filter` is a PaymentFilter. */
export const PAYMENTS = `query ConsolePayments($first: Int!, $after: String, $filter: PaymentFilter) {
  payments(first: $first, after: $after, filter: $filter) {
    edges { cursor node { ${PAYMENT_FIELDS} } }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** One payment by id (the search box); not_found when the tenant has no such payment. */
export const PAYMENT = `query ConsolePayment($id: ID!) { payment(id: $id) { ${PAYMENT_FIELDS} } }`;

/** Live status changes of the tenant's payments. */
export const PAYMENT_UPDATES = `subscription ConsoleUpdates { paymentUpdated { ${PAYMENT_FIELDS} } }`;

/** The fields of a payment's onchain refund the detail panel shows (docs/api.md § Refunds). */
const REFUND_FIELDS = 'id status amount currency blockchain refundAddress txHash createdAt sentAt';

/** The detail panel: the payment's history, its refund and its webhook deliveries. */
export const PAYMENT_DETAIL = `query ConsoleDetail($id: ID!, $entityId: String) {
  paymentTimeline(id: $id) {
    payment { ${PAYMENT_FIELDS} refund { ${REFUND_FIELDS} } }
    events { type status at failureReason failureCode }
  }
  webhookEvents(entityId: $entityId, first: 50) {
    nodes { id eventType url status attempt lastError nextRetryAt updatedAt }
  }
}`;

/** Redelivers one webhook delivery now. */
export const RETRY_DELIVERY = `mutation ConsoleRetry($id: ID!) {
  retryWebhookEvent(id: $id) { id status attempt lastError nextRetryAt }
}`;

/**
 * `from` and `to` of analyticsSummary go into the document as literals, not variables: a literal
 * reads the same whether the schema types them String or a date-time scalar, so the document does
 * not name that type. They are always `Date.toISOString()` texts the console made itself.
 */
function range(from, to) {
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
  if (!iso.test(from) || !iso.test(to)) throw new Error('analytics range must be ISO 8601 UTC instants');
  return 'from: "' + from + '", to: "' + to + '"';
}

/** Summary tiles: today's figures (grouped by day: one group) and the balances. */
export function summaryQuery(from, to) {
  return `query ConsoleSummary($groupBy: AnalyticsGroupBy) {
  analyticsSummary(${range(from, to)}, groupBy: $groupBy) {
    key count successRate medianSecondsToSuccess
    fiatVolume { currency amount }
    stablecoinVolume { currency amount }
  }
  balances { currency available held inTransit }
}`;
}

/** The chart's series: one group per hour or per day. */
export function seriesQuery(from, to) {
  return `query ConsoleSeries($groupBy: AnalyticsGroupBy) {
  analyticsSummary(${range(from, to)}, groupBy: $groupBy) {
    key count successRate stablecoinVolume { currency amount }
  }
}`;
}

/** Webhook endpoints with their delivery health, failing ones first. */
export const WEBHOOK_HEALTH = `query ConsoleWebhookHealth {
  webhookHealth { webhookId url status failing failed retrying delivered lastError lastErrorAt }
}`;

/** Chart groupings as the schema's AnalyticsGroupBy spells them. */
export const GROUP_BY = { hour: 'HOUR', day: 'DAY' };

/** Filter choices, as the console names them (REST's strings). */
export const STATUSES = ['initiated', 'provider_accepted', 'succeeded', 'failed', 'refunded'];
export const METHODS = ['BANK', 'MOMO', 'PAYBILL', 'TILL'];
export const CURRENCIES = ['GHS', 'KES', 'NGN', 'TZS', 'UGX', 'XAF', 'XOF', 'ZAR', 'ZMW'];
export const COUNTRIES = ['BF', 'BJ', 'CI', 'CM', 'GH', 'KE', 'NG', 'SN', 'TZ', 'UG', 'ZA', 'ZM'];

/** A status as the console names it, from the schema's enum value (case-insensitive, so either spelling reads). */
export function statusFromWire(value) {
  return String(value).toLowerCase();
}

/** A status enum value to send, from the console's name: the schema's enums are upper case (SUCCEEDED). */
export function statusToWire(status) {
  return String(status).toUpperCase();
}

/** A webhook event type as REST and the delivered body write it: PAYMENT_SUCCEEDED is payment.succeeded. */
export function eventTypeFromWire(value) {
  return String(value).toLowerCase().replace(/_/g, '.');
}

/** A webhook delivery or registration status as the console names it. */
export function deliveryStatusFromWire(value) {
  return String(value).toLowerCase();
}

/** The console's filters as a PaymentFilter (undefined members are left out by JSON). */
export function paymentFilter(filters) {
  return {
    status: filters.status ? [statusToWire(filters.status)] : undefined,
    destinationCurrency: filters.currency ? [filters.currency] : undefined,
    paymentMethod: filters.method ? [filters.method] : undefined,
    country: filters.country ? [filters.country] : undefined,
    reference: filters.reference || undefined,
    createdFrom: filters.createdFrom || undefined,
    createdTo: filters.createdTo || undefined,
  };
}

/**
 * A failure code as the console names it (REST's string, docs/api.md § Failure codes), from the
 * schema's enum value (RECIPIENT_ACCOUNT_INVALID is recipient_account_invalid); null stays null.
 */
export function failureCodeFromWire(value) {
  return value == null ? null : String(value).toLowerCase();
}

/** A payment as the console keeps it: its status and failure code read into the console's names (REST's strings). */
export function paymentFromWire(node) {
  const refund = node.refund ? Object.assign({}, node.refund, { status: statusFromWire(node.refund.status) }) : node.refund;
  return Object.assign({}, node, { status: statusFromWire(node.status), failureCode: failureCodeFromWire(node.failureCode), refund: refund });
}

/** The fields of a deposit the console shows. */
const DEPOSIT_FIELDS = 'id status blockchain currency amount txHash index height confirmations sender depositAddress source createdAt creditedAt droppedAt';

/** The tenant's deposit addresses (assigned on first read) and its newest deposits. */
export const DEPOSITS = `query ConsoleDeposits($first: Int!) {
  depositAddresses { blockchain currency address ownerAddress token }
  deposits(first: $first) { nodes { ${DEPOSIT_FIELDS} } }
}`;

/** Live changes of the tenant's deposits (detected, credited, dropped). */
export const DEPOSIT_UPDATES = `subscription ConsoleDepositUpdates { depositUpdated { ${DEPOSIT_FIELDS} } }`;

/** A deposit as the console keeps it: its status in the console's words (REST's strings). */
export function depositFromWire(node) {
  return Object.assign({}, node, { status: statusFromWire(node.status), source: String(node.source).toLowerCase() });
}
