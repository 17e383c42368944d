import type { CountryCode, PaymentMethod } from '../catalog/catalog';
import type { PaymentEventType } from '../events/outbox-event';
import type { PaymentStatus } from '../payments/payment';
import { PAYMENT_FAILURE_CODES, type PaymentFailureCode } from '../payments/payment-failure';
import type { PaymentReader } from '../payments/payment-ports';
import { toPaymentView, type PaymentView } from '../payments/payment-view';
import { err, ok, type Result } from '../shared/result';
import type { RegistrationStatus } from '../webhooks/webhook';

/**
 * Reads of the operations console (docs/decisions.md § Operations console): who a payment pays,
 * its history, and which webhook endpoints are failing. Read-only and tenant-scoped.
 */

/** Where a payment goes, as the store holds it (the account number in clear; never shown as is). */
export interface PaymentRecipientRow {
  readonly paymentId: string;
  readonly country: CountryCode;
  readonly paymentMethod: PaymentMethod;
  readonly accountNumber: string;
}

/** Where a payment goes, safe to show: the account or phone number masked to its last 4 characters. */
export interface PaymentRecipient {
  readonly paymentId: string;
  /** ISO 3166-1 alpha-2 country of the recipient. */
  readonly country: CountryCode;
  /** `••••` followed by the last 4 characters of the account or phone number. */
  readonly recipient: string;
}

/** One entry of a payment's history: the state it reached, when, and why when it failed. */
export interface PaymentTimelineEntry {
  readonly type: PaymentEventType;
  readonly status: PaymentStatus;
  /** ISO 8601 UTC. */
  readonly at: string;
  readonly failureReason: string | null;
  /** The failure code the event's payload carried (docs/api.md § Failure codes); null otherwise, and for events from before codes existed. */
  readonly failureCode: PaymentFailureCode | null;
}

/** A payment with its history, oldest entry first. */
export interface PaymentTimeline {
  readonly payment: PaymentView;
  readonly events: readonly PaymentTimelineEntry[];
}

