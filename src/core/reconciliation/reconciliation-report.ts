import type { Payment, PaymentStatus } from '../payments/payment';
import type { PaymentReader } from '../payments/payment-ports';
import type { PayoutProvider, StatusOutcome } from '../payments/payout-provider';
import type { Clock } from '../shared/clock';
import { Decimal, formatAmount } from '../shared/money';
import { err, ok, type Result } from '../shared/result';
import type { ProviderOfPayment } from './reconciliation-ports';

/** A provider's word about one of our payments, for a reconciliation report. */
export interface ProviderRecord {
  readonly paymentId: string;
  /**
   * What the provider's status means for the payment; `unconfirmed` when the provider answers
   * status queries later, by callback (M-Pesa), so no state can be compared now.
   */
  readonly outcome: Exclude<StatusOutcome['kind'], 'not_found'> | 'unconfirmed';
  /** The provider's own status text when it gives one (Paystack `success`, `reversed`, …), else `outcome`. */
  readonly providerStatus: string;
  /** Amount paid out, a decimal string in `currency`, when the provider's record carries it. */
  readonly amount?: string;
  /** ISO 4217 code of `amount`. */
  readonly currency?: string;
}

/**
 * Port: a provider's records for reconciliation (docs/decisions.md § Reconciliation), one adapter
 * per provider: from its list API where it has one (Paystack), else one status query per payment.
 * `recordsFor` gets our payments sent to this provider and created in `[from, to)`, and returns
 * the records the provider has: of those payments (an absent one is missing at the provider), and,
 * from a list API, of other payments of ours it lists around that window. Throws when the
 * provider cannot be read (the report is then refused, never partial).
 */
export interface ProviderRecords {
  /** `PayoutProvider.name` of the provider read. */
  readonly provider: string;
  recordsFor(payments: readonly Payment[], window: ReportWindow): Promise<readonly ProviderRecord[]>;
}

/** A reconciliation window: payments we created at or after `from` and before `to`. */
export interface ReportWindow {
  readonly from: Date;
  readonly to: Date;
}

/** Port: our payments that reached a provider (accepted at some point), created in a window, oldest first. */
export interface SentPayments {
  /** At most `limit` payments; the caller asks for one more than it accepts to detect an overflow. */
  sentBetween(window: ReportWindow, limit: number): Promise<Payment[]>;
}

/** One of our payments the provider has no record of. */
export interface MissingAtProvider {
  readonly paymentId: string; readonly tenantId: string; readonly status: PaymentStatus;
  readonly fiatAmount: string; readonly currency: string; readonly createdAt: string;
}
/** A payment whose state differs between us and the provider (`pending` at the provider is our `provider_accepted`). */
export interface StatusMismatch {
  readonly paymentId: string; readonly tenantId: string; readonly ourStatus: PaymentStatus;
  readonly providerOutcome: ProviderRecord['outcome']; readonly providerStatus: string;
}
/** A payment the provider paid out in another amount or currency than ours (decimal strings; `providerAmount` or `providerCurrency` empty when the record carries none). */
export interface AmountMismatch {
  readonly paymentId: string; readonly tenantId: string; readonly ourAmount: string; readonly ourCurrency: string;
  readonly providerAmount: string; readonly providerCurrency: string;
}
/** A provider record of one of our payment ids that we do not count as sent to it in the window (`ourStatus` null: no such payment). */
export interface AtProviderOnly {
  readonly paymentId: string; readonly ourStatus: PaymentStatus | null;
  readonly providerOutcome: ProviderRecord['outcome']; readonly providerStatus: string;
}
/** A payment whose provider answers status queries only later, by callback: asked, not compared. */
export interface Unconfirmed {
  readonly paymentId: string; readonly tenantId: string; readonly ourStatus: PaymentStatus;
}

