import { DeliveryDispatcher, webhookBody, type DeliveryDeps } from '../../src/core/webhooks/deliver-webhooks';
import type { DeliveryJob, DeliveryRecord } from '../../src/core/webhooks/webhook-ports';
import { FakeDeliveryQueue, FakeTransport, FixedClock } from '../support/fakes';

const URL_A = 'https://a.example/hooks';
const URL_B = 'https://b.example/hooks';
let counter = 0;

/** A pending delivery of a payment event; `registrationId` names the lane (the URL follows it). */
function job(o: Partial<DeliveryJob> = {}): DeliveryJob {
  counter++;
  return {
    id: `del-${counter}`, registrationId: 'reg-a', registrationActive: true, url: URL_A, attempt: 1, secretCiphertext: 'sealed',
    event: { id: `evt-${counter}`, type: 'payment.succeeded', entityId: 'pay_1', createdAt: new Date('2026-01-01T00:00:00.000Z'), payload: { id: 'pay_1', status: 'succeeded' } },
    ...o,
  };
}

/** The webhook delivery worker (docs/decisions.md § Webhooks) on a fake queue and a fake transport. */
describe('DeliveryDispatcher on fakes', () => {
  let clock: FixedClock;
  let queue: FakeDeliveryQueue;
  let transport: FakeTransport;
  let attempts: string[];
  let settled: number;
  let deps: DeliveryDeps;
  beforeEach(() => {
    clock = new FixedClock();
    queue = new FakeDeliveryQueue();
    transport = new FakeTransport();
    attempts = [];
    settled = 0;
    deps = {
      queue, transport, clock, schedule: [0, 10_000, 60_000], leaseMs: 20_000, random: () => 0, perEndpoint: 2, maxInFlight: 3, orderWaitMs: 7_000,
      onAttempt: (outcome) => attempts.push(outcome), onSettled: () => settled++,
    };
  });
  /** One pass, then wait until every send it started is recorded. */
  const passAndSettle = async (dispatcher = new DeliveryDispatcher(deps), batch = 10) => {
    const claimed = await dispatcher.pass(batch);
    await dispatcher.idle();
    return claimed;
  };
  const recorded = (id: string): Omit<DeliveryRecord, 'now'> & { now?: Date } | undefined => {
    const r = queue.records.find((x) => x.id === id);
    return r && { status: r.status, lastError: r.lastError, nextRetryAt: r.nextRetryAt, now: r.now };
  };

  it('the body is {id, type, timestamp, data}, the same bytes on every attempt', () => {
    const j = job();
    expect(webhookBody(j.event)).toBe(`{"id":"${j.event.id}","type":"payment.succeeded","timestamp":"2026-01-01T00:00:00.000Z","data":{"id":"pay_1","status":"succeeded"}}`);
  });

  it('claims with the lease, the per-endpoint cap, what is in flight and the order wait', async () => {
    queue.add(job());
    expect(await passAndSettle(undefined, 5)).toBe(1);
    const now = clock.now();
    expect(queue.claims).toEqual([{ now, limit: 3, leaseUntil: new Date(now.getTime() + 20_000), perRegistration: 2, room: new Map(), orderWaitMs: 7_000 }]);
  });

  it('records a 2xx as delivered, sending the event body signed by the transport', async () => {
    const j = job();
    queue.add(j);
    transport.answer(URL_A, { statusCode: 204 });
    await passAndSettle();
    expect(transport.sent).toEqual([{ job: j, body: webhookBody(j.event), at: clock.now() }]);
    expect(queue.records).toEqual([{ id: j.id, attempt: 1, status: 'delivered', lastError: null, nextRetryAt: null, now: clock.now() }]);
    expect(attempts).toEqual(['delivered']);
  });

  it.each([301, 302, 307, 400, 500])('never counts HTTP %i as delivered: pending, retried after the jittered step', async (status) => {
    const j = job();
    queue.add(j);
    transport.answer(URL_A, { statusCode: status });
    await passAndSettle();
    // attempt 1 failed: the next waits schedule[1] = 10 s, jittered down 10 % at random 0.
    expect(recorded(j.id)).toEqual({ status: 'pending', lastError: `HTTP ${status}`, nextRetryAt: new Date(clock.now().getTime() + 9_000), now: clock.now() });
    expect(attempts).toEqual(['retry']);
  });

  it('waits as long as a 429 or 503 asks with Retry-After, when longer than the schedule', async () => {
    const slow = job();
    const busy = job({ registrationId: 'reg-b', url: URL_B });
    queue.add(slow, busy);
    transport.answer(URL_A, { statusCode: 429, retryAfterMs: 3_600_000 }).answer(URL_B, { statusCode: 503, retryAfterMs: 1_000 });
    await passAndSettle();
    expect(recorded(slow.id)?.nextRetryAt).toEqual(new Date(clock.now().getTime() + 3_600_000));
    expect(recorded(busy.id)?.nextRetryAt).toEqual(new Date(clock.now().getTime() + 9_000));
  });

  it('retries a transport error with its message', async () => {
    const j = job({ attempt: 2 });
    queue.add(j);
    transport.answer(URL_A, { error: 'timeout after 15000 ms' });
    await passAndSettle();
    expect(recorded(j.id)).toEqual({ status: 'pending', lastError: 'timeout after 15000 ms', nextRetryAt: new Date(clock.now().getTime() + 54_000), now: clock.now() });
  });

  it('fails the delivery after the last attempt of the schedule', async () => {
    const j = job({ attempt: 3 });
    queue.add(j);
    transport.answer(URL_A, { statusCode: 500 });
    await passAndSettle();
    expect(recorded(j.id)).toEqual({ status: 'failed', lastError: 'HTTP 500', nextRetryAt: null, now: clock.now() });
    expect(attempts).toEqual(['failed']);
  });

  it('on 410 disables the registration and fails the delivery', async () => {
    const j = job();
    queue.add(j);
    transport.answer(URL_A, { statusCode: 410 });
    await passAndSettle();
    expect(queue.disabled).toEqual(['reg-a']);
    expect(recorded(j.id)).toEqual({ status: 'failed', lastError: 'HTTP 410: registration disabled', nextRetryAt: null, now: clock.now() });
    expect(attempts).toEqual(['gone']);
  });

  it('skips, without sending, a delivery whose registration is no longer active', async () => {
    const j = job({ registrationActive: false });
    queue.add(j);
    await passAndSettle();
    expect(transport.sent).toEqual([]);
    expect(recorded(j.id)).toEqual({ status: 'failed', lastError: 'registration disabled or deleted', nextRetryAt: null, now: clock.now() });
    expect(attempts).toEqual(['skipped']);
  });

  it('records the outcome at the time the answer came, not when the send started', async () => {
    const j = job();
    queue.add(j);
    transport.hold();
    const dispatcher = new DeliveryDispatcher(deps);
    await dispatcher.pass(10);
    const sentAt = clock.now();
    clock.advance(3_000);
    transport.release();
    await dispatcher.idle();
    expect(transport.sent[0]!.at).toEqual(sentAt);
    expect(recorded(j.id)?.now).toEqual(clock.now());
  });

  it('keeps at most maxInFlight attempts in flight, and counts each registration\'s sends in flight until they answer', async () => {
    queue.add(job(), job(), job({ registrationId: 'reg-b', url: URL_B }), job({ registrationId: 'reg-b', url: URL_B }));
    transport.hold();
    const dispatcher = new DeliveryDispatcher(deps);
    // Per endpoint 2: reg-a's two, then one of reg-b's under the process cap of 3.
    expect(await dispatcher.pass(10)).toBe(3);
    expect(dispatcher.inFlight).toBe(3);
    expect(await dispatcher.pass(10)).toBe(0);
    expect(queue.claims).toHaveLength(1);
    transport.release();
    await dispatcher.idle();
    expect(dispatcher.inFlight).toBe(0);
    expect(await dispatcher.pass(1)).toBe(1);
    await dispatcher.idle();
    // Both endpoints answered at once: their lanes are remembered with room for 2 sending and 2 x 2 waiting.
    expect(queue.claims[1]).toMatchObject({ limit: 1, room: new Map([['reg-a', 6], ['reg-b', 6]]) });
    expect(queue.records.map((r) => r.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    // Each attempt settles twice: its endpoint slot freed, then its outcome recorded.
    expect(settled).toBe(8);
  });

  it('tells the claim the room left in each lane while sends are out', async () => {
    queue.add(job(), job({ registrationId: 'reg-b', url: URL_B }));
    transport.hold();
    const dispatcher = new DeliveryDispatcher({ ...deps, maxInFlight: 10 });
    await dispatcher.pass(1);
    await dispatcher.pass(1);
    // reg-a has not answered yet: its lane holds perEndpoint (2) deliveries, one of them sending.
    expect(queue.claims.map((c) => c.room)).toEqual([new Map(), new Map([['reg-a', 1]])]);
    expect(queue.claims.map((c) => c.limit)).toEqual([1, 1]);
    transport.release();
    await dispatcher.idle();
    await dispatcher.pass(1);
    expect(queue.claims[2]!.room).toEqual(new Map([['reg-a', 6], ['reg-b', 6]]));
  });

  it('reports an attempt whose recording throws, and frees its slot', async () => {
    const j = job();
    const faults: Array<[string, string]> = [];
    const failing = Object.assign(new FakeDeliveryQueue().add(j), { recordAll: async () => { throw new Error('db down'); } });
    const dispatcher = new DeliveryDispatcher({ ...deps, queue: failing, onFault: (e, id) => faults.push([(e as Error).message, id]) });
    await dispatcher.pass(10);
    await dispatcher.idle();
    expect(faults).toEqual([['db down', j.id]]);
    expect(dispatcher.inFlight).toBe(0);
  });
});

