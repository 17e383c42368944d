import type { KeysetPage } from './shared/keyset-page';
import { authenticate, type ApiKeyReader, type Principal, type SecretHasher } from './auth/api-key';
import type { BankEntry, Catalog } from './catalog/catalog';
import { createMoneyOut, type MoneyOutDeps, type MoneyOutErrorCode, type MoneyOutOutcome } from './payments/create-money-out';
import { getPayment } from './payments/get-payment';
import { listPayments, type PaymentLister, type PaymentListQuery, type PaymentPage } from './payments/list-payments';
import { createCustomer, getCustomer, listCustomers, type CreateCustomerCommand, type CustomerDeps, type CustomerErrorCode } from './customers/manage-customers';
import type { CustomerView } from './customers/customer';
import { analyticsSummary, type AnalyticsGroup, type AnalyticsGroupView, type AnalyticsStore } from './analytics/analytics';
import {
  createTransferRequest, getTransferRequest, resolveTransferLink, type TransferDeps, type TransferErrorCode, type TransferLinkErrorCode, type TransferRequestCommand,
} from './transfers/create-transfer-request';
import type { TransferLinkView, TransferRequestView } from './transfers/transfer-request';
import { createLegacyPayout, type LegacyPayoutCommand, type LegacyPayoutDeps, type LegacyPayoutErrorCode } from './payments/legacy-payout';
import type { MoneyOutCommand } from './payments/money-out-rules';
import type { PaymentReader } from './payments/payment-ports';
import type { PaymentView } from './payments/payment-view';
import type { PaymentStatus } from './payments/payment';
import { getFxQuote, type FxQuoteDeps, type FxQuoteErrorCode, type FxQuoteQuery } from './quotes/get-fx-quote';
import type { Quote } from './quotes/quote';
import { err, ok, type Result } from './shared/result';
import type { BalanceView, LedgerReader, LedgerTransactionView } from './ledger/ledger';
import {
  deleteWebhook, getWebhookEvent, listWebhookEvents, listWebhooks, registerWebhook, retryWebhookEvent,
  type RegisteredWebhook, type WebhookDeps, type WebhookErrorCode,
} from './webhooks/manage-webhooks';
import type { WebhookEventEntry, WebhookView } from './webhooks/webhook';
import type { EventLogQuery } from './webhooks/webhook-ports';
import { listBanks } from './resolution/list-banks';
import { listCorridors, type CorridorFilter, type CorridorView } from './catalog/list-corridors';
import type { AccountDirectory, LiveAccountDirectory } from './resolution/resolution-ports';
import type { BankAccountResolution, IdentifierResolution, MomoResolution, MomoResolveErrorCode, ResolveErrorCode } from './resolution/resolution';
import { resolveBankAccount, type BankAccountResolveDeps, type BankAccountResolveQuery } from './resolution/resolve-bank-account';
import { resolveIdentifier, type IdentifierResolveDeps, type IdentifierResolveQuery } from './resolution/resolve-identifier';
import { resolveMomo, type MomoResolveDeps, type MomoResolveQuery } from './resolution/resolve-momo';
import type { DepositView } from './deposits/deposit';
import { listDepositAddresses, type ChainDepositSetup, type DepositAddressView } from './deposits/deposit-addresses';
import type { DepositAddressRegistry, DepositReader } from './deposits/deposit-ports';
import { getDeposit, listDeposits, type DepositListQuery } from './deposits/list-deposits';
import { listTenantRefunds, paymentRefunds, type IssuerRefundView, type TenantRefundQuery, type TenantRefundReader } from './refunds/refund-reads';
import {
  paymentRecipients, paymentTimeline, webhookHealth,
  type OperationsReader, type PaymentRecipient, type PaymentTimeline, type WebhookHealthView,
} from './operations/operations-reads';

