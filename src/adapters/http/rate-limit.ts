import type { Response } from 'express';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Principal } from '../../core/auth/api-key';

/** Window of every limit, in seconds. */
const WINDOW_S = 60;

/** Outcome of counting one request against its key's limit. */
export interface RateDecision {
  readonly allowed: boolean;
  /** Requests per window (WINDOW_S seconds); 0 when limits are off. */
  readonly limit: number;
  /** Requests left in the window. */
  readonly remaining: number;
  /** Seconds until the window resets. */
  readonly resetS: number;
  /** Seconds to wait before retrying (at least 1); meaningful when not allowed. */
  readonly retryAfterS: number;
}

/**
 * Per-key request limits with a PostgreSQL store, so every replica counts the same
 * (issue 6). `limitFor` gives a tenant's requests per minute (its override, else the default);
 * one limiter exists per distinct limit, all counting in the same per-key row. HTTP requests, GraphQL requests and graphql-ws
 * connections and subscriptions all draw on the same per-key budget.
 */
export class RateLimits {
  private readonly limiters = new Map<number, RateLimiterPostgres>();

  constructor(
    private readonly storeClient: unknown,
    private readonly limitFor: (tenantId: string | null) => Promise<number>,
  ) {}

  /** Counts one request of `principal`, whatever the transport. A limit of 0 means off (always allowed). */
  async consume(principal: Principal): Promise<RateDecision> {
    const limit = await this.limitFor(principal.tenantId);
    if (limit <= 0) return { allowed: true, limit: 0, remaining: 0, resetS: 0, retryAfterS: 0 };
    try {
      return decision(true, limit, await this.limiterFor(limit).consume(principal.keyId, 1));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return decision(false, limit, rejection);
    }
  }

  /**
   * Counts one HTTP request of `principal`. Sets `RateLimit-Policy` and `RateLimit` headers (IETF
   * draft) and, when the limit is spent, `Retry-After`; returns false then.
   */
  async allow(principal: Principal, res: Response): Promise<boolean> {
    const outcome = await this.consume(principal);
    if (outcome.limit === 0) return true;
    // draft-ietf-httpapi-ratelimit-headers-07: policy `limit;w=window`, then limit, remaining and reset seconds.
    res.set('RateLimit-Policy', `${outcome.limit};w=${WINDOW_S}`);
    res.set('RateLimit', `limit=${outcome.limit}, remaining=${outcome.remaining}, reset=${outcome.resetS}`);
    if (!outcome.allowed) res.set('Retry-After', String(outcome.retryAfterS));
    return outcome.allowed;
  }

  private limiterFor(points: number): RateLimiterPostgres {
    let limiter = this.limiters.get(points);
    if (!limiter) {
      limiter = new RateLimiterPostgres({
        storeClient: this.storeClient, storeType: 'knex', tableName: 'rate_limits', tableCreated: true,
        // One prefix for every limit: a key's count is one row whatever limit it is compared with,
        // so changing a tenant's limit (or a replica still caching the old one) never opens a fresh budget.
        keyPrefix: 'rl', points, duration: WINDOW_S,
      });
      this.limiters.set(points, limiter);
    }
    return limiter;
  }
}

function decision(allowed: boolean, limit: number, state: RateLimiterRes): RateDecision {
  return {
    allowed, limit, remaining: Math.max(0, state.remainingPoints), resetS: Math.ceil(state.msBeforeNext / 1000),
    retryAfterS: Math.max(1, Math.ceil(state.msBeforeNext / 1000)),
  };
}
