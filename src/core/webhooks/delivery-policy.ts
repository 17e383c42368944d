/**
 * Default retry schedule in milliseconds (docs/decisions.md § Webhooks, Standard Webhooks): the wait before each
 * attempt. Attempt 1 is immediate; after the last attempt fails the delivery is `failed`.
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  0, 5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 14 * 3_600_000, 20 * 3_600_000, 24 * 3_600_000,
];

/** What a receiver's answer (or the lack of one) means for the delivery. */
export type AttemptOutcome =
  | { readonly kind: 'delivered'; readonly statusCode: number }
  | { readonly kind: 'gone'; readonly statusCode: 410 }
  | { readonly kind: 'retry'; readonly error: string; readonly retryAfterMs?: number };

/**
 * Classifies an HTTP answer (docs/decisions.md § Webhooks): 2xx delivered; 410 gone (disables the registration);
 * anything else, 3xx included (redirects are not followed), is a failure to retry. `Retry-After`
 * counts on 429 and 503 only. `retryAfterMs` is the parsed header in milliseconds, if any.
 */
export function classifyResponse(statusCode: number, retryAfterMs?: number): AttemptOutcome {
  if (statusCode >= 200 && statusCode < 300) return { kind: 'delivered', statusCode };
  if (statusCode === 410) return { kind: 'gone', statusCode };
  const honoured = statusCode === 429 || statusCode === 503 ? retryAfterMs : undefined;
  return { kind: 'retry', error: `HTTP ${statusCode}`, ...(honoured !== undefined ? { retryAfterMs: honoured } : {}) };
}

/**
 * When to try again after failed attempt number `attempt` (1-based), or `undefined` when that was
 * the last one. The wait is the schedule's next step with +/-10 % jitter (`random` in [0, 1)), or
 * the receiver's Retry-After when it asked for longer. Pure.
 */
export function nextRetryDelayMs(
  attempt: number,
  schedule: readonly number[],
  random: number,
  retryAfterMs?: number,
): number | undefined {
  const step = schedule[attempt];
  if (step === undefined) return undefined;
  const jittered = Math.trunc(step * (0.9 + 0.2 * random));
  return retryAfterMs !== undefined ? Math.max(jittered, retryAfterMs) : jittered;
}
