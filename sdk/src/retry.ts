/**
 * Retries of the answers the API marks as "try again later" (docs/api.md § Errors and § Creating
 * a payout safely): 409 `idempotency_key_in_use` (the first request with that key is still
 * running), 429 `rate_limited` and 503. Each waits for `Retry-After` when the answer has one, else
 * for a jittered exponential backoff. Every 503 the service answers is refused before anything is
 * written (`service_unavailable` while starting or stopping, `provider_unavailable`,
 * `rate_unavailable`, `screening_unavailable`), and a money-out carries its idempotency key on every attempt, so a retry never
 * makes a second payout.
 */

/** How many times and how long to retry. All durations in milliseconds. */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 4; 1 turns retries off). */
  readonly maxAttempts?: number;
  /** Backoff before the first retry when the answer has no `Retry-After` (default 500 ms); it doubles with each attempt. */
  readonly baseDelayMs?: number;
  /**
   * Longest wait before one retry (default 60,000 ms). An answer whose `Retry-After` asks for
   * longer is returned as it is rather than retried early.
   */
  readonly maxDelayMs?: number;
}

/** Replaceable effects, for tests and custom schedulers. */
export interface RetryEffects {
  /** Waits `ms` milliseconds; rejects when `signal` aborts. Default: a timer. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter. Default: Math.random. */
  readonly random?: () => number;
  /** The current time in ms since the epoch, to read an HTTP-date `Retry-After`. Default: Date.now. */
  readonly now?: () => number;
}

const DEFAULTS = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 60_000 } as const;

/**
 * `Retry-After` in milliseconds: delay-seconds (`"3"`) or an HTTP-date (RFC 9110 § 10.2.3),
 * never negative; undefined when absent or unreadable.
 */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The backoff before retry number `retry` (1 for the first retry) when the answer gave no
 * `Retry-After`: half of `min(maxDelayMs, baseDelayMs × 2^(retry-1))` plus a random part of the
 * other half, so clients refused together do not come back together.
 */
export function backoffMs(retry: number, policy: RetryPolicy = {}, random: () => number = Math.random): number {
  const base = policy.baseDelayMs ?? DEFAULTS.baseDelayMs;
  const cap = Math.min(policy.maxDelayMs ?? DEFAULTS.maxDelayMs, base * 2 ** (retry - 1));
  return cap / 2 + random() * (cap / 2);
}

/** Whether an answer asks to be retried: 429, 503, or 409 whose shape-A `code` is `idempotency_key_in_use`. */
export async function isRetryable(response: Response): Promise<boolean> {
  if (response.status === 429 || response.status === 503) return true;
  if (response.status !== 409) return false;
  try {
    const body: unknown = await response.clone().json();
    return typeof body === 'object' && body !== null && (body as { code?: unknown }).code === 'idempotency_key_in_use';
  } catch {
    return false;
  }
}

/**
 * Wraps a fetch function with the retries above. The request is cloned before each attempt, so
 * its body and headers (the `Idempotency-Key` included) are sent again unchanged; the last answer
 * is returned whatever it is. A network failure (`fetchImpl` throws) is retried, after the
 * backoff, only for a request that carries an `Idempotency-Key`: the service may have acted on a
 * request whose answer was lost, and only the key makes sending it again safe.
 */
export function withRetries(
  fetchImpl: (request: Request) => Promise<Response>,
  policy: RetryPolicy = {},
  effects: RetryEffects = {},
): (request: Request) => Promise<Response> {
  const maxAttempts = Math.max(1, policy.maxAttempts ?? DEFAULTS.maxAttempts);
  const maxDelayMs = policy.maxDelayMs ?? DEFAULTS.maxDelayMs;
  const sleep = effects.sleep ?? abortableSleep;
  const random = effects.random ?? Math.random;
  const now = effects.now ?? Date.now;
  return async (request) => {
    const template = request.clone();
    const keyed = request.headers.has('idempotency-key');
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetchImpl(attempt === 1 ? request : template.clone());
      } catch (error) {
        if (!keyed || attempt >= maxAttempts || request.signal.aborted) throw error;
        await sleep(backoffMs(attempt, policy, random), request.signal);
        continue;
      }
      if (attempt >= maxAttempts || !(await isRetryable(response))) return response;
      const told = retryAfterMs(response.headers.get('retry-after'), now());
      const delay = told ?? backoffMs(attempt, policy, random);
      if (delay > maxDelayMs) return response;
      // The answer is dropped: free its connection before waiting.
      await response.body?.cancel().catch(() => undefined);
      await sleep(delay, request.signal);
    }
  };
}

/** A timer of `ms` milliseconds that rejects with the signal's reason when the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
