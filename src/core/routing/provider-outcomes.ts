import type { PaymentFailureCode } from '../payments/payment-failure';
import type { PayoutCorridor } from './provider-routing';
import type { RoutingDecision, WindowFigures } from './success-rate-scoring';

/**
 * Whether a failure code counts against the provider in its success rate (docs/decisions.md
 * § Payout providers: routing on measured success). Only what another provider might have done
 * better counts: the recipient's account, a limit or a reversal is not the provider's fault, and
 * a compliance rejection never reaches a provider. Our own float at the provider and a payment the
 * provider cannot carry do count: another provider may have the float and the rail.
 */
export const COUNTS_AGAINST_PROVIDER: Readonly<Record<PaymentFailureCode, boolean>> = {
  recipient_account_invalid: false,
  limit_exceeded: false,
  insufficient_provider_balance: true,
  declined: true,
  expired: true,
  reversed: false,
  unsupported_by_provider: true,
  provider_error: true,
  unknown: true,
  compliance_rejected: false,
};

/**
 * The corridor a provider's figures are kept for: the payment's country, method and operator
 * code; for BANK the bank code is `*`, since one provider's transfers to a country's banks share
 * one rail and per-bank figures would rarely reach the minimum sample. Pure.
 */
export function statsCorridorOf(corridor: PayoutCorridor): PayoutCorridor {
  return { country: corridor.country, paymentMethod: corridor.paymentMethod, paymentCode: corridor.paymentMethod === 'BANK' ? '*' : corridor.paymentCode };
}

/** One counted observation: a success, a failure, and/or a submission latency (milliseconds). */
export interface OutcomeSample {
  readonly provider: string;
  /** As `statsCorridorOf` gives it. */
  readonly corridor: PayoutCorridor;
  readonly at: Date;
  readonly outcome?: 'success' | 'failure';
  readonly latencyMs?: number;
}

/**
 * Port: the sliding window of providers' outcomes per corridor, shared by every replica
 * (docs/decisions.md § Payout providers: routing on measured success). `record` adds one sample to
 * its time bucket; `figures` sums each provider's buckets from `since` on.
 */
export interface ProviderOutcomeWindow {
  record(sample: OutcomeSample): Promise<void>;
  figures(corridor: PayoutCorridor, since: Date): Promise<ReadonlyMap<string, WindowFigures>>;
}

/** Port: where each payment's latest routing decision is kept for operators (admin payment view). */
export interface RoutingDecisionLog {
  record(paymentId: string, decidedAt: Date, decision: RoutingDecision): Promise<void>;
  /** The latest decision and when it was made; undefined when none was recorded (sandbox, or before decisions were kept). */
  find(paymentId: string): Promise<{ readonly decidedAt: Date; readonly decision: RoutingDecision } | undefined>;
}
