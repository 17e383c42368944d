import {
  BrokenCircuitError, CircuitState, ConsecutiveBreaker, TaskCancelledError, TimeoutStrategy, circuitBreaker, handleAll, timeout, wrap,
  type CircuitBreakerPolicy, type IPolicy,
} from 'cockatiel';
import type { Payment } from '../../core/payments/payment';
import type { PayoutProvider, StatusOutcome, SubmitOutcome } from '../../core/payments/payout-provider';

/** Settings of one provider's circuit breaker; durations in milliseconds. */
export interface BreakerSettings {
  /** Consecutive failed calls (faults, timeouts, `retry` and `unknown` submissions) that open the circuit. */
  readonly consecutiveFailures: number;
  /** How long an open circuit refuses calls before one trial call may pass. */
  readonly halfOpenAfterMs: number;
  /** Longest wait for one call before it counts as a timeout (a backstop over the adapter's own timeouts). */
  readonly callTimeoutMs: number;
}

/** Changes of a circuit's state, e.g. for a log line and a metric. */
export interface BreakerEvents {
  onOpen?(provider: string): void;
  onClose?(provider: string): void;
}

/**
 * A payout provider behind a circuit breaker (cockatiel; docs/decisions.md § Payout providers:
 * routing and failover). The circuit opens after `consecutiveFailures` calls in a row that threw,
 * timed out, or ended in a submission outcome of `retry` (the provider could not be reached or
 * refused before processing) or `unknown` (no answer). While open, `submit` answers `retry`
 * without calling (certainly not sent, so the next provider may take the payment) and `status`
 * answers `pending` (look again later); `healthy` tells routing to skip it. Only submissions count. After
 * `halfOpenAfterMs` one trial call passes: success closes the circuit, failure opens it again.
 * A submission cut short by the call timeout is `unknown`: it may have been sent.
 */
export class BreakerPayoutProvider implements PayoutProvider {
  readonly name: string;
  private readonly breaker: CircuitBreakerPolicy;
  private readonly policy: IPolicy;
  private readonly timeoutOnly: IPolicy;
  private openedAt: number | undefined;

  constructor(
    private readonly inner: PayoutProvider,
    private readonly settings: BreakerSettings,
    events: BreakerEvents = {},
    private readonly now: () => number = Date.now,
  ) {
    this.name = inner.name;
    const failing = handleAll.orWhenResult((r) => isFailure(r as SubmitOutcome | StatusOutcome));
    this.breaker = circuitBreaker(failing, { halfOpenAfter: settings.halfOpenAfterMs, breaker: new ConsecutiveBreaker(settings.consecutiveFailures) });
    this.breaker.onBreak(() => {
      this.openedAt = this.now();
      events.onOpen?.(this.name);
    });
    this.breaker.onReset(() => {
      this.openedAt = undefined;
      events.onClose?.(this.name);
    });
    // The timeout is inside the breaker, so a call that times out counts as a failure.
    const callTimeout = timeout(settings.callTimeoutMs, TimeoutStrategy.Aggressive);
    this.policy = wrap(this.breaker, callTimeout);
    this.timeoutOnly = callTimeout;
  }

  /** False while the circuit is open and its trial call is not yet due: routing skips the provider. */
  get healthy(): boolean {
    if (this.breaker.state !== CircuitState.Open) return true;
    return this.openedAt !== undefined && this.now() - this.openedAt >= this.settings.halfOpenAfterMs;
  }

  async submit(payment: Payment): Promise<SubmitOutcome> {
    try {
      return await this.policy.execute(() => this.inner.submit(payment));
    } catch (error) {
      if (error instanceof BrokenCircuitError) return { kind: 'retry', afterMs: this.settings.halfOpenAfterMs, reason: `${this.name} circuit open` };
      if (error instanceof TaskCancelledError) return { kind: 'unknown', reason: `${this.name} did not answer within ${this.settings.callTimeoutMs} ms` };
      throw error;
    }
  }

  /**
   * Status queries neither open nor close the circuit (it measures whether the provider takes
   * payouts; a query that works says nothing of that), but wait while it is open.
   */
  async status(payment: Payment): Promise<StatusOutcome> {
    if (!this.healthy) return { kind: 'pending', afterMs: this.settings.halfOpenAfterMs };
    return this.timeoutOnly.execute(() => this.inner.status(payment));
  }
}

function isFailure(outcome: SubmitOutcome | StatusOutcome): boolean {
  return outcome.kind === 'retry' || outcome.kind === 'unknown';
}
