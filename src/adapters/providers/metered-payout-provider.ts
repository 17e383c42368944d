import type { Payment } from '../../core/payments/payment';
import type { PayoutProvider, StatusOutcome, SubmitOutcome } from '../../core/payments/payout-provider';

/** The port's calls a meter times. */
export type ProviderOperation = 'submit' | 'status';

/**
 * One finished call: the provider's name, the operation, the outcome (the answer's `kind`:
 * submit `accepted`, `rejected`, `retry` or `unknown`; status `pending`, `succeeded`, `failed`,
 * `refunded` or `not_found`; `error` when the call threw) and its duration in seconds.
 */
export type ProviderCallObserver = (provider: string, operation: ProviderOperation, outcome: string, seconds: number) => void;

/** The outcome label of a call that threw (an infrastructure fault, docs/decisions.md § Payout providers: never pay twice). */
export const CALL_ERROR = 'error';

/**
 * A payout provider whose every call is timed and reported to `observe` (README "Metrics and
 * health": `payout_provider_call_duration_seconds`), answering exactly what the provider answers
 * and throwing what it throws. Put it next to the provider, inside any circuit breaker, so it
 * measures calls that reach the provider: a call the breaker answers itself is not one.
 * `now` is a monotonic clock in milliseconds.
 */
export class MeteredPayoutProvider implements PayoutProvider {
  readonly name: string;

  constructor(
    private readonly inner: PayoutProvider,
    private readonly observe: ProviderCallObserver,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.name = inner.name;
  }

  submit(payment: Payment): Promise<SubmitOutcome> {
    return this.timed('submit', () => this.inner.submit(payment));
  }

  status(payment: Payment): Promise<StatusOutcome> {
    return this.timed('status', () => this.inner.status(payment));
  }

  private async timed<T extends { readonly kind: string }>(operation: ProviderOperation, call: () => Promise<T>): Promise<T> {
    const started = this.now();
    let outcome: string = CALL_ERROR;
    try {
      const answer = await call();
      outcome = answer.kind;
      return answer;
    } finally {
      this.observe(this.name, operation, outcome, (this.now() - started) / 1000);
    }
  }
}
