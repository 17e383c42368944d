import type { Payment } from '../payments/payment';
import type { PayoutProvider, UnknownStatusFindings } from '../payments/payout-provider';
import { namedPayoutProvider, payoutRoute, type RoutingDeps } from '../routing/provider-routing';

/**
 * Port: the provider that took a payment (docs/decisions.md § Reconciliation), asked before a
 * status query. Undefined when no provider serves the payment any more (it is then only logged).
 */
export interface ProviderOfPayment {
  providerOf(payment: Payment): Promise<PayoutProvider | undefined>;
}

/**
 * The provider a payment records (the one that took it), or for a payment that records none the
 * corridor's first choice, as the payout worker would pick it. Pure apart from reading the tenant's
 * environment.
 */
export function routedProviderOfPayment(deps: RoutingDeps): ProviderOfPayment {
  return {
    async providerOf(payment) {
      if (payment.provider) return namedPayoutProvider(deps, payment.tenantId, payment.provider);
      const route = await payoutRoute(deps, payment.tenantId, payment);
      return route.kind === 'providers' ? route.providers[0] : undefined;
    },
  };
}

/**
 * Kinds of mismatch between our payments and a provider's records (docs/decisions.md
 * § Reconciliation). `unknown_provider_status`: the provider answered a status (or result code)
 * its adapter does not map, so the payment waits for an operator rather than a guess.
 */
export const MISMATCH_KINDS = ['missing_at_provider', 'status_mismatch', 'amount_mismatch', 'unknown_provider_status'] as const;
export type MismatchKind = (typeof MISMATCH_KINDS)[number];

/**
 * A mismatch the reconciliation worker found on a stuck payment, kept until it is looked at:
 * never corrected by the service itself. `seenAt` is the latest check that found it.
 */
export interface ReconciliationFinding {
  readonly paymentId: string;
  readonly tenantId: string;
  /** `PayoutProvider.name` of the provider asked. */
  readonly provider: string;
  readonly kind: MismatchKind;
  /** Human-readable detail for operators (no personal data). */
  readonly detail: string;
  readonly seenAt: Date;
}

/**
 * Port: the reconciliation worker's queue and its record of checks (docs/decisions.md
 * § Reconciliation). `claimStuck` takes up to `limit` payments still `provider_accepted` that were
 * accepted at or before `acceptedBefore` and whose last check is not later than `now` due, skipping
 * rows another worker holds, and leases each until `leaseUntil`. `recordCheck` says when to look at
 * the payment again and keeps (or clears) its finding. As `UnknownStatusFindings`, it also keeps
 * the `unknown_provider_status` finding the payout worker or a callback records, until a later
 * check replaces it.
 */
export interface ReconciliationChecks extends UnknownStatusFindings {
  claimStuck(now: Date, acceptedBefore: Date, limit: number, leaseUntil: Date): Promise<Payment[]>;
  recordCheck(check: {
    readonly paymentId: string;
    readonly provider: string | null;
    readonly checkedAt: Date;
    readonly nextCheckAt: Date;
    readonly finding: { readonly kind: MismatchKind; readonly detail: string } | null;
  }): Promise<void>;
  /** Findings still standing on payments that are not final, newest first, at most `limit`. */
  listFindings(limit: number): Promise<ReconciliationFinding[]>;
}