/** Everything the use cases need from outside the core: ports and settings (docs/architecture.md). */
export interface ApplicationDeps extends MoneyOutDeps, FxQuoteDeps, WebhookDeps, LegacyPayoutDeps, TransferDeps, CustomerDeps, MomoResolveDeps, BankAccountResolveDeps, IdentifierResolveDeps {
  readonly catalog: Catalog;
  readonly payments: PaymentReader;
  /** The live tenants' account directory and bank list (a real provider's); none leaves live lookups `upstream_unavailable`. */
  readonly liveAccounts?: LiveAccountDirectory;
  /** The tenant's payments, paginated (GraphQL `payments`). */
  readonly paymentList: PaymentLister;
  readonly keys: ApiKeyReader;
  readonly hasher: SecretHasher;
  readonly ledger: LedgerReader;
  readonly analytics: AnalyticsStore;
  /** The operations console's reads (recipients, payment history, webhook health). */
  readonly operations: OperationsReader;
  /** Onchain deposits (docs/decisions.md § Onchain deposits): their reads, the address registry and each chain's setup. */
  readonly deposits: DepositReader;
  readonly depositAddresses: DepositAddressRegistry;
  readonly depositChains: readonly ChainDepositSetup[];
  /** The tenant's onchain refunds (docs/decisions.md § Refunds): its list and each payment's. */
  readonly tenantRefunds: TenantRefundReader;
}

/**
 * The use cases, bound to their ports: the one surface REST and GraphQL both call, so no rule is
 * written twice (docs/architecture.md). Each method documents its errors at its use case.
 */
