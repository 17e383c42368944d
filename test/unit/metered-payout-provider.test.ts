import type { Registry } from 'prom-client';
import { Metrics, type MovedPayment } from '../../src/adapters/http/metrics';
import { MeteredPayoutProvider } from '../../src/adapters/providers/metered-payout-provider';
import { BreakerPayoutProvider } from '../../src/adapters/providers/provider-breaker';
import type { Payment } from '../../src/core/payments/payment';
import type { PayoutProvider, StatusOutcome, SubmitOutcome } from '../../src/core/payments/payout-provider';

const payment = { id: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' } as Payment;

/** A clock that moves only when a call runs: each call takes `callMs`. */
function world(callMs: number) {
  let clock = 5_000;
  const calls: Array<[string, string, string, number]> = [];
  const answer = <T>(value: T | Error) => async (): Promise<T> => {
    clock += callMs;
    if (value instanceof Error) throw value;
    return value;
  };
  const provider = (submit: SubmitOutcome | Error, status: StatusOutcome | Error): PayoutProvider => ({ name: 'mtn_momo', submit: answer(submit), status: answer(status) });
  const metered = (inner: PayoutProvider) => new MeteredPayoutProvider(inner, (...call) => calls.push(call), () => clock);
  return { calls, provider, metered };
}

describe('payout provider calls, timed (README "Metrics and health")', () => {
  const submits: SubmitOutcome[] = [
    { kind: 'accepted', providerRef: 'ref-1' }, { kind: 'rejected', reason: 'invalid account', code: 'recipient_account_invalid' },
    { kind: 'retry', afterMs: 1000 }, { kind: 'unknown', reason: 'timeout' },
  ];
  it.each(submits)('submit answering $kind: the same answer, one observation labelled by its kind', async (outcome) => {
    const w = world(250);
    const metered = w.metered(w.provider(outcome, { kind: 'not_found' }));
    expect(metered.name).toBe('mtn_momo');
    expect(await metered.submit(payment)).toBe(outcome);
    expect(w.calls).toEqual([['mtn_momo', 'submit', outcome.kind, 0.25]]);
  });

  const statuses: StatusOutcome[] = [
    { kind: 'pending', afterMs: 5000 }, { kind: 'succeeded', providerRef: 'ref-1' }, { kind: 'failed', reason: 'closed', code: 'declined' },
    { kind: 'refunded', reason: 'reversed', code: 'reversed' }, { kind: 'not_found' },
  ];
  it.each(statuses)('status answering $kind: the same answer, one observation labelled by its kind', async (outcome) => {
    const w = world(1500);
    const metered = w.metered(w.provider({ kind: 'retry', afterMs: 1 }, outcome));
    expect(await metered.status(payment)).toBe(outcome);
    expect(w.calls).toEqual([['mtn_momo', 'status', outcome.kind, 1.5]]);
  });

  it('a call that throws is observed as error and the error goes on unchanged', async () => {
    const w = world(40);
    const fault = new Error('connection reset');
    const metered = w.metered(w.provider(fault, fault));
    await expect(metered.submit(payment)).rejects.toBe(fault);
    await expect(metered.status(payment)).rejects.toBe(fault);
    expect(w.calls).toEqual([['mtn_momo', 'submit', 'error', 0.04], ['mtn_momo', 'status', 'error', 0.04]]);
  });

  it('inside a circuit breaker, a call the open circuit answers itself is not a provider call', async () => {
    const w = world(10);
    const guarded = new BreakerPayoutProvider(w.metered(w.provider({ kind: 'unknown', reason: 'timeout' }, { kind: 'not_found' })), {
      consecutiveFailures: 1, halfOpenAfterMs: 60_000, callTimeoutMs: 5_000,
    });
    expect(await guarded.submit(payment)).toEqual({ kind: 'unknown', reason: 'timeout' });
    expect(await guarded.submit(payment)).toEqual({ kind: 'retry', afterMs: 60_000, reason: 'mtn_momo circuit open' });
    expect(w.calls).toEqual([['mtn_momo', 'submit', 'unknown', 0.01]]);
  });
});

describe('Metrics: transitions by provider and corridor, time to a final status, build_info', () => {
  const created = new Date('2026-11-26T10:00:00.000Z');
  const moved = (status: MovedPayment['status'], provider: string | null, seconds: number): MovedPayment => ({
    status, provider, country: 'KE', paymentMethod: 'MOMO', createdAt: created, updatedAt: new Date(created.getTime() + seconds * 1000),
  });
  const queues = { depths: async () => ({ payments: 0, deliveries: 0, kyc: 0 }) };
  /** The sample lines of `metric` whose series is `series` (e.g. `payment_time_to_final_seconds_sum`). */
  const lines = async (registry: Registry, metric: string, series: string) =>
    (await registry.getSingleMetricAsString(metric)).split('\n').filter((line) => line.startsWith(`${series}{`));

  it('labels transitions by status, provider (none before one) and corridor, and times only final ones', async () => {
    const metrics = new Metrics(queues);
    metrics.paymentCreated({ country: 'KE', paymentMethod: 'MOMO' });
    metrics.paymentMoved(moved('provider_accepted', 'sandbox', 1));
    metrics.paymentMoved(moved('succeeded', 'sandbox', 3.25));
    metrics.paymentMoved(moved('failed', null, 0.4));
    const transitions = (await metrics.registry.getSingleMetric('payment_transitions_total')!.get()).values;
    expect(transitions.map((v) => [v.labels, v.value])).toEqual([
      [{ status: 'initiated', provider: 'none', country: 'KE', payment_method: 'MOMO' }, 1],
      [{ status: 'provider_accepted', provider: 'sandbox', country: 'KE', payment_method: 'MOMO' }, 1],
      [{ status: 'succeeded', provider: 'sandbox', country: 'KE', payment_method: 'MOMO' }, 1],
      [{ status: 'failed', provider: 'none', country: 'KE', payment_method: 'MOMO' }, 1],
    ]);
    expect(await lines(metrics.registry, 'payment_time_to_final_seconds', 'payment_time_to_final_seconds_sum')).toEqual([
      'payment_time_to_final_seconds_sum{status="succeeded",provider="sandbox"} 3.25', 'payment_time_to_final_seconds_sum{status="failed",provider="none"} 0.4',
    ]);
    expect(await lines(metrics.registry, 'payment_time_to_final_seconds', 'payment_time_to_final_seconds_bucket'))
      .toContain('payment_time_to_final_seconds_bucket{le="5",status="succeeded",provider="sandbox"} 1');
  });

  it('build_info is 1 with the version, the Node.js version and the commit, or commit unknown', async () => {
    const known = new Metrics(queues, undefined, { version: '0.5.0', commit: '39e3278' });
    expect(await known.registry.getSingleMetricAsString('build_info')).toContain(`build_info{version="0.5.0",node="${process.version}",commit="39e3278"} 1`);
    const unknown = new Metrics(queues, undefined, { version: '0.5.0' });
    expect(await unknown.registry.getSingleMetricAsString('build_info')).toContain(`build_info{version="0.5.0",node="${process.version}",commit="unknown"} 1`);
  });
});
