import { ANSWERING_WITHIN_MS, DeliveryDispatcher, LANE_MEMORY_MS, MAX_SLOTS_PER_ENDPOINT, WAITING_PER_SLOT, type DeliveryDeps } from '../../src/core/webhooks/deliver-webhooks';
import type { DeliveryJob } from '../../src/core/webhooks/webhook-ports';
import { FakeDeliveryQueue, FakeTransport, FixedClock } from '../support/fakes';

const URL_A = 'https://a.example/hooks';
const URL_B = 'https://b.example/hooks';
let counter = 0;

/** A pending delivery of a payment event to registration reg-a unless told otherwise. */
function job(o: Partial<DeliveryJob> = {}): DeliveryJob {
  counter++;
  return {
    id: `del-${counter}`, registrationId: 'reg-a', registrationActive: true, url: URL_A, attempt: 1, secretCiphertext: 'sealed',
    event: { id: `evt-${counter}`, type: 'payment.succeeded', entityId: `pay_${counter}`, createdAt: new Date('2026-01-01T00:00:00.000Z'), payload: {} },
    ...o,
  };
}

/** Lanes that answer fast hold deliveries waiting for a slot and grow their slots (docs/decisions.md § Performance). */
describe('DeliveryDispatcher lanes', () => {
  let clock: FixedClock;
  let queue: FakeDeliveryQueue;
  let transport: FakeTransport;
  let deps: DeliveryDeps;
  beforeEach(() => {
    clock = new FixedClock();
    queue = new FakeDeliveryQueue();
    transport = new FakeTransport();
    deps = { queue, transport, clock, schedule: [0, 10_000], leaseMs: 40_000, random: () => 0, perEndpoint: 2, maxInFlight: 100, orderWaitMs: 0 };
  });
  const jobs = (n: number, o: Partial<DeliveryJob> = {}) => Array.from({ length: n }, () => job(o));

  it('a lane that has not answered yet holds only perEndpoint deliveries', async () => {
    queue.add(...jobs(5));
    transport.hold();
    const dispatcher = new DeliveryDispatcher(deps);
    expect(await dispatcher.pass(10)).toBe(2);
    expect(await dispatcher.pass(10)).toBe(0);
    expect(queue.claims[1]!.room).toEqual(new Map([['reg-a', 0]]));
    transport.release();
    await dispatcher.idle();
  });

  it('after a fast answer, a lane holds WAITING_PER_SLOT x perEndpoint more, started in claim order as slots free', async () => {
    queue.add(...jobs(1));
    const dispatcher = new DeliveryDispatcher(deps);
    await dispatcher.pass(10);
    await dispatcher.idle();
    const waiting = jobs(8);
    queue.add(...waiting);
    transport.hold();
    // 2 slots + 2 x 2 waiting.
    expect(await dispatcher.pass(10)).toBe(2 + WAITING_PER_SLOT * 2);
    expect(transport.sent.slice(1).map((s) => s.job.id)).toEqual(waiting.slice(0, 2).map((j) => j.id));
    expect(dispatcher.inFlight).toBe(6);
    transport.release();
    await dispatcher.idle();
    // The waiting four went without another claim, in the order they were claimed.
    expect(queue.claims).toHaveLength(2);
    expect(transport.sent.slice(1).map((s) => s.job.id)).toEqual(waiting.slice(0, 6).map((j) => j.id));
  });

  it('grows an answering lane\'s slots while deliveries wait, at most MAX_SLOTS_PER_ENDPOINT x perEndpoint', async () => {
    queue.add(...jobs(1));
    const dispatcher = new DeliveryDispatcher(deps);
    await dispatcher.pass(10);
    await dispatcher.idle();
    queue.add(...jobs(1000));
    // Each pass fills the lane; its answers (instant here) free slots and grow them.
    for (let i = 0; i < 30; i++) {
      await dispatcher.pass(100);
      await dispatcher.idle();
    }
    const max = 2 * MAX_SLOTS_PER_ENDPOINT;
    transport.hold();
    await dispatcher.pass(100);
    // Held: the grown slots sending, WAITING_PER_SLOT x perEndpoint waiting.
    expect(dispatcher.inFlight).toBe(max + WAITING_PER_SLOT * 2);
    transport.release();
    await dispatcher.idle();
  });

  it.each([
    ['a transport error', { error: 'ECONNRESET: socket hang up' }, 0],
    ['an answer slower than ANSWERING_WITHIN_MS', { statusCode: 204 }, ANSWERING_WITHIN_MS + 1],
  ])('after %s the lane is back to perEndpoint sends and nothing waiting', async (_name, answer, tookMs) => {
    queue.add(...jobs(1));
    const dispatcher = new DeliveryDispatcher(deps);
    await dispatcher.pass(10);
    await dispatcher.idle();
    queue.add(...jobs(1));
    transport.hold();
    await dispatcher.pass(10);
    transport.answer(URL_A, answer as never);
    clock.advance(tookMs);
    transport.release();
    await dispatcher.idle();
    queue.add(...jobs(10));
    transport.hold();
    expect(await dispatcher.pass(10)).toBe(2);
    transport.release();
    await dispatcher.idle();
  });

  it('counts waiting deliveries in maxInFlight', async () => {
    queue.add(...jobs(1));
    const dispatcher = new DeliveryDispatcher({ ...deps, maxInFlight: 5 });
    await dispatcher.pass(10);
    await dispatcher.idle();
    queue.add(...jobs(10));
    transport.hold();
    expect(await dispatcher.pass(10)).toBe(5);
    expect(await dispatcher.pass(10)).toBe(0);
    transport.release();
    await dispatcher.idle();
  });

  it('writes results that come together in one batch', async () => {
    const many = jobs(2).concat(jobs(2, { registrationId: 'reg-b', url: URL_B }));
    queue.add(...many);
    const dispatcher = new DeliveryDispatcher(deps);
    transport.hold();
    await dispatcher.pass(10);
    transport.release();
    await dispatcher.idle();
    expect(queue.writes.flat().sort()).toEqual(many.map((j) => j.id).sort());
    expect(queue.writes.length).toBeLessThan(many.length);
  });

  it('a failed batch write reports each attempt it carried; their leases bring them back', async () => {
    const two = jobs(2);
    const faults: string[] = [];
    const failing = Object.assign(new FakeDeliveryQueue().add(...two), { recordAll: async () => { throw new Error('db down'); } });
    const dispatcher = new DeliveryDispatcher({ ...deps, queue: failing, onFault: (_e, id) => faults.push(id) });
    await dispatcher.pass(10);
    await dispatcher.idle();
    expect(faults.sort()).toEqual(two.map((j) => j.id).sort());
    expect(dispatcher.inFlight).toBe(0);
  });
});

describe('DeliveryDispatcher lane memory', () => {
  it('forgets an idle lane LANE_MEMORY_MS after its last answer: the next claim gives it perEndpoint again', async () => {
    const clock = new FixedClock();
    const queue = new FakeDeliveryQueue().add(job());
    const deps: DeliveryDeps = { queue, transport: new FakeTransport(), clock, schedule: [0], leaseMs: 40_000, random: () => 0, perEndpoint: 2, maxInFlight: 100, orderWaitMs: 0 };
    const dispatcher = new DeliveryDispatcher(deps);
    await dispatcher.pass(10);
    await dispatcher.idle();
    clock.advance(LANE_MEMORY_MS);
    await dispatcher.pass(10);
    clock.advance(1);
    await dispatcher.pass(10);
    expect(queue.claims.map((c) => c.room)).toEqual([new Map(), new Map([['reg-a', 6]]), new Map()]);
  });
});
