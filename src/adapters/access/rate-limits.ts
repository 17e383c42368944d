import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Principal } from '../../core/auth/api-key';
import type { CounterStore } from './counter-store';

/** Window of every request limit, in seconds. */
export const RATE_WINDOW_S = 60;

/** Outcome of counting one request against its key's limit. */
export interface RateDecision {
  readonly allowed: boolean;
  /** Requests per window (RATE_WINDOW_S seconds); 0 when limits are off. */
  readonly limit: number;
  /** Requests left in the window. */
  readonly remaining: number;
  /** Seconds until the window resets. */
  readonly resetS: number;
  /** Seconds to wait before retrying (at least 1); meaningful when not allowed. */
  readonly retryAfterS: number;
}

/**
 * Per-key request limits, the one rate-limit decision of every transport (docs/decisions.md § Rate
 * limits and abuse limits): HTTP requests, GraphQL requests and graphql-ws connections and
 * subscriptions draw on one budget per key, in a fixed window of RATE_WINDOW_S seconds. `limitFor`
 * gives a tenant's requests per window (its override, else the default; 0 turns limits off). A
 * key has one count whatever limit it is compared with, so a changed limit (or a replica still
 * caching the old one) never opens a fresh budget; refused requests count too.
 */
export class RateLimits {
  private readonly counter: RateLimiterAbstract;

  constructor(store: CounterStore, private readonly limitFor: (tenantId: string | null) => Promise<number>) {
    this.counter = store.counter('rl:', RATE_WINDOW_S);
  }

  /** Counts `points` requests (default 1) of `principal`, whatever the transport. */
  async consume(principal: Principal, points = 1): Promise<RateDecision> {
    return decide(this.counter, principal.keyId, await this.limitFor(principal.tenantId), points);
  }
}

/**
 * Requests per client address and window (RATE_WINDOW_S seconds) to the routes that no key guards:
 * the payout providers' callbacks (docs/decisions.md § Rate limits and abuse limits), counted in the
 * same store as the key limits under their own name, before anything else is done with the request.
 * The address is the one the TRUST_PROXY rules give. `perWindow` 0 turns the limit off.
 */
export class AddressRateLimits {
  private readonly counter: RateLimiterAbstract;

  constructor(store: CounterStore, private readonly perWindow: number, name = 'cb:') {
    this.counter = store.counter(name, RATE_WINDOW_S);
  }

  /** Counts one request from `address`. */
  async consume(address: string): Promise<RateDecision> {
    return decide(this.counter, address, this.perWindow, 1);
  }
}

/** Counts `points` for `key` and compares the window's count with `limit` (0 or less: off, nothing counted). */
async function decide(counter: RateLimiterAbstract, key: string, limit: number, points: number): Promise<RateDecision> {
  if (limit <= 0) return { allowed: true, limit: 0, remaining: 0, resetS: 0, retryAfterS: 0 };
  const state = await counter.consume(key, points);
  const resetS = Math.ceil(state.msBeforeNext / 1000);
  return {
    allowed: state.consumedPoints <= limit, limit, remaining: Math.max(0, limit - state.consumedPoints), resetS,
    retryAfterS: Math.max(1, resetS),
  };
}

/**
 * HTTP headers of a decision, for REST and GraphQL over HTTP: `RateLimit-Policy` and `RateLimit`
 * (draft-ietf-httpapi-ratelimit-headers-07: `600;w=60`, `limit=600, remaining=599, reset=60`) and,
 * when refused, `Retry-After` in seconds. None when limits are off.
 */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  if (decision.limit === 0) return {};
  return {
    'RateLimit-Policy': `${decision.limit};w=${RATE_WINDOW_S}`,
    RateLimit: `limit=${decision.limit}, remaining=${decision.remaining}, reset=${decision.resetS}`,
    ...(decision.allowed ? {} : { 'Retry-After': String(decision.retryAfterS) }),
  };
}

/** The message of a refused request (every transport's `rate_limited`). */
export function rateLimitedMessage(decision: RateDecision): string {
  return `Too many requests for this API key; retry after ${decision.retryAfterS} s`;
}