export interface Application {
  readonly catalog: Catalog;
  authenticate(apiKey: string): Promise<Result<Principal, 'unauthorized'>>;
  getFxQuote(tenantId: string, query: FxQuoteQuery): Promise<Result<Quote, FxQuoteErrorCode>>;
  createMoneyOut(tenantId: string, idempotencyKey: string | undefined, command: MoneyOutCommand): Promise<Result<MoneyOutOutcome, MoneyOutErrorCode>>;
  getPayment(tenantId: string, paymentId: string): Promise<Result<PaymentView, 'not_found'>>;
  listPayments(tenantId: string, query: PaymentListQuery): Promise<Result<PaymentPage, 'validation_error'>>;
  createTransferRequest(tenantId: string, command: TransferRequestCommand): Promise<Result<{ link: string }, TransferErrorCode>>;
  getTransferRequest(tenantId: string, reference: string): Promise<Result<TransferRequestView, TransferErrorCode>>;
  /** The transfer request behind a deeplink token, for the acquirer (no tenant: the token authorises). */
  resolveTransferLink(token: string): Promise<Result<TransferLinkView, TransferLinkErrorCode>>;
  createLegacyPayout(tenantId: string, command: LegacyPayoutCommand): Promise<Result<{ transactionId: string; replayed: boolean }, LegacyPayoutErrorCode>>;
  getBalances(tenantId: string): Promise<BalanceView[]>;
  createCustomer(tenantId: string, command: CreateCustomerCommand): Promise<Result<CustomerView, CustomerErrorCode>>;
  getCustomer(tenantId: string, customerId: string): Promise<Result<CustomerView, CustomerErrorCode>>;
  listCustomers(tenantId: string, limit: number, cursor?: string): Promise<Result<KeysetPage<CustomerView>, CustomerErrorCode>>;
  analyticsSummary(tenantId: string, query: { from: Date; to: Date; groupBy: AnalyticsGroup }): Promise<Result<AnalyticsGroupView[], 'validation_error'>>;
  listLedgerTransactions(tenantId: string, limit: number, cursor?: string): Promise<Result<KeysetPage<LedgerTransactionView>, 'validation_error'>>;
  registerWebhook(tenantId: string, input: { url: string; events?: string[] }): Promise<Result<RegisteredWebhook, WebhookErrorCode>>;
  listWebhooks(tenantId: string): Promise<WebhookView[]>;
  deleteWebhook(tenantId: string, webhookId: string): Promise<Result<void, WebhookErrorCode>>;
  listWebhookEvents(tenantId: string, query: EventLogQuery): Promise<Result<KeysetPage<WebhookEventEntry>, WebhookErrorCode>>;
  retryWebhookEvent(tenantId: string, deliveryId: string): Promise<Result<WebhookEventEntry, WebhookErrorCode>>;
  /** One event log entry of the tenant. Errors: not_found. */
  getWebhookEvent(tenantId: string, deliveryId: string): Promise<Result<WebhookEventEntry, 'not_found'>>;
  /** One ledger transaction of the tenant. Errors: not_found. */
  getLedgerTransaction(tenantId: string, transactionId: string): Promise<Result<LedgerTransactionView, 'not_found'>>;
  /** The tenant's environment picks the directory: live tenants never reach the sandbox ones. */
  listBanks(tenantId: string, country: string): Promise<Result<readonly BankEntry[], 'validation_error'>>;
  /**
   * Every corridor a money-out may pay, with its limits and whether the tenant's environment can
   * pay it now (OpenAPI listCorridors; docs/api.md § Corridors). Errors: `validation_error`.
   */
  listCorridors(tenantId: string, filter: CorridorFilter): Promise<Result<CorridorView[], 'validation_error'>>;
  resolveMomo(tenantId: string, query: MomoResolveQuery): Promise<Result<MomoResolution, MomoResolveErrorCode>>;
  resolveBankAccount(tenantId: string, query: BankAccountResolveQuery): Promise<Result<BankAccountResolution, ResolveErrorCode>>;
  resolveIdentifier(query: IdentifierResolveQuery): Promise<Result<IdentifierResolution, ResolveErrorCode>>;
  paymentRecipients(tenantId: string, paymentIds: readonly string[]): Promise<Result<Array<PaymentRecipient | undefined>, 'validation_error'>>;
  paymentTimeline(tenantId: string, paymentId: string): Promise<Result<PaymentTimeline, 'not_found'>>;
  webhookHealth(tenantId: string): Promise<WebhookHealthView[]>;
  /** Where the tenant pays each stablecoin on each chain it is served on; assigned on first read, never changed. */
  listDepositAddresses(tenantId: string): Promise<DepositAddressView[]>;
  /** The tenant's deposits, newest first. Errors: validation_error (limit, time range, cursor). */
  listDeposits(tenantId: string, query: DepositListQuery): Promise<Result<KeysetPage<DepositView>, 'validation_error'>>;
  /** One deposit of the tenant. Errors: not_found. */
  getDeposit(tenantId: string, depositId: string): Promise<Result<DepositView, 'not_found'>>;
  /** The tenant's refunds, newest first. Errors: validation_error (limit, cursor). */
  listRefunds(tenantId: string, query: TenantRefundQuery): Promise<Result<KeysetPage<IssuerRefundView>, 'validation_error'>>;
  /** The refund of each of the tenant's `payments` (id and status as read), in order, null where none (at most one read). Errors: validation_error (over 100). */
  paymentRefunds(tenantId: string, payments: ReadonlyArray<{ readonly id: string; readonly status: PaymentStatus }>): Promise<Result<Array<IssuerRefundView | null>, 'validation_error'>>;
}

const NO_LIVE_DIRECTORY: AccountDirectory = {
  merchant: async () => err('upstream_unavailable', 'no live account directory serves this lookup'),
  mobileWallet: async () => err('upstream_unavailable', 'no live account directory serves this lookup'),
  bankAccount: async () => err('upstream_unavailable', 'no live account directory serves this lookup'),
};

/**
 * The account directory of a tenant's environment (docs/decisions.md § Payout providers: routing
 * and failover): the sandbox one for sandbox tenants; for live tenants the live one, or none
 * (`upstream_unavailable`), never the sandbox's answers.
 */
async function accountsFor(deps: ApplicationDeps, tenantId: string): Promise<AccountDirectory> {
  if ((await deps.environments.environmentOf(tenantId)) !== 'live') return deps.accounts;
  return deps.liveAccounts ?? NO_LIVE_DIRECTORY;
}

