import type { Blockchain } from '../catalog/catalog';
import {
  fundSandboxTenant, recordDeposit, type DepositCommand, type DepositErrorCode, type DepositReceipt, type SandboxFundingErrorCode,
} from '../ledger/record-deposit';
import type { Stablecoin } from '../shared/money';
import type { AdvanceDeps } from '../payments/advance-payment';
import { toPaymentView, type PaymentView } from '../payments/payment-view';
import { err, ok, type Result } from '../shared/result';
import { simulatePayment, type SimulatedOutcome, type SimulateErrorCode } from './simulate-payment';
import {
  createTenant, issueAdminKey, issueApiKey, listAdminKeys, listApiKeys, listTenants, revokeApiKey,
  type AdminDeps, type AdminErrorCode, type ApiKeyView, type TenantView,
} from './tenant-admin';
import type { ApiKeyScope } from '../auth/api-key';
import { updateTenant, type TenantPatch } from './update-tenant';
import type { ReconciliationChecks, ReconciliationFinding } from '../reconciliation/reconciliation-ports';
import type { RefundReader, RefundStatus } from '../refunds/onchain-refund';
import type { CheckedChain } from '../refunds/hand-sent-check';
import { listRefunds, markRefundSent, retryRefund, type MarkSentErrorCode, type RefundView, type RetryRefundErrorCode } from '../refunds/manage-refunds';
import type { DepositFindingView } from '../deposits/deposit';
import type { RatePairView } from '../quotes/rate-book';
import type { Quote, QuoteReader } from '../quotes/quote';
import type { PricingRecord } from '../quotes/pricing-record';
import type { RatePair } from '../quotes/rate-feed';
import { pinRate, type PinCommand, type RatePin, type RatePinStore } from '../quotes/rate-pins';
import { setSpread, type SpreadCommand } from '../quotes/set-spread';
import type { ScreeningAdmin } from '../screening/screening-admin';
import type { RoutingDecisionLog } from '../routing/provider-outcomes';
import type { RoutingDecision } from '../routing/success-rate-scoring';
import type { SpreadChange, SpreadStore, SpreadTable, Spreads } from '../quotes/spread';
import type { DepositFindingReader } from '../deposits/deposit-ports';
import { listDepositFindings } from '../deposits/list-deposits';
import {
  reconciliationReport, type ReconciliationReport, type ReportDeps, type ReportErrorCode, type ReportWindow,
} from '../reconciliation/reconciliation-report';

/** Port: the live rate book as operators see it (docs/decisions.md § FX quotes: live rates). */
export interface RateBoard {
  view(now: Date): RatePairView[];
  quotes(pair: RatePair): boolean;
  addPin(pin: RatePin): void;
}

/** What GET /v1/admin/rates shows: whether live tenants are priced live, and every pair of the book. */
export interface RatesView {
  readonly live: boolean;
  /** The spreads in force for live tenants (percent under the mid); null without live sources. */
  readonly spreads: SpreadTable | null;
  readonly pairs: readonly RatePairView[];
}

/** The admin use cases' ports: tenants and keys, plus the payment ports deposits and simulation use. */
export type AdminApplicationDeps = AdminDeps & Pick<AdvanceDeps, 'uow' | 'payments' | 'onPaymentMoved' | 'environments'> & {
  /** The reconciliation worker's findings (docs/decisions.md § Reconciliation). */
  readonly reconciliationChecks: Pick<ReconciliationChecks, 'listFindings'>;
  /** Our payments and the providers' records, for reconciliation reports. */
  readonly reconciliationReport: ReportDeps;
  /** Onchain refunds of live payments (docs/decisions.md § Ledger). */
  readonly refunds: RefundReader;
  /** The chain a hand-sent refund's transaction is checked on; undefined for a chain with no RPC endpoints (docs/decisions.md § Refunds: reads and operators). */
  readonly checkedChain?: (chain: Blockchain) => CheckedChain | undefined;
  /** Transfers to deposit addresses never credited (docs/decisions.md § Onchain deposits). */
  readonly depositFindings: DepositFindingReader;
  /** The live rate book; undefined when no live source is configured (every tenant on the catalog's rates). */
  readonly rateBoard?: RateBoard;
  /** Operators' pinned rates, stored for audit. */
  readonly ratePins: RatePinStore;
  /** Operators' spread changes, stored for audit. */
  readonly rateSpreads: SpreadStore;
  /** The spreads in force on this replica; undefined without live sources. */
  readonly spreadsInForce?: Spreads;
  /** Quotes of any tenant, with their pricing records. */
  readonly quotes: QuoteReader;
  /** Sanctions screening: lists and compliance reviews (docs/decisions.md § Screening). */
  readonly screening?: ScreeningAdmin;
  /** Payments' routing decisions (docs/decisions.md § Payout providers: routing on measured success). */
  readonly routingDecisions?: Pick<RoutingDecisionLog, 'find'>;
};

