import pino from 'pino';
import { PaymentEventFeed } from '../../src/adapters/notifications/payment-event.feed';
import type { NotificationSubscriptions } from '../../src/adapters/notifications/notification-listener';
import { TenantEventBus } from '../../src/adapters/notifications/tenant-event.bus';
import type { CommittedPaymentEvents, PaymentEventReader, TenantPaymentView } from '../../src/adapters/persistence/payment-event.repository';
import type { PaymentView } from '../../src/core/payments/payment-view';

/** A reader whose answers the test gives, one call at a time. */
class ScriptedReader implements PaymentEventReader {
  readonly calls: { cursor?: string; tenantIds: string[]; until?: string; answer: (a: CommittedPaymentEvents | Error) => void }[] = [];

  eventsSince(cursor: string | undefined, tenantIds: readonly string[], until?: string): Promise<CommittedPaymentEvents> {
    return new Promise((resolve, reject) => {
      this.calls.push({ cursor, tenantIds: [...tenantIds], until, answer: (a) => (a instanceof Error ? reject(a) : resolve(a)) });
    });
  }
}

const listener: NotificationSubscriptions = { on: () => undefined, onReconnect: () => undefined };
const view = (tenantId: string, id: string): TenantPaymentView => ({ id, status: 'initiated', tenantId } as unknown as TenantPaymentView);
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** The live feed's reads (docs/decisions.md § GraphQL), with the reader scripted. */
describe('PaymentEventFeed', () => {
  let reader: ScriptedReader;
  let bus: TenantEventBus<PaymentView>;
  let feed: PaymentEventFeed;
  const received = (tenantId: string) => {
    const got: string[] = [];
    const iterator = bus.subscribe(tenantId);
    void (async () => {
      for await (const v of iterator) got.push(v.id);
    })();
    return got;
  };

  beforeEach(async () => {
    reader = new ScriptedReader();
    bus = new TenantEventBus<PaymentView>();
    feed = new PaymentEventFeed({ events: reader, listener, bus, logger: pino({ level: 'silent' }), pollMs: 3_600_000, idleAdvanceMs: 0 });
    const started = feed.start();
    reader.calls[0]!.answer({ cursor: 'c0', views: [] });
    await started;
  });
  afterEach(() => feed.stop());

  it('reads from its last cursor, for the subscribed tenants, and publishes in the order read', async () => {
    const a = received('ten_a');
    feed.wake();
    expect(reader.calls[1]).toMatchObject({ cursor: 'c0', tenantIds: ['ten_a'], until: undefined });
    reader.calls[1]!.answer({ cursor: 'c1', views: [view('ten_a', 'p1'), view('ten_a', 'p2')] });
    await feed.drain();
    await settle();
    expect(a).toEqual(['p1', 'p2']);
    feed.wake();
    expect(reader.calls[2]).toMatchObject({ cursor: 'c1', tenantIds: ['ten_a'] });
    reader.calls[2]!.answer({ cursor: 'c2', views: [] });
    await feed.drain();
  });

  it('a tenant that subscribed during a read gets that read\'s window read again for it', async () => {
    const a = received('ten_a');
    feed.wake();
    const b = received('ten_b');
    reader.calls[1]!.answer({ cursor: 'c1', views: [view('ten_a', 'p1')] });
    await settle();
    expect(reader.calls[2]).toMatchObject({ cursor: 'c0', tenantIds: ['ten_b'], until: 'c1' });
    reader.calls[2]!.answer({ cursor: 'c1', views: [view('ten_b', 'q1')] });
    await feed.drain();
    await settle();
    expect(a).toEqual(['p1']);
    expect(b).toEqual(['q1']);
    expect(reader.calls).toHaveLength(3);
  });

  it('wakes during a read make one more read after it, not one each', async () => {
    received('ten_a');
    feed.wake();
    feed.wake();
    feed.wake();
    expect(reader.calls).toHaveLength(2);
    reader.calls[1]!.answer({ cursor: 'c1', views: [] });
    await settle();
    expect(reader.calls).toHaveLength(3);
    expect(reader.calls[2]).toMatchObject({ cursor: 'c1' });
    reader.calls[2]!.answer({ cursor: 'c2', views: [] });
    await feed.drain();
    expect(reader.calls).toHaveLength(3);
  });

  it('a failed read keeps the cursor: the next read covers its window', async () => {
    received('ten_a');
    feed.wake();
    reader.calls[1]!.answer(new Error('connection terminated'));
    await feed.drain();
    feed.wake();
    expect(reader.calls[2]).toMatchObject({ cursor: 'c0' });
    reader.calls[2]!.answer({ cursor: 'c1', views: [] });
    await feed.drain();
  });

  it('with nobody subscribed, reads no tenants (the cursor moves on)', async () => {
    feed.wake();
    expect(reader.calls[1]).toMatchObject({ cursor: 'c0', tenantIds: [] });
    reader.calls[1]!.answer({ cursor: 'c1', views: [] });
    await feed.drain();
  });
});