/** A reconciliation report (GET /v1/admin/reconciliation): what differs, never corrected. Times ISO 8601 UTC. */
export interface ReconciliationReport {
  readonly provider: string;
  readonly from: string;
  readonly to: string;
  readonly generatedAt: string;
  /** How many of our payments were compared. */
  readonly compared: number;
  readonly missingAtProvider: readonly MissingAtProvider[];
  readonly statusMismatches: readonly StatusMismatch[];
  readonly amountMismatches: readonly AmountMismatch[];
  readonly atProviderOnly: readonly AtProviderOnly[];
  readonly unconfirmed: readonly Unconfirmed[];
}

/** Expected failures of a report. */
export type ReportErrorCode = 'validation_error' | 'provider_unavailable';

/** Ports of the report. */
export interface ReportDeps {
  readonly sent: SentPayments;
  readonly payments: Pick<PaymentReader, 'findById'>;
  readonly providers: ProviderOfPayment;
  /** The readers of each provider that can be reconciled, by `provider`. */
  readonly records: readonly ProviderRecords[];
  readonly clock: Clock;
  /** Called once per mismatch in a report, e.g. for metrics. */
  readonly onMismatch?: (provider: string, kind: 'missing_at_provider' | 'status_mismatch' | 'amount_mismatch') => void;
}

/** Names of the payout providers a report may be asked about (`PayoutProvider.name`). */
export const RECONCILABLE_PROVIDERS = ['sandbox', 'mpesa', 'mtn_momo', 'paystack', 'flutterwave', 'pawapay'] as const;

/** Longest window of one report, in days: bounds the provider calls one request makes. */
export const MAX_REPORT_DAYS = 31;
/** Most payments one report compares; a busier window must be split. */
export const MAX_REPORT_PAYMENTS = 5000;

const OUR_OUTCOME: Partial<Record<PaymentStatus, ProviderRecord['outcome']>> = {
  provider_accepted: 'pending', succeeded: 'succeeded', failed: 'failed', refunded: 'refunded',
};

/**
 * Compares our payments sent to `provider` and created in `[from, to)` with the provider's records
 * (docs/decisions.md § Reconciliation): missing at the provider, status mismatches, amount
 * mismatches, and provider records of ours we do not count as sent there. Reads only. Errors:
 * `validation_error` (`from` not before `to`, a window over MAX_REPORT_DAYS, more than
 * MAX_REPORT_PAYMENTS payments), `provider_unavailable` (no reader for `provider`, or it failed).
 */