/** A payment's routing decision as operators see it: when it was made, and the decision with its inputs. */
export interface RoutingDecisionView {
  /** ISO 8601 UTC. */
  readonly decidedAt: string;
  readonly strategy: RoutingDecision['strategy'];
  readonly reason: RoutingDecision['reason'];
  readonly hedged: boolean;
  readonly order: readonly string[];
  readonly candidates: RoutingDecision['candidates'];
}

/** Admin-scoped use cases (docs/decisions.md § Authentication, tenants and keys and § Analytics, admin and health): tenants, keys, deposits, cross-tenant reads, sandbox simulation. */
export interface AdminApplication {
  createTenant(input: { name: string; environment?: 'sandbox' | 'live'; rateLimitPerMinute?: number }): Promise<Result<TenantView, AdminErrorCode>>;
  listTenants(): Promise<TenantView[]>;
  /** Changes a tenant's name, payout settings or rate limit. Errors: `not_found`, `validation_error`. */
  updateTenant(tenantId: string, patch: TenantPatch): Promise<Result<TenantView, AdminErrorCode>>;
  issueApiKey(tenantId: string, input: { scope: ApiKeyScope; label?: string }): Promise<Result<ApiKeyView & { apiKey: string }, AdminErrorCode>>;
  listApiKeys(tenantId: string): Promise<Result<ApiKeyView[], AdminErrorCode>>;
  /** Issues a platform admin key (no tenant); the clear key is in the answer once. */
  issueAdminKey(input: { label?: string }): Promise<ApiKeyView & { apiKey: string }>;
  /** The platform's admin keys, without secrets. */
  listAdminKeys(): Promise<ApiKeyView[]>;
  revokeApiKey(keyId: string): Promise<Result<void, AdminErrorCode>>;
  /** Credits an onchain deposit, once per (blockchain, hash) across tenants. Errors: `not_found` (tenant), `validation_error`, `duplicate_deposit`. */
  recordDeposit(tenantId: string, command: DepositCommand): Promise<Result<DepositReceipt, DepositErrorCode | 'not_found'>>;
  /**
   * Credits a sandbox tenant's opening balance (no onchain deposit; startup seed and tests only,
   * on no route). Errors: `not_found`, `forbidden` (a live tenant), `validation_error` (amount).
   */
  fundSandboxTenant(tenantId: string, funding: { currency: Stablecoin; amount: string }): Promise<Result<{ currency: Stablecoin; amount: string }, SandboxFundingErrorCode | 'not_found'>>;
  /**
   * Any tenant's payment, with its tenant id, its payout provider (`sandbox`, `mpesa`,
   * `mtn_momo`, `paystack`, `flutterwave`, `pawapay`; null before any submission) and its pricing record (null on payments
   * stored before records were kept), and its latest routing decision with its inputs (null for
   * sandbox payments and before a live one was first routed), which the issuer's view leaves out.
   * Errors: `not_found`.
   */
  getPayment(paymentId: string): Promise<Result<PaymentView & {
    tenantId: string; provider: string | null; pricing: PricingRecord | null; routing: RoutingDecisionView | null;
  }, 'not_found'>>;
  /**
   * Any tenant's quote with how it was priced (`pricing`: mid, spread, sources with their own
   * timestamps, fee; null on quotes stored before records were kept), docs/decisions.md § FX quotes:
   * pricing records. Errors: `not_found`.
   */
  getQuote(quoteId: string): Promise<Result<Quote, 'not_found'>>;
  simulatePayment(paymentId: string, outcome: SimulatedOutcome): Promise<Result<PaymentView, SimulateErrorCode>>;
  /**
   * Mismatches the reconciliation worker found on payments still `provider_accepted`, newest first,
   * at most `limit` (docs/decisions.md § Reconciliation). Reported only: nothing corrects them.
   */
  listReconciliationFindings(limit: number): Promise<ReconciliationFinding[]>;
  /**
   * Compares our payments sent to `provider` and created in the window with the provider's records
   * (docs/decisions.md § Reconciliation). Errors: `validation_error`, `provider_unavailable`.
   */
  reconciliationReport(provider: string, window: ReportWindow): Promise<Result<ReconciliationReport, ReportErrorCode>>;
  /** Onchain refunds of live payments in `status` (all when undefined), oldest first, at most `limit` (docs/decisions.md § Ledger). */
  listRefunds(status: RefundStatus | undefined, limit: number): Promise<RefundView[]>;
  /**
   * Records the onchain transaction of a pending refund: it becomes `sent` and its amount leaves
   * `refund_pending`; kept with `actor` (admin key id or `cli:<user>`) for audit. Errors: `validation_error` (txHash),
   * `not_found`, `invalid_state` (sent with another hash, or not pending), `tx_hash_is_deposit`, and when the
   * chain can be read `tx_not_final` and `tx_does_not_pay_refund` (docs/decisions.md § Refunds: reads and operators).
   */
  markRefundSent(refundId: string, txHash: string, actor: string): Promise<Result<RefundView, MarkSentErrorCode>>;
  /**
   * Sends a failed refund back to `pending` (docs/decisions.md § Refunds: reads and operators), kept with
   * `actor` for audit. Errors: `not_found`, `invalid_state` (not failed).
   */
  retryRefund(refundId: string, actor: string): Promise<Result<RefundView, RetryRefundErrorCode>>;
  /** Transfers to deposit addresses never credited (another token, dust, oversized), newest first, at most `limit`. */
  listDepositFindings(limit: number): Promise<DepositFindingView[]>;
  /** Every pair of the live rate book with its state and sources; `live: false` and no pairs without live sources. */
  listRates(): RatesView;
  /**
   * Pins a manual mid rate on a live pair until it expires (docs/decisions.md § FX quotes: live
   * rates), recorded with the admin key that pinned it. Errors: `validation_error`, `invalid_state` (no live sources).
   */
  pinRate(command: PinCommand, keyId: string): Promise<Result<RatePin, 'validation_error' | 'invalid_state'>>;
  /**
   * Sets the spread of a corridor and method for live tenants (docs/decisions.md § FX quotes: live
   * rates), recorded with the admin key that set it. Errors: `validation_error`.
   */
  setSpread(command: SpreadCommand, keyId: string): Promise<Result<SpreadChange, 'validation_error'>>;
  /** Sanctions lists and the compliance review queue (docs/decisions.md § Screening). */
  readonly screening?: ScreeningAdmin;
}

