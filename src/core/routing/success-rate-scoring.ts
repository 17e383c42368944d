/**
 * How a corridor's providers are put in order (docs/decisions.md § Payout providers: routing on
 * measured success): `ordered` tries them in the routing table's order; `success_rate` ranks them
 * by their recent success rate and latency, keeping a small hedged share on the others.
 */
export const ROUTING_STRATEGIES = ['ordered', 'success_rate'] as const;
export type RoutingStrategy = (typeof ROUTING_STRATEGIES)[number];

/** The strategy of a routing table row that names none (docs/decisions.md § Payout providers: routing on measured success). */
export const DEFAULT_ROUTING_STRATEGY: RoutingStrategy = 'success_rate';

/**
 * Why the first provider of a decision is first: `ordered` (the table's order), `ranked` (best
 * score), `hedged` (a random other provider, so its figures stay fresh), `sole` (one candidate).
 */
export const ROUTING_REASONS = ['ordered', 'ranked', 'hedged', 'sole'] as const;
export type RoutingReason = (typeof ROUTING_REASONS)[number];

/** One provider's counted outcomes in a corridor over the window; latencies in milliseconds. */
export interface WindowFigures {
  /** Provider-attributable successes (payouts that succeeded). */
  readonly successes: number;
  /** Provider-attributable failures (docs/decisions.md § Payout providers: routing on measured success). */
  readonly failures: number;
  /** Sum of the measured submission latencies, in milliseconds. */
  readonly latencyMsSum: number;
  /** How many submission latencies were measured. */
  readonly latencySamples: number;
}

/** A provider the routing table lists for the corridor and this deployment configures, in table order. */
export interface RouteCandidate {
  /** `PayoutProvider.name`. */
  readonly name: string;
  /** False while its circuit breaker is open: it is never chosen. */
  readonly healthy: boolean;
  /** Its figures over the window; absent when it has none. */
  readonly figures?: WindowFigures;
}

/** Settings of the success-rate strategy. */
export interface ScoringSettings {
  /** Counted outcomes below which a provider's rate is unknown and `neutralSuccessRate` stands in for it. */
  readonly minSamples: number;
  /** Share of decisions (0..1) that put a random other healthy provider first. */
  readonly hedgeShare: number;
  /** Width of a success-rate band in percentage points: within one band the faster provider ranks first. */
  readonly bandPoints: number;
  /** The rate (0..1) assumed for a provider with fewer than `minSamples` outcomes. */
  readonly neutralSuccessRate: number;
}

/** One candidate as the decision saw it, recorded on the payment for operators. */
export interface CandidateView {
  readonly name: string;
  readonly healthy: boolean;
  readonly successes: number;
  readonly failures: number;
  /** successes / (successes + failures), 4 decimals; null below the minimum sample. */
  readonly successRate: number | null;
  /** Mean submission latency in whole milliseconds; null when none was measured. */
  readonly meanLatencyMs: number | null;
}

/** A routing decision and its inputs (docs/decisions.md § Payout providers: routing on measured success). */
export interface RoutingDecision {
  readonly strategy: RoutingStrategy;
  readonly reason: RoutingReason;
  readonly hedged: boolean;
  /** Healthy providers in the order they are tried (failover follows it); empty when none is healthy. */
  readonly order: readonly string[];
  /** Every configured candidate, in the routing table's order. */
  readonly candidates: readonly CandidateView[];
}

const EMPTY: WindowFigures = { successes: 0, failures: 0, latencyMsSum: 0, latencySamples: 0 };

/**
 * Orders a corridor's candidates (docs/decisions.md § Payout providers: routing on measured
 * success). Unhealthy candidates (open breaker) are never in `order`. `ordered` keeps the table's
 * order. `success_rate` sorts by success-rate band (a rate below `minSamples` outcomes counts as
 * `neutralSuccessRate`), then by mean latency (unmeasured last), then by table order; then, with
 * probability `hedgeShare`, one of the others chosen uniformly is moved to the front. `random`
 * returns a number in [0, 1) (injected so tests can seed it). Pure.
 */
export function decideRoute(
  strategy: RoutingStrategy,
  candidates: readonly RouteCandidate[],
  settings: ScoringSettings,
  random: () => number,
): RoutingDecision {
  const views = candidates.map((candidate) => viewOf(candidate, settings.minSamples));
  const healthy = candidates.map((candidate, index) => ({ candidate, view: views[index]!, index })).filter((c) => c.candidate.healthy);
  const base = { strategy, candidates: views } as const;
  if (healthy.length <= 1) return { ...base, reason: healthy.length === 1 ? 'sole' : strategy === 'ordered' ? 'ordered' : 'ranked', hedged: false, order: healthy.map((c) => c.view.name) };
  if (strategy === 'ordered') return { ...base, reason: 'ordered', hedged: false, order: healthy.map((c) => c.view.name) };
  const band = (view: CandidateView) => Math.floor(((view.successRate ?? settings.neutralSuccessRate) * 100) / settings.bandPoints + 1e-9);
  const ranked = [...healthy].sort((a, b) => band(b.view) - band(a.view)
    || (a.view.meanLatencyMs ?? Infinity) - (b.view.meanLatencyMs ?? Infinity)
    || a.index - b.index);
  const order = ranked.map((c) => c.view.name);
  if (random() < settings.hedgeShare) {
    const pick = 1 + Math.min(order.length - 2, Math.floor(random() * (order.length - 1)));
    const [hedge] = order.splice(pick, 1);
    return { ...base, reason: 'hedged', hedged: true, order: [hedge!, ...order] };
  }
  return { ...base, reason: 'ranked', hedged: false, order };
}

function viewOf(candidate: RouteCandidate, minSamples: number): CandidateView {
  const figures = candidate.figures ?? EMPTY;
  const counted = figures.successes + figures.failures;
  return {
    name: candidate.name,
    healthy: candidate.healthy,
    successes: figures.successes,
    failures: figures.failures,
    successRate: counted >= minSamples && counted > 0 ? Math.round((figures.successes / counted) * 10_000) / 10_000 : null,
    meanLatencyMs: figures.latencySamples > 0 ? Math.round(figures.latencyMsSum / figures.latencySamples) : null,
  };
}
