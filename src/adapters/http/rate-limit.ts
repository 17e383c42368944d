import type { Response } from 'express';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Principal } from '../../core/auth/api-key';

/** Window of every limit, in seconds. */
const WINDOW_S = 60;

/**
 * Per-key request limits with a PostgreSQL store, so every replica counts the same
 * (issue 6). `limitFor` gives a tenant's requests per minute (its override, else the default);
 * one limiter exists per distinct limit.
 */
export class RateLimits {
  private readonly limiters = new Map<number, RateLimiterPostgres>();

  constructor(
    private readonly storeClient: unknown,
    private readonly limitFor: (tenantId: string | null) => Promise<number>,
  ) {}

  /**
   * Counts one request of `principal`. Sets `RateLimit-Policy` and `RateLimit` headers (IETF
   * draft) and, when the limit is spent, `Retry-After`; returns false then. A limit of 0 means off.
   */
  async allow(principal: Principal, res: Response): Promise<boolean> {
    const limit = await this.limitFor(principal.tenantId);
    if (limit <= 0) return true;
    const limiter = this.limiterFor(limit);
    try {
      const state = await limiter.consume(principal.keyId, 1);
      setHeaders(res, limit, state);
      return true;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      setHeaders(res, limit, rejection);
      res.set('Retry-After', String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))));
      return false;
    }
  }

  private limiterFor(points: number): RateLimiterPostgres {
    let limiter = this.limiters.get(points);
    if (!limiter) {
      limiter = new RateLimiterPostgres({
        storeClient: this.storeClient, storeType: 'knex', tableName: 'rate_limits', tableCreated: true,
        keyPrefix: `rl${points}`, points, duration: WINDOW_S,
      });
      this.limiters.set(points, limiter);
    }
    return limiter;
  }
}

/** The headers of draft-ietf-httpapi-ratelimit-headers-07: policy `limit;w=window`, then limit, remaining and reset seconds. */
function setHeaders(res: Response, limit: number, state: RateLimiterRes): void {
  res.set('RateLimit-Policy', `${limit};w=${WINDOW_S}`);
  res.set('RateLimit', `limit=${limit}, remaining=${Math.max(0, state.remainingPoints)}, reset=${Math.ceil(state.msBeforeNext / 1000)}`);
}