/** One outbox row of a payment, as the store returns it (its payload is the payment view as of the event). */
export interface PaymentEventRow {
  readonly type: PaymentEventType;
  readonly createdAt: Date;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** Delivery figures of one registration over the health window, as the store computes them. */
export interface WebhookHealthRow {
  readonly webhookId: string;
  readonly url: string;
  readonly status: RegistrationStatus;
  /** Deliveries that ended `failed` (every attempt used). */
  readonly failed: number;
  /** Deliveries still `pending` whose last attempt failed (waiting for a retry). */
  readonly retrying: number;
  readonly delivered: number;
  /** Error of the newest failed attempt of a delivery that is not delivered; null when none. */
  readonly lastError: string | null;
  readonly lastErrorAt: Date | null;
}

/** A registration's delivery health, safe to show (times ISO 8601 UTC). */
export interface WebhookHealthView {
  readonly webhookId: string;
  readonly url: string;
  readonly status: RegistrationStatus;
  readonly failed: number;
  readonly retrying: number;
  readonly delivered: number;
  /** True when deliveries are failing or retrying, or the endpoint was disabled (410 Gone). */
  readonly failing: boolean;
  readonly lastError: string | null;
  readonly lastErrorAt: string | null;
}

/** How far back webhook health looks, in hours: a day of deliveries is what an operator acts on. */
export const WEBHOOK_HEALTH_WINDOW_HOURS = 24;

/** Most payments whose recipients one call reads (a page of the payments connection). */
export const MAX_RECIPIENT_BATCH = 100;

/** Port: the console's reads, tenant-scoped (another tenant's ids are simply absent). */
export interface OperationsReader {
  /** Recipients of `paymentIds` (at most MAX_RECIPIENT_BATCH) of the tenant, in any order. */
  recipients(tenantId: string, paymentIds: readonly string[]): Promise<PaymentRecipientRow[]>;
  /** The outbox events of one payment, oldest first. */
  paymentEvents(tenantId: string, paymentId: string): Promise<PaymentEventRow[]>;
  /** Every registration not deleted, with delivery figures of deliveries created at or after `since`. */
  webhookHealth(tenantId: string, since: Date): Promise<WebhookHealthRow[]>;
}

/** What the console's use cases need. */
export interface OperationsDeps {
  readonly operations: OperationsReader;
  readonly payments: PaymentReader;
  readonly clock: { now(): Date };
}

/** The account or phone number masked to its last 4 characters (`••••6789`; shorter numbers show none). Pure. */
export function maskRecipient(accountNumber: string): string {
  const visible = accountNumber.length > 4 ? accountNumber.slice(-4) : '';
  return `••••${visible}`;
}

/**
 * Country and masked recipient of the tenant's payments `paymentIds`, one entry per id in the
 * same order (undefined for an id the tenant does not have). Errors: validation_error (more than
 * MAX_RECIPIENT_BATCH ids).
 */
export async function paymentRecipients(
  deps: Pick<OperationsDeps, 'operations'>,
  tenantId: string,
  paymentIds: readonly string[],
): Promise<Result<Array<PaymentRecipient | undefined>, 'validation_error'>> {
  if (paymentIds.length > MAX_RECIPIENT_BATCH) {
    return err('validation_error', `at most ${MAX_RECIPIENT_BATCH} payments at once`, { field: 'paymentIds' });
  }
  const rows = paymentIds.length === 0 ? [] : await deps.operations.recipients(tenantId, paymentIds);
  const byId = new Map(rows.map((row) => [row.paymentId, {
    paymentId: row.paymentId, country: row.country, recipient: maskRecipient(row.accountNumber),
  }]));
  return ok(paymentIds.map((id) => byId.get(id)));
}

/**
 * One payment of the tenant with its history: every state it reached with the time and failure
 * reason the outbox recorded, oldest first. Errors: not_found (also another tenant's id).
 */
export async function paymentTimeline(
  deps: Pick<OperationsDeps, 'operations' | 'payments'>,
  tenantId: string,
  paymentId: string,
): Promise<Result<PaymentTimeline, 'not_found'>> {
  const payment = await deps.payments.findForTenant(tenantId, paymentId);
  if (!payment) return err('not_found', `Payment ${paymentId} not found`);
  const rows = await deps.operations.paymentEvents(tenantId, paymentId);
  const events = rows.map((row) => ({
    type: row.type,
    status: (row.payload.status as PaymentStatus | undefined) ?? statusOfEvent(row.type),
    at: row.createdAt.toISOString(),
    failureReason: typeof row.payload.failureReason === 'string' ? row.payload.failureReason : null,
    failureCode: failureCodeOf(row.payload.failureCode),
  }));
  return ok({ payment: toPaymentView(payment), events });
}

/** The state each payment event reports (docs/decisions.md § Payments: states and events). */
const STATUS_OF_EVENT: Record<PaymentEventType, PaymentStatus> = {
  'payment.initiated': 'initiated',
  'payment.processing': 'provider_accepted',
  'payment.succeeded': 'succeeded',
  'payment.failed': 'failed',
  'payment.refunded': 'refunded',
};

function statusOfEvent(type: PaymentEventType): PaymentStatus {
  return STATUS_OF_EVENT[type];
}

/** A stored payload's failure code when it is one of the set; null for none or anything else. */
function failureCodeOf(value: unknown): PaymentFailureCode | null {
  return PAYMENT_FAILURE_CODES.find((code) => code === value) ?? null;
}

/**
 * Delivery health of each of the tenant's registrations over the last WEBHOOK_HEALTH_WINDOW_HOURS:
 * failing ones first (newest error first), then the others by URL. No errors.
 */
export async function webhookHealth(deps: Pick<OperationsDeps, 'operations' | 'clock'>, tenantId: string): Promise<WebhookHealthView[]> {
  const since = new Date(deps.clock.now().getTime() - WEBHOOK_HEALTH_WINDOW_HOURS * 3_600_000);
  const rows = await deps.operations.webhookHealth(tenantId, since);
  const views = rows.map((row) => ({
    webhookId: row.webhookId, url: row.url, status: row.status,
    failed: row.failed, retrying: row.retrying, delivered: row.delivered,
    failing: row.failed > 0 || row.retrying > 0 || row.status !== 'active',
    lastError: row.lastError, lastErrorAt: row.lastErrorAt ? row.lastErrorAt.toISOString() : null,
  }));
  return views.sort((a, b) => Number(b.failing) - Number(a.failing)
    || (b.lastErrorAt ?? '').localeCompare(a.lastErrorAt ?? '') || a.url.localeCompare(b.url));
}
