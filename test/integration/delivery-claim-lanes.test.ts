import { MikroORM } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { DeliveryMikroQueue } from '../../src/adapters/persistence/delivery.queue';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { TenantRepository } from '../../src/adapters/persistence/tenant.repository';
import { ulidGenerator } from '../../src/adapters/providers/system';
import { newTenant } from '../../src/core/auth/tenant';
import { WebhookRegistration } from '../../src/core/webhooks/webhook';

/**
 * The delivery claim's lanes and the batched result write on PostgreSQL (docs/decisions.md
 * § Webhooks and § Performance): each registration gets at most its lane's room, a full lane's
 * backlog does not stop the others, and a batch of results changes each row only at its attempt.
 */
describe('delivery queue lanes on PostgreSQL', () => {
  let orm: MikroORM;
  let queue: DeliveryMikroQueue;
  const ids = ulidGenerator();
  let tenantId: string;

  beforeAll(async () => {
    orm = await MikroORM.init(ormOptions(process.env.TEST_DATABASE_URL!, 2));
    queue = new DeliveryMikroQueue(orm.em);
    const tenant = newTenant({ id: ids.next('ten'), name: `Lanes ${randomUUID()}`, environment: 'sandbox', createdAt: new Date() });
    await new TenantRepository(orm.em, ids).createTenant(tenant);
    tenantId = tenant.id;
  });
  afterAll(() => orm.close(true));

  const registration = async () => {
    const now = new Date();
    const r = new WebhookRegistration({
      id: randomUUID(), tenantId, url: 'https://receiver.example/hook', events: [], secretCiphertext: 'sealed', status: 'active',
      createdAt: now, updatedAt: now, deletedAt: null,
    });
    await orm.em.fork().insertMany(WebhookRegistration, [r]);
    return r.id;
  };
  /** `count` pending deliveries to `registrationId`, one event each, due `seconds` after 2001-01-01 (older than anything other files leave). */
  const due = async (registrationId: string, count: number, seconds: number) => {
    const rows = await orm.em.fork().getConnection().execute<{ id: string }[]>(
      `with e as (insert into outbox_events (id, tenant_id, type, entity_id, payload, created_at)
         select gen_random_uuid(), ?, 'payment.succeeded', 'pay_' || substr(md5(random()::text), 1, 26), '{}'::jsonb, now() from generate_series(1, ?) returning id, entity_id)
       insert into webhook_deliveries (id, tenant_id, event_id, registration_id, event_type, entity_id, url, status, attempt, next_retry_at, created_at, updated_at)
       select gen_random_uuid(), ?, e.id, ?, 'payment.succeeded', e.entity_id, 'https://receiver.example/hook', 'pending', 0,
              timestamptz '2001-01-01T00:00:00Z' + make_interval(secs => ? + row_number() over ()), now(), now() from e
       returning id`,
      [tenantId, count, tenantId, registrationId, seconds]);
    return rows.map((r) => r.id);
  };
  const claim = (room: Map<string, number>, perRegistration: number) => {
    const now = new Date();
    // A short lease: rows other files left due that this claim takes come back at once.
    return queue.claimDue({ now, limit: 1000, leaseUntil: new Date(now.getTime() + 1), perRegistration, room, orderWaitMs: 0 });
  };

  it('takes at most each lane\'s room, nothing from a full lane, and the oldest due rows of each', async () => {
    const [full, open, listed] = [await registration(), await registration(), await registration()];
    await due(full, 50, 0);
    const openRows = await due(open, 5, 100);
    const listedRows = await due(listed, 5, 200);
    const claimed = await claim(new Map([[full, 0], [listed, 2]]), 3);
    const of = (id: string) => claimed.filter((j) => j.registrationId === id).map((j) => j.id);
    expect(of(full)).toEqual([]);
    expect(of(open).sort()).toEqual(openRows.slice(0, 3).sort());
    expect(of(listed).sort()).toEqual(listedRows.slice(0, 2).sort());
    expect(claimed.filter((j) => j.registrationId === open).every((j) => j.attempt === 1 && j.registrationActive)).toBe(true);
  });

  it('records a batch of results in one call, each row only at its own attempt, keeping the last error when given none', async () => {
    const lane = await registration();
    const [a, b, c] = await due(lane, 3, 300);
    await orm.em.fork().getConnection().execute(`update webhook_deliveries set attempt = 1, last_error = 'HTTP 500' where id in (?, ?, ?)`, [a, b, c]);
    const now = new Date('2026-01-01T00:00:00Z');
    const retryAt = new Date('2026-01-01T00:05:00Z');
    await queue.recordAll([
      { id: a!, attempt: 1, status: 'delivered', lastError: null, nextRetryAt: null, now },
      { id: b!, attempt: 1, status: 'pending', lastError: 'timeout after 15000 ms', nextRetryAt: retryAt, now },
      // Claimed again since (its lease ran out): this result is stale and changes nothing.
      { id: c!, attempt: 0, status: 'failed', lastError: 'HTTP 400', nextRetryAt: null, now },
    ]);
    const rows = await orm.em.fork().getConnection().execute<{ id: string; status: string; last_error: string; next_retry_at: string | null; updated_at: string }[]>(
      'select id, status, last_error, next_retry_at, updated_at from webhook_deliveries where id in (?, ?, ?)', [a, b, c]);
    const byId = new Map(rows.map((r) => [r.id, { ...r, next_retry_at: r.next_retry_at && new Date(r.next_retry_at), updated_at: new Date(r.updated_at) }]));
    expect(byId.get(a!)).toMatchObject({ status: 'delivered', last_error: 'HTTP 500', next_retry_at: null, updated_at: now });
    expect(byId.get(b!)).toMatchObject({ status: 'pending', last_error: 'timeout after 15000 ms', next_retry_at: retryAt, updated_at: now });
    expect(byId.get(c!)).toMatchObject({ status: 'pending', last_error: 'HTTP 500' });
  });
});
