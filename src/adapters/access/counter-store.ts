import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
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

/** How long one Redis command may take before the in-memory count answers instead, in ms. */
const REDIS_COMMAND_TIMEOUT_MS = 500;
/** After a command timed out: how long Redis is left alone before a PING asks whether it answers again, in ms. */
const REDIS_BACKOFF_MS = 2000;

/**
 * Counts in Redis at `url` (rate-limiter-flexible's RateLimiterRedis on ioredis), keys prefixed
 * with `prefix`, so every replica shares one count per key. When Redis is down or slow the service
 * fails open to counting in memory (docs/decisions.md § Rate limits and abuse limits): requests keep
 * being served and limited per process; one warn line marks the outage and one info line its end,
 * whatever its cause. Nothing waits for Redis: no offline queue, a refused connection fails at
 * once, and a command that has not answered within the command timeout (a hung Redis: stopped, or
 * a peer that accepts and never answers) is answered from memory and stops every counter asking
 * Redis: requests count in memory until a PING, sent every back-off period, is answered.
 */
export function redisCounterStore(url: string, prefix: string, logger: Logger): CounterStore {
  const client = new Redis(url, {
    lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  const health = new RedisHealth(client, logger);
  client.on('error', (error: Error) => health.unreachable(error.message));
  client.on('ready', () => health.answered());
  return {
    kind: 'redis',
    counter: (name, windowS) => new FallibleRedisCounter({
      storeClient: client, keyPrefix: `${prefix}${name}`, points: UNBOUNDED, duration: windowS, rejectIfRedisNotReady: true,
    }, new RateLimiterMemory({ keyPrefix: name, points: UNBOUNDED, duration: windowS }), health),
    // A failed first connection is already logged by the error listener; ioredis keeps retrying.
    start: () => client.connect().catch(() => undefined),
    close: async () => {
      health.close();
      client.removeAllListeners('error');
      client.on('error', () => undefined);
      client.disconnect();
    },
  };
}

/**
 * Whether counters ask Redis now, and the outage's two log lines: one warn when Redis stops
 * answering (an error, or a command timeout), one info when it answers again (ready again, or a
 * PING answered after a timeout).
 */
class RedisHealth {
  private down = false;
  /** Set by a command timeout: counters answer from memory until a PING is answered. */
  private paused = false;
  private probe: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly client: Redis, private readonly logger: Logger) {}

  /** Counters may ask Redis (no command has timed out since it last answered). */
  get asking(): boolean {
    return !this.paused;
  }

  /** A connection error: logged once per outage. */
  unreachable(reason: string): void {
    if (this.down) return;
    this.down = true;
    this.logger.warn({ err: reason }, 'Redis unreachable: rate limits count in this process only until it answers again');
  }

  /** Redis answered (a connection became ready, or a PING came back): counters ask it again. */
  answered(): void {
    this.paused = false;
    clearTimeout(this.probe);
    this.probe = undefined;
    if (!this.down) return;
    this.down = false;
    this.logger.info('Redis answers again: rate limits are shared by every replica again');
  }

  /** A counter's command was not answered in time: stop asking Redis until a PING is answered. */
  timedOut(): void {
    if (!this.down) {
      this.down = true;
      this.logger.warn({ timeoutMs: REDIS_COMMAND_TIMEOUT_MS, backoffMs: REDIS_BACKOFF_MS },
        'Redis does not answer in time: rate limits count in this process only until it answers again');
    }
    if (this.paused) return;
    this.paused = true;
    this.schedulePing();
  }

  /** The store closes: no PING is sent any more. */
  close(): void {
    this.closed = true;
    clearTimeout(this.probe);
  }

  private schedulePing(): void {
    if (this.closed) return;
    this.probe = setTimeout(() => {
      this.client.ping().then(() => {
        if (!this.closed) this.answered();
      }, () => {
        if (this.paused) this.schedulePing();
      });
    }, REDIS_BACKOFF_MS);
    this.probe.unref();
  }
}

/** ioredis rejects a command with this message when `commandTimeout` passes without an answer. */
const isCommandTimeout = (error: unknown) => error instanceof Error && error.message === 'Command timed out';

/**
 * A RateLimiterRedis whose counts fall back to `memory` when Redis fails (rate-limiter-flexible's
 * insurance limiter does the same, but hides why): a command timeout also tells `health`, which
 * then keeps every counter off Redis for a back-off, so a hung Redis costs one timeout per outage,
 * not one per request. The two operations the service's counters use, `consume` and `get`, are
 * the ones guarded.
 */
class FallibleRedisCounter extends RateLimiterRedis {
  constructor(options: ConstructorParameters<typeof RateLimiterRedis>[0], private readonly memory: RateLimiterMemory, private readonly health: RedisHealth) {
    super(options);
  }

  override consume(key: string | number, points = 1, options: Record<string, unknown> = {}): Promise<RateLimiterRes> {
    return this.guarded(() => super.consume(key, points, options), () => this.memory.consume(key, points, options));
  }

  override get(key: string | number, options: Record<string, unknown> = {}): Promise<RateLimiterRes | null> {
    return this.guarded(() => super.get(key, options), () => this.memory.get(key, options));
  }

  private async guarded<T>(redis: () => Promise<T>, memory: () => Promise<T>): Promise<T> {
    if (!this.health.asking) return memory();
    try {
      return await redis();
    } catch (error) {
      // A RateLimiterRes rejection is a refusal, not a fault; UNBOUNDED points never give one.
      if (error instanceof RateLimiterRes) throw error;
      if (isCommandTimeout(error)) this.health.timedOut();
      return memory();
    }
  }
}
