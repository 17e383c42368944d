import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { CounterStore } from './counter-store';

/** Window of the failed-authentication limit, in seconds. */
const FAILURE_WINDOW_S = 60;

/**
 * Failed authentications per client address (docs/decisions.md § Rate limits and abuse limits),
 * counted in the same store as the request limits: once an address has failed `perMinute` times in
 * its window, every authentication from it is refused until the window ends, before any key is
 * looked up, so a valid key from that address is refused too and guessing learns nothing. Successful
 * authentications do not count. `perMinute` 0 turns the limit off.
 */
export class AuthFailures {
  private readonly counter: RateLimiterAbstract;

  constructor(store: CounterStore, private readonly perMinute: number) {
    this.counter = store.counter('af:', FAILURE_WINDOW_S);
  }

  /** Seconds until `address` may try again (at least 1), or undefined when it is not throttled. */
  async retryAfterS(address: string): Promise<number | undefined> {
    if (this.perMinute <= 0) return undefined;
    const state = await this.counter.get(address);
    if (!state || state.consumedPoints < this.perMinute) return undefined;
    return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  }

  /** Counts one failed authentication from `address`. */
  async record(address: string): Promise<void> {
    if (this.perMinute > 0) await this.counter.consume(address, 1);
  }
}
