import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from 'pino';

/**
 * Counters never refuse by themselves: a caller reads `consumedPoints` and compares it with the
 * limit that applies now, so one count per key serves every limit (a new limit never opens a fresh
 * budget; docs/decisions.md § Rate limits and abuse limits).
 */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/**
 * Where request and failure counts live (docs/decisions.md § Rate limits and abuse limits): in this
 * process's memory when the service runs alone, in Redis when replicas must share them.
 */
export interface CounterStore {
  /** `memory` or `redis`, for the start log. */
  readonly kind: 'memory' | 'redis';
  /** A counter of fixed `windowS`-second windows, its keys under `name`. */
  counter(name: string, windowS: number): RateLimiterAbstract;
  /** Connects (Redis: waits until it answers or fails once; a failure is logged, never thrown). */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Counts in this process (rate-limiter-flexible's RateLimiterMemory): the default, one process. */
export function memoryCounterStore(): CounterStore {
  return {
    kind: 'memory',
    counter: (name, windowS) => new RateLimiterMemory({ keyPrefix: name, points: UNBOUNDED, duration: windowS }),
    start: async () => undefined,
    close: async () => undefined,
  };
}

/** How long one Redis command may take before the in-memory insurance counter answers instead, in ms. */
const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * Counts in Redis at `url` (rate-limiter-flexible's RateLimiterRedis on ioredis), keys prefixed
 * with `prefix`, so every replica shares one count per key. When Redis is down or slow the service
 * fails open to counting in memory (each counter's `insuranceLimiter`): requests keep being served
 * and limited per process, one warn line marks the outage and one info line its end; nothing waits
 * for Redis (no offline queue, commands time out after REDIS_COMMAND_TIMEOUT_MS).
 */
export function redisCounterStore(url: string, prefix: string, logger: Logger): CounterStore {
  const client = new Redis(url, {
    lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn({ err: error.message }, 'Redis unreachable: rate limits count in this process only until it answers again');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info('Redis answers again: rate limits are shared by every replica again');
  });
  return {
    kind: 'redis',
    counter: (name, windowS) => new RateLimiterRedis({
      storeClient: client, keyPrefix: `${prefix}${name}`, points: UNBOUNDED, duration: windowS, rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: name, points: UNBOUNDED, duration: windowS }),
    }),
    // A failed first connection is already logged by the error listener; ioredis keeps retrying.
    start: () => client.connect().catch(() => undefined),
    close: async () => {
      client.removeAllListeners('error');
      client.on('error', () => undefined);
      client.disconnect();
    },
  };
}
