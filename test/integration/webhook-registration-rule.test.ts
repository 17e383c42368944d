import { MikroORM } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { DeliveryMikroQueue } from '../../src/adapters/persistence/delivery.queue';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { OutboxTxWriter } from '../../src/adapters/persistence/outbox.writer';
import { TenantRepository } from '../../src/adapters/persistence/tenant.repository';
import { ulidGenerator } from '../../src/adapters/providers/system';
import { newTenant } from '../../src/core/auth/tenant';
import { WEBHOOK_EVENT_TYPES, type OutboxEvent, type OutboxEventType, type WebhookEventType } from '../../src/core/events/outbox-event';
import { isActiveRegistration, receivesEvent, WebhookRegistration, type RegistrationStatus } from '../../src/core/webhooks/webhook';

/**
 * "Which registration receives which event" is stated once, in the core (`receivesEvent`,
 * `isActiveRegistration`); the outbox writer's fan-out SQL and the delivery claim must agree with
 * it on every case of this table: status x deleted x subscribed event types.
 */
describe('webhook registration rule: the SQL agrees with the core', () => {
  let orm: MikroORM;
  const ids = ulidGenerator();
  let tenantId: string;
  let registrations: WebhookRegistration[];

  beforeAll(async () => {
    orm = await MikroORM.init(ormOptions(process.env.TEST_DATABASE_URL!, 2));
    const now = new Date();
    const tenant = newTenant({ id: ids.next('ten'), name: `Rule ${randomUUID()}`, environment: 'sandbox', createdAt: now });
    await new TenantRepository(orm.em, ids).createTenant(tenant);
    tenantId = tenant.id;
    const statuses: RegistrationStatus[] = ['active', 'disabled'];
    const deletions = [null, new Date(now.getTime() - 1000)];
    const subscriptions: WebhookEventType[][] = [[], ['payment.succeeded'], ['payment.failed', 'customer.kyc.updated'], [...WEBHOOK_EVENT_TYPES]];
    registrations = statuses.flatMap((status) => deletions.flatMap((deletedAt) => subscriptions.map((events) => new WebhookRegistration({
      id: randomUUID(), tenantId, url: 'https://receiver.example/hook', events, secretCiphertext: 'sealed', status,
      createdAt: now, updatedAt: now, deletedAt,
    }))));
    await orm.em.fork().insertMany(WebhookRegistration, registrations);
  });
  afterAll(() => orm.close(true));

  const event = (type: OutboxEventType): OutboxEvent => ({
    id: randomUUID(), tenantId, type, entityId: ids.next('pay'), payload: { status: 'x' }, createdAt: new Date(),
  });
  const describeCase = (r: WebhookRegistration) => `${r.status}/${r.deletedAt ? 'deleted' : 'kept'}/[${r.events.join(',')}]`;

  it.each(WEBHOOK_EVENT_TYPES.map((t) => [t]))('fan-out of %s: a delivery row for exactly the registrations that receive it', async (type) => {
    const appended = event(type);
    await new OutboxTxWriter(orm.em.fork()).append(appended);
    const rows = await orm.em.fork().getConnection().execute<{ registration_id: string }[]>(
      'select registration_id from webhook_deliveries where event_id = ?', [appended.id]);
    const delivered = new Set(rows.map((row) => row.registration_id));
    const byRule = registrations.filter((r) => receivesEvent(r, type));
    expect(byRule.length).toBeGreaterThan(0);
    expect(registrations.filter((r) => delivered.has(r.id)).map(describeCase).sort()).toEqual(byRule.map(describeCase).sort());
  });

  it('the claim marks a delivery sendable exactly when the core says its registration is active', async () => {
    const appended = event('payment.initiated');
    await new OutboxTxWriter(orm.em.fork()).append(appended);
    const now = new Date();
    for (const r of registrations) {
      await orm.em.fork().getConnection().execute(
        `insert into webhook_deliveries (id, tenant_id, event_id, registration_id, event_type, entity_id, url, status, attempt, next_retry_at, created_at, updated_at)
         values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
        // Due long before anything other test files left pending in this run's database: the claim takes
        // the oldest due rows first, so these are within its limit however many others wait.
        [tenantId, appended.id, r.id, 'payment.succeeded', appended.entityId, r.url, new Date('2001-01-01T00:00:00Z'), now, now]);
    }
    const claimed = (await new DeliveryMikroQueue(orm.em).claimDue({
      now, limit: 1000, leaseUntil: new Date(now.getTime() + 60_000), perRegistration: 10, room: new Map(), orderWaitMs: 0,
    })).filter((job) => job.event.id === appended.id);
    expect(claimed).toHaveLength(registrations.length);
    const active = new Map(claimed.map((job) => [job.registrationId, job.registrationActive]));
    for (const r of registrations) expect([describeCase(r), active.get(r.id)]).toEqual([describeCase(r), isActiveRegistration(r)]);
    expect(registrations.filter(isActiveRegistration).length).toBe(4);
  });
});