/** Binds the use cases to `deps`. */
export function createApplication(deps: ApplicationDeps): Application {
  return {
    catalog: deps.catalog,
    authenticate: (apiKey) => authenticate(deps, apiKey),
    getFxQuote: (tenantId, query) => getFxQuote(deps, tenantId, query),
    createMoneyOut: (tenantId, key, command) => createMoneyOut(deps, tenantId, key, command),
    getPayment: (tenantId, paymentId) => getPayment(deps.payments, tenantId, paymentId),
    listPayments: (tenantId, query) => listPayments(deps, tenantId, query),
    createTransferRequest: (tenantId, command) => createTransferRequest(deps, tenantId, command),
    getTransferRequest: (tenantId, reference) => getTransferRequest(deps, tenantId, reference),
    resolveTransferLink: (token) => resolveTransferLink(deps, token),
    createLegacyPayout: (tenantId, command) => createLegacyPayout(deps, tenantId, command),
    getBalances: (tenantId) => deps.ledger.balances(tenantId),
    createCustomer: (tenantId, command) => createCustomer(deps, tenantId, command),
    getCustomer: (tenantId, customerId) => getCustomer(deps, tenantId, customerId),
    listCustomers: (tenantId, limit, cursor) => listCustomers(deps, tenantId, limit, cursor),
    analyticsSummary: (tenantId, query) => analyticsSummary(deps.analytics, tenantId, query),
    listLedgerTransactions: async (tenantId, limit, cursor) => {
      const page = await deps.ledger.transactions(tenantId, limit, cursor);
      return page === 'bad_cursor' ? err('validation_error', 'cursor is not valid', { field: 'cursor' }) : ok(page);
    },
    registerWebhook: (tenantId, input) => registerWebhook(deps, tenantId, input),
    listWebhooks: (tenantId) => listWebhooks(deps, tenantId),
    deleteWebhook: (tenantId, webhookId) => deleteWebhook(deps, tenantId, webhookId),
    listWebhookEvents: (tenantId, query) => listWebhookEvents(deps, tenantId, query),
    retryWebhookEvent: (tenantId, deliveryId) => retryWebhookEvent(deps, tenantId, deliveryId),
    getWebhookEvent: (tenantId, deliveryId) => getWebhookEvent(deps, tenantId, deliveryId),
    getLedgerTransaction: async (tenantId, transactionId) => {
      const transaction = await deps.ledger.transaction(tenantId, transactionId);
      return transaction ? ok(transaction) : err('not_found', 'Ledger transaction not found');
    },
    listCorridors: (tenantId, filter) => listCorridors(deps, tenantId, filter),
    listBanks: async (tenantId, country) => {
      const live = (await deps.environments.environmentOf(tenantId)) === 'live';
      return listBanks(deps.catalog, country, live ? deps.liveAccounts : undefined);
    },
    resolveMomo: async (tenantId, query) => resolveMomo({ ...deps, accounts: await accountsFor(deps, tenantId) }, query),
    resolveBankAccount: async (tenantId, query) => resolveBankAccount({ ...deps, accounts: await accountsFor(deps, tenantId) }, query),
    resolveIdentifier: (query) => resolveIdentifier(deps, query),
    paymentRecipients: (tenantId, paymentIds) => paymentRecipients(deps, tenantId, paymentIds),
    paymentTimeline: (tenantId, paymentId) => paymentTimeline(deps, tenantId, paymentId),
    webhookHealth: (tenantId) => webhookHealth(deps, tenantId),
    listDepositAddresses: (tenantId) => listDepositAddresses({ ...deps, addresses: deps.depositAddresses, chains: deps.depositChains }, tenantId),
    listDeposits: (tenantId, query) => listDeposits(deps, tenantId, query),
    getDeposit: (tenantId, depositId) => getDeposit(deps, tenantId, depositId),
    listRefunds: (tenantId, query) => listTenantRefunds(deps, tenantId, query),
    paymentRefunds: (tenantId, payments) => paymentRefunds(deps, tenantId, payments),
  };
}