/** Binds the admin use cases to `deps`. */
export function createAdminApplication(deps: AdminApplicationDeps): AdminApplication {
  const isSandboxTenant = async (tenantId: string) => (await deps.tenants.findTenant(tenantId))?.environment === 'sandbox';
  return {
    ...(deps.screening ? { screening: deps.screening } : {}),
    createTenant: (input) => createTenant(deps, input),
    listTenants: () => listTenants(deps),
    updateTenant: (tenantId, patch) => updateTenant(deps, tenantId, patch),
    issueApiKey: (tenantId, input) => issueApiKey(deps, tenantId, input),
    listApiKeys: (tenantId) => listApiKeys(deps, tenantId),
    issueAdminKey: (input) => issueAdminKey(deps, input),
    listAdminKeys: () => listAdminKeys(deps),
    revokeApiKey: (keyId) => revokeApiKey(deps, keyId),
    recordDeposit: async (tenantId, command) => {
      if (!(await deps.tenants.findTenant(tenantId))) return err('not_found', `Tenant ${tenantId} not found`);
      return recordDeposit(deps, tenantId, command);
    },
    fundSandboxTenant: async (tenantId, funding) => {
      const tenant = await deps.tenants.findTenant(tenantId);
      return tenant ? fundSandboxTenant(deps, tenant, funding) : err('not_found', `Tenant ${tenantId} not found`);
    },
    getPayment: async (paymentId) => {
      const payment = await deps.payments.findById(paymentId);
      if (!payment) return err('not_found', `Payment ${paymentId} not found`);
      const routing = await deps.routingDecisions?.find(paymentId);
      return ok({
        ...toPaymentView(payment), tenantId: payment.tenantId, provider: payment.provider, pricing: payment.pricing ?? null,
        routing: routing ? { decidedAt: routing.decidedAt.toISOString(), ...routing.decision } : null,
      });
    },
    getQuote: async (quoteId) => {
      const quote = await deps.quotes.findById(quoteId);
      return quote ? ok(quote) : err('not_found', `Quote ${quoteId} not found`);
    },
    simulatePayment: (paymentId, outcome) => simulatePayment({ ...deps, isSandboxTenant }, paymentId, outcome),
    listReconciliationFindings: (limit) => deps.reconciliationChecks.listFindings(limit),
    reconciliationReport: (provider, window) => reconciliationReport(deps.reconciliationReport, provider, window),
    listRefunds: (status, limit) => listRefunds(deps, status, limit),
    markRefundSent: (refundId, txHash, actor) => markRefundSent(deps, refundId, txHash, actor),
    retryRefund: (refundId, actor) => retryRefund(deps, refundId, actor),
    listDepositFindings: (limit) => listDepositFindings({ findings: deps.depositFindings }, limit),
    listRates: () => (deps.rateBoard
      ? { live: true, spreads: deps.spreadsInForce?.table() ?? null, pairs: deps.rateBoard.view(deps.clock.now()) }
      : { live: false, spreads: null, pairs: [] }),
    setSpread: (command, keyId) => setSpread({ spreads: deps.rateSpreads, clock: deps.clock, ids: deps.ids, onSet: (change) => deps.spreadsInForce?.add(change) }, command, keyId),
    pinRate: (command, keyId) => {
      const board = deps.rateBoard;
      return pinRate({
        pins: deps.ratePins, clock: deps.clock, ids: deps.ids, quotes: board ? (pair) => board.quotes(pair) : undefined, onPinned: (pin) => board?.addPin(pin),
      }, command, keyId);
    },
  };
}
