import { classifyResponse, DEFAULT_RETRY_SCHEDULE_MS, nextRetryDelayMs } from '../../src/core/webhooks/delivery-policy';

const HOUR = 3_600_000;

/** The webhook retry policy (docs/decisions.md § Webhooks), pure. */
describe('classifyResponse', () => {
  it.each([200, 201, 202, 204, 299])('%i is delivered', (status) => {
    expect(classifyResponse(status)).toEqual({ kind: 'delivered', statusCode: status });
  });

  it('410 is gone', () => {
    expect(classifyResponse(410, 5000)).toEqual({ kind: 'gone', statusCode: 410 });
  });

  it.each([100, 199, 300, 301, 302, 304, 307, 308, 399, 400, 401, 404, 409, 411, 500, 502, 504])(
    '%i is a failure to retry, never delivered (redirects are not followed)', (status) => {
      expect(classifyResponse(status)).toEqual({ kind: 'retry', error: `HTTP ${status}` });
    });

  it.each([429, 503])('%i carries its Retry-After', (status) => {
    expect(classifyResponse(status, 120_000)).toEqual({ kind: 'retry', error: `HTTP ${status}`, retryAfterMs: 120_000 });
    expect(classifyResponse(status, 0)).toEqual({ kind: 'retry', error: `HTTP ${status}`, retryAfterMs: 0 });
    expect(classifyResponse(status)).toEqual({ kind: 'retry', error: `HTTP ${status}` });
  });

  it.each([500, 502, 504, 400, 302])('Retry-After on %i does not count', (status) => {
    expect(classifyResponse(status, 120_000)).toEqual({ kind: 'retry', error: `HTTP ${status}` });
  });
});

describe('nextRetryDelayMs', () => {
  it('follows the default schedule: immediate, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h', () => {
    expect(DEFAULT_RETRY_SCHEDULE_MS).toEqual([0, 5_000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 14 * HOUR, 20 * HOUR, 24 * HOUR]);
    // random 0.5 is the middle of the jitter: the step itself.
    expect(DEFAULT_RETRY_SCHEDULE_MS.slice(1).map((_, i) => nextRetryDelayMs(i + 1, DEFAULT_RETRY_SCHEDULE_MS, 0.5)))
      .toEqual(DEFAULT_RETRY_SCHEDULE_MS.slice(1));
  });

  it('jitters by ±10 % exactly: 0.9 of the step at random 0, just under 1.1 near random 1', () => {
    const schedule = [0, 10_000];
    expect(nextRetryDelayMs(1, schedule, 0)).toBe(9_000);
    expect(nextRetryDelayMs(1, schedule, 0.25)).toBe(9_500);
    expect(nextRetryDelayMs(1, schedule, 0.75)).toBe(10_500);
    expect(nextRetryDelayMs(1, schedule, 0.999999)).toBe(10_999);
  });

  it('truncates to whole milliseconds', () => {
    expect(nextRetryDelayMs(1, [0, 5_001], 0)).toBe(4_500);
  });

  it('has no next attempt after the last one, Retry-After or not', () => {
    expect(nextRetryDelayMs(DEFAULT_RETRY_SCHEDULE_MS.length, DEFAULT_RETRY_SCHEDULE_MS, 0.5)).toBeUndefined();
    expect(nextRetryDelayMs(DEFAULT_RETRY_SCHEDULE_MS.length, DEFAULT_RETRY_SCHEDULE_MS, 0.5, 1000)).toBeUndefined();
    expect(nextRetryDelayMs(DEFAULT_RETRY_SCHEDULE_MS.length - 1, DEFAULT_RETRY_SCHEDULE_MS, 0.5)).toBe(24 * HOUR);
  });

  it('honours a Retry-After longer than the step, and keeps the step when Retry-After is shorter', () => {
    const schedule = [0, 10_000];
    expect(nextRetryDelayMs(1, schedule, 0.5, 60_000)).toBe(60_000);
    expect(nextRetryDelayMs(1, schedule, 0.5, 1_000)).toBe(10_000);
    expect(nextRetryDelayMs(1, schedule, 0, 9_001)).toBe(9_001);
  });
});
