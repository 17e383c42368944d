import type { PaymentFailureCode } from '../payments/payment-failure';
import type { PayoutProvider } from '../payments/payout-provider';
import type { Clock } from '../shared/clock';
import { COUNTS_AGAINST_PROVIDER, statsCorridorOf, type ProviderOutcomeWindow, type RoutingDecisionLog } from './provider-outcomes';
import type { PayoutCorridor, PayoutRouted } from './provider-routing';
import { decideRoute, type RoutingDecision, type ScoringSettings, type WindowFigures } from './success-rate-scoring';

/** What routing on measured success needs (docs/decisions.md § Payout providers: routing on measured success). */
export interface RouteScoringDeps {
  readonly window: ProviderOutcomeWindow;
  readonly decisions: RoutingDecisionLog;
  /** Scoring settings plus the window's length in milliseconds. */
  readonly settings: ScoringSettings & { readonly windowMs: number };
  /** A number in [0, 1) per call: decides the hedged share. */
  readonly random: () => number;
  /** A monotonic clock in milliseconds, to time submissions. */
  readonly nowMs: () => number;
  /** Called with each decision, e.g. to count it in metrics. */
  readonly onDecided?: (corridor: PayoutCorridor, decision: RoutingDecision) => void;
  /** A storage fault of the window or the decision log: routing goes on without it (the table's order, no record). */
  readonly onFault?: (error: unknown) => void;
}

type ProvidersRoute = Extract<PayoutRouted, { kind: 'providers' }>;

/**
 * The order to try a payment's routed providers in, with the decision recorded on the payment
 * (docs/decisions.md § Payout providers: routing on measured success). Without `scoring`, or for a
 * route without `candidates` (the sandbox's), the route's own order, nothing recorded. A fault reading the window decides on no figures (the table's order, still
 * hedged); a fault recording the decision is reported and routing goes on.
 */
export async function rankRoute(
  scoring: RouteScoringDeps | undefined,
  clock: Clock,
  paymentId: string,
  corridor: PayoutCorridor,
  route: ProvidersRoute,
): Promise<readonly PayoutProvider[]> {
  if (!scoring || !route.candidates) return route.providers;
  const strategy = route.strategy ?? 'ordered';
  const now = clock.now();
  let figures: ReadonlyMap<string, WindowFigures> = new Map();
  if (strategy === 'success_rate') {
    try {
      figures = await scoring.window.figures(statsCorridorOf(corridor), new Date(now.getTime() - scoring.settings.windowMs));
    } catch (error) {
      scoring.onFault?.(error);
    }
  }
  const candidates = route.candidates.map((c) => ({ ...c, ...(figures.get(c.name) ? { figures: figures.get(c.name) } : {}) }));
  const decision = decideRoute(strategy, candidates, scoring.settings, scoring.random);
  scoring.onDecided?.(corridor, decision);
  try {
    await scoring.decisions.record(paymentId, now, decision);
  } catch (error) {
    scoring.onFault?.(error);
  }
  const byName = new Map(route.providers.map((p) => [p.name, p]));
  const ordered = decision.order.map((name) => byName.get(name)).filter((p): p is PayoutProvider => p !== undefined);
  return ordered.length > 0 ? ordered : route.providers;
}

/** A provider's outcome for a payment, as its success rate counts it. */
export type CountedOutcome =
  | { readonly kind: 'succeeded' }
  | { readonly kind: 'failed'; readonly code: PaymentFailureCode }
  | { readonly kind: 'unanswered' };

/**
 * Adds one outcome (and optionally a submission latency in ms) to the provider's window: a
 * success; a failure when `COUNTS_AGAINST_PROVIDER` says its code is the provider's, or a
 * submission left unanswered; otherwise only the latency. Storage faults are reported, never
 * thrown: a lost sample must not hold up a payment.
 */
export async function countOutcome(
  scoring: RouteScoringDeps | undefined,
  at: Date,
  provider: string,
  corridor: PayoutCorridor,
  outcome: CountedOutcome | undefined,
  latencyMs?: number,
): Promise<void> {
  if (!scoring) return;
  const counted = outcome === undefined ? undefined
    : outcome.kind === 'succeeded' ? 'success'
      : outcome.kind === 'unanswered' || COUNTS_AGAINST_PROVIDER[outcome.code] ? 'failure' : undefined;
  if (counted === undefined && latencyMs === undefined) return;
  try {
    await scoring.window.record({
      provider, corridor: statsCorridorOf(corridor), at,
      ...(counted ? { outcome: counted } : {}), ...(latencyMs !== undefined ? { latencyMs: Math.max(0, Math.round(latencyMs)) } : {}),
    });
  } catch (error) {
    scoring.onFault?.(error);
  }
}
