import { BreakerPayoutProvider } from '../../src/adapters/providers/provider-breaker';
import type { Payment } from '../../src/core/payments/payment';
import type { PayoutProvider, SubmitOutcome } from '../../src/core/payments/payout-provider';

const payment = { id: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' } as Payment;

/** A provider answering from a script, counting its calls. */
function scripted(outcomes: Array<SubmitOutcome | Error>): PayoutProvider & { calls: number } {
  const provider = {
    name: 'paystack',
    calls: 0,
    async submit(): Promise<SubmitOutcome> {
      const next = outcomes[Math.min(provider.calls++, outcomes.length - 1)]!;
      if (next instanceof Error) throw next;
      return next;
    },
    async status() {
      return { kind: 'not_found' } as const;
    },
  };
  return provider;
}

describe('a provider behind its circuit breaker', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  it('opens after consecutive retry, unknown or thrown outcomes, then answers retry without calling', async () => {
    const inner = scripted([{ kind: 'retry', afterMs: 1 }, { kind: 'unknown', reason: 'timeout' }, new Error('reset')]);
    const opened: string[] = [];
    const guarded = new BreakerPayoutProvider(inner, { consecutiveFailures: 3, halfOpenAfterMs: 10_000, callTimeoutMs: 5_000 }, { onOpen: (n) => opened.push(n) }, now);
    expect(await guarded.submit(payment)).toEqual({ kind: 'retry', afterMs: 1 });
    expect(await guarded.submit(payment)).toEqual({ kind: 'unknown', reason: 'timeout' });
    await expect(guarded.submit(payment)).rejects.toThrow('reset');
    expect([guarded.healthy, opened]).toEqual([false, ['paystack']]);
    expect(await guarded.submit(payment)).toEqual({ kind: 'retry', afterMs: 10_000, reason: 'paystack circuit open' });
    expect(inner.calls).toBe(3);
    expect(await guarded.status(payment)).toEqual({ kind: 'pending', afterMs: 10_000 });
  });

  it('an accepted or rejected submission resets the count; a timed-out call counts and is unknown', async () => {
    const inner = scripted([{ kind: 'retry', afterMs: 1 }, { kind: 'rejected', reason: 'bad account' }, { kind: 'retry', afterMs: 1 }]);
    const guarded = new BreakerPayoutProvider(inner, { consecutiveFailures: 2, halfOpenAfterMs: 10_000, callTimeoutMs: 5_000 }, {}, now);
    await guarded.submit(payment);
    await guarded.submit(payment);
    await guarded.submit(payment);
    expect(guarded.healthy).toBe(true);
    const slow: PayoutProvider = { name: 'mpesa', submit: () => new Promise(() => undefined), status: async () => ({ kind: 'not_found' }) };
    const timed = new BreakerPayoutProvider(slow, { consecutiveFailures: 1, halfOpenAfterMs: 10_000, callTimeoutMs: 50 }, {}, now);
    expect(await timed.submit(payment)).toEqual({ kind: 'unknown', reason: 'mpesa did not answer within 50 ms' });
    expect(timed.healthy).toBe(false);
  });

  it('opens on consecutive failing submissions even with successful status queries between them', async () => {
    const inner = scripted([{ kind: 'unknown', reason: 'timeout' }]);
    inner.status = async () => ({ kind: 'succeeded', providerRef: 'TRF_1' });
    const guarded = new BreakerPayoutProvider(inner, { consecutiveFailures: 3, halfOpenAfterMs: 10_000, callTimeoutMs: 5_000 }, {}, now);
    for (let i = 0; i < 3; i++) {
      expect(await guarded.submit(payment)).toEqual({ kind: 'unknown', reason: 'timeout' });
      // A status query that works between two failing submissions says nothing of whether the provider takes payouts.
      if (i < 2) expect(await guarded.status(payment)).toEqual({ kind: 'succeeded', providerRef: 'TRF_1' });
    }
    expect(guarded.healthy).toBe(false);
    expect(await guarded.submit(payment)).toEqual({ kind: 'retry', afterMs: 10_000, reason: 'paystack circuit open' });
    expect(inner.calls).toBe(3);
  });

  it('is healthy again once the half-open delay passed; a successful trial closes it', async () => {
    const inner = scripted([{ kind: 'retry', afterMs: 1 }, { kind: 'accepted', providerRef: 'TRF_1' }]);
    const closed: string[] = [];
    const guarded = new BreakerPayoutProvider(inner, { consecutiveFailures: 1, halfOpenAfterMs: 50, callTimeoutMs: 5_000 }, { onClose: (n) => closed.push(n) }, now);
    await guarded.submit(payment);
    expect(guarded.healthy).toBe(false);
    clock += 50;
    expect(guarded.healthy).toBe(true);
    // cockatiel measures the half-open delay on its own clock.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await guarded.submit(payment)).toEqual({ kind: 'accepted', providerRef: 'TRF_1' });
    expect(closed).toEqual(['paystack']);
  });
});
