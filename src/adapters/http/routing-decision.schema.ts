import { z } from 'zod';
import { ROUTING_REASONS, ROUTING_STRATEGIES } from '../../core/routing/success-rate-scoring';

/** One candidate provider as a routing decision saw it (docs/decisions.md § Payout providers: routing on measured success). */
const RoutingCandidate = z.object({
  name: z.string().meta({ description: 'Payout provider name', example: 'mpesa' }),
  healthy: z.boolean().meta({ description: 'False while its circuit breaker was open: never chosen' }),
  successes: z.number().int().meta({ description: 'Provider-attributable successes in the window', example: 182 }),
  failures: z.number().int().meta({ description: 'Provider-attributable failures in the window', example: 4 }),
  successRate: z.number().nullable().meta({ description: 'successes / (successes + failures), 4 decimals; null below the minimum sample', example: 0.9785 }),
  meanLatencyMs: z.number().int().nullable().meta({ description: 'Mean submission latency in milliseconds; null when none was measured', example: 840 }),
});

/** A payment's routing decision as adminGetPayment shows it. */
export const RoutingDecisionSchema = z.object({
  decidedAt: z.string().meta({ description: 'When the decision was made (ISO 8601 UTC)', example: '2026-11-27T06:10:00.000Z' }),
  strategy: z.enum(ROUTING_STRATEGIES).meta({ description: 'ordered: the routing table order; success_rate: ranked on measured success' }),
  reason: z.enum(ROUTING_REASONS).meta({ description: 'Why the first provider is first: ordered, ranked (best score), hedged (a random other provider, to keep its figures fresh), sole (one healthy candidate)' }),
  hedged: z.boolean().meta({ description: 'True when a provider other than the best ranked was put first' }),
  order: z.array(z.string()).meta({ description: 'Healthy providers in the order they are tried', example: ['mpesa'] }),
  candidates: z.array(RoutingCandidate).meta({ description: 'Every configured provider of the corridor, in routing table order, with its figures' }),
}).meta({ id: 'RoutingDecision' });