export async function reconciliationReport(
  deps: ReportDeps, provider: string, window: ReportWindow,
): Promise<Result<ReconciliationReport, ReportErrorCode>> {
  if (window.from.getTime() >= window.to.getTime()) return err('validation_error', 'Invalid request: from must be before to');
  if (window.to.getTime() - window.from.getTime() > MAX_REPORT_DAYS * 86_400_000) {
    return err('validation_error', `Invalid request: a report covers at most ${MAX_REPORT_DAYS} days`);
  }
  const reader = deps.records.find((r) => r.provider === provider);
  if (!reader) return err('provider_unavailable', `Provider ${provider} is not configured here`);
  const sent = await deps.sent.sentBetween(window, MAX_REPORT_PAYMENTS + 1);
  if (sent.length > MAX_REPORT_PAYMENTS) {
    return err('validation_error', `Invalid request: more than ${MAX_REPORT_PAYMENTS} payments in the window; narrow it`);
  }
  const ours: Payment[] = [];
  for (const payment of sent) if ((await deps.providers.providerOf(payment))?.name === provider) ours.push(payment);
  let records: readonly ProviderRecord[];
  try {
    records = await reader.recordsFor(ours, window);
  } catch (error) {
    return err('provider_unavailable', `Could not read ${provider}'s records: ${error instanceof Error ? error.message : String(error)}`);
  }
  const byId = new Map(records.map((r) => [r.paymentId, r]));
  const report = {
    provider, from: window.from.toISOString(), to: window.to.toISOString(), generatedAt: deps.clock.now().toISOString(), compared: ours.length,
    missingAtProvider: [] as MissingAtProvider[], statusMismatches: [] as StatusMismatch[], amountMismatches: [] as AmountMismatch[],
    atProviderOnly: [] as AtProviderOnly[], unconfirmed: [] as Unconfirmed[],
  };
  for (const payment of ours) {
    const record = byId.get(payment.id);
    byId.delete(payment.id);
    const base = { paymentId: payment.id, tenantId: payment.tenantId };
    if (!record) {
      report.missingAtProvider.push({
        ...base, status: payment.status, fiatAmount: formatAmount(payment.fiatAmount, payment.destinationCurrency), currency: payment.destinationCurrency, createdAt: payment.createdAt.toISOString(),
      });
      continue;
    }
    if (record.outcome === 'unconfirmed') {
      report.unconfirmed.push({ ...base, ourStatus: payment.status });
      continue;
    }
    if (OUR_OUTCOME[payment.status] !== record.outcome) {
      report.statusMismatches.push({ ...base, ourStatus: payment.status, providerOutcome: record.outcome, providerStatus: record.providerStatus });
    }
    if (paidOtherwise(payment, record)) {
      report.amountMismatches.push({
        ...base, ourAmount: formatAmount(payment.fiatAmount, payment.destinationCurrency), ourCurrency: payment.destinationCurrency,
        providerAmount: record.amount ?? '', providerCurrency: record.currency ?? '',
      });
    }
  }
  for (const record of byId.values()) {
    const payment = await deps.payments.findById(record.paymentId);
    // A list API's window is wider than ours: a payment created outside it is another report's.
    const inWindow = payment && payment.createdAt >= window.from && payment.createdAt < window.to;
    if (payment && !inWindow) continue;
    report.atProviderOnly.push({ paymentId: record.paymentId, ourStatus: payment?.status ?? null, providerOutcome: record.outcome, providerStatus: record.providerStatus });
  }
  report.missingAtProvider.forEach(() => deps.onMismatch?.(provider, 'missing_at_provider'));
  report.statusMismatches.forEach(() => deps.onMismatch?.(provider, 'status_mismatch'));
  report.amountMismatches.forEach(() => deps.onMismatch?.(provider, 'amount_mismatch'));
  return ok(report);
}

/**
 * Whether the provider's record says the payment was paid in another currency or another amount
 * than ours (docs/decisions.md § Reconciliation). Each is compared only when the record carries it:
 * a currency other than the payment's (ISO 4217, compared without regard to case) differs whatever
 * the amount, and an amount that is not our fiat amount as a decimal, or is no decimal at all,
 * differs. A record with neither says nothing about them. Pure.
 */
function paidOtherwise(payment: Payment, record: ProviderRecord): boolean {
  if (record.currency !== undefined && record.currency.toUpperCase() !== payment.destinationCurrency) return true;
  if (record.amount === undefined) return false;
  let amount: Decimal;
  try {
    amount = new Decimal(record.amount);
  } catch {
    return true;
  }
  return !amount.isFinite() || !amount.eq(payment.fiatAmount);
}

/** How many status queries a per-payment reader runs at once. */
const STATUS_CONCURRENCY = 4;

/**
 * A `ProviderRecords` for a provider without a list API: one status query per payment (no amount,
 * since a status answer carries none). A `not_found` answer leaves the payment out (missing at the
 * provider); a query that throws fails the report. With `answersLater` (a provider whose status
 * query is answered by callback, as M-Pesa's Transaction Status), every payment is asked and
 * reported `unconfirmed`: its answer reaches the payment as a callback, not the report.
 */
export function recordsByStatus(provider: PayoutProvider, options: { readonly answersLater?: boolean } = {}): ProviderRecords {
  return {
    provider: provider.name,
    async recordsFor(payments) {
      const records: ProviderRecord[] = [];
      const queue = [...payments];
      const work = async () => {
        for (let payment = queue.shift(); payment; payment = queue.shift()) {
          const outcome = await provider.status(payment);
          if (options.answersLater) records.push({ paymentId: payment.id, outcome: 'unconfirmed', providerStatus: 'asked' });
          else if (outcome.kind !== 'not_found') records.push({ paymentId: payment.id, outcome: outcome.kind, providerStatus: outcome.kind });
        }
      };
      await Promise.all(Array.from({ length: STATUS_CONCURRENCY }, work));
      return records;
    },
  };
}
