import {
  deleteWebhook, getWebhookEvent, listWebhookEvents, listWebhooks, registerWebhook, retryWebhookEvent, type WebhookDeps,
} from '../../src/core/webhooks/manage-webhooks';
import { isActiveRegistration, receivesEvent, refusedPort, toWebhookView, WebhookRegistration, type WebhookEventEntry } from '../../src/core/webhooks/webhook';
import type { EventLogQuery, WebhookRepository } from '../../src/core/webhooks/webhook-ports';
import { err, ok } from '../../src/core/shared/result';
import { FixedClock, SequentialIds } from '../support/fakes';

const ENTRY: WebhookEventEntry = {
  id: 'd-1', eventId: 'e-1', eventType: 'payment.succeeded', entityId: 'pay_1', webhookId: 'w', url: 'https://a.example/h', status: 'failed',
  attempt: 3, lastError: 'HTTP 500', nextRetryAt: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
};

/** Registrations in memory; records the cap decisions and event-log queries it was asked. */
class MemoryWebhooks implements WebhookRepository {
  readonly rows: WebhookRegistration[] = [];
  tenantLimit: number | null = null;
  readonly queries: EventLogQuery[] = [];
  readonly retried: Array<[string, string, Date]> = [];
  async insertUnderCap(registration: WebhookRegistration, admits: (existing: number, tenantLimit: number | null) => boolean) {
    const existing = this.rows.filter((r) => r.tenantId === registration.tenantId && r.deletedAt === null).length;
    if (!admits(existing, this.tenantLimit)) return false;
    this.rows.push(registration);
    return true;
  }
  async listForTenant(tenantId: string) {
    return this.rows.filter((r) => r.tenantId === tenantId && r.deletedAt === null);
  }
  async delete(tenantId: string, webhookId: string, now: Date) {
    const row = this.rows.find((r) => r.tenantId === tenantId && r.id === webhookId && r.deletedAt === null);
    if (row) row.deletedAt = now;
    return row !== undefined;
  }
  async listEvents(_tenantId: string, query: EventLogQuery) {
    this.queries.push(query);
    return query.cursor === 'bad' ? 'bad_cursor' as const : { entries: [ENTRY], cursors: ['next'], nextCursor: 'next' };
  }
  async findEvent(_tenantId: string, deliveryId: string) {
    return deliveryId === ENTRY.id ? ENTRY : undefined;
  }
  async retryEvent(tenantId: string, deliveryId: string, now: Date) {
    this.retried.push([tenantId, deliveryId, now]);
    return deliveryId === ENTRY.id ? { ...ENTRY, status: 'pending' as const } : undefined;
  }
}

/** Webhook registrations and the event log (docs/decisions.md § Webhooks) on in-memory ports. */
describe('webhook management on fakes', () => {
  let webhooks: MemoryWebhooks;
  let deps: WebhookDeps;
  let refusals: Map<string, string>;
  let woken: number;
  const clock = new FixedClock();
  beforeEach(() => {
    webhooks = new MemoryWebhooks();
    refusals = new Map();
    woken = 0;
    deps = {
      webhooks, clock, ids: new SequentialIds(), allowPrivateTargets: false, allowedPorts: [8443], maxRegistrationsPerTenant: 2,
      targets: { refusal: async (url) => refusals.get(url.hostname) },
      secrets: { newSecret: () => 'whsec_secret', seal: (s) => `sealed(${s})`, open: (c) => c.slice(7, -1) },
      onDeliveryScheduled: () => woken++,
    };
  });

  it('registers an https target: the secret shown once, sealed at rest, events deduplicated', async () => {
    const r = await registerWebhook(deps, 'ten_A', { url: 'https://hooks.example/in', events: ['payment.failed', 'payment.failed', 'payment.succeeded'] });
    expect(r).toEqual(ok({ webhookId: '00000000-0000-4000-8000-000000000001', url: 'https://hooks.example/in', events: ['payment.failed', 'payment.succeeded'], secret: 'whsec_secret' }));
    expect(webhooks.rows).toEqual([new WebhookRegistration({
      id: '00000000-0000-4000-8000-000000000001', tenantId: 'ten_A', url: 'https://hooks.example/in', events: ['payment.failed', 'payment.succeeded'],
      secretCiphertext: 'sealed(whsec_secret)', status: 'active', createdAt: clock.now(), updatedAt: clock.now(), deletedAt: null,
    })]);
  });

  it('registers for every event when none are listed', async () => {
    const r = await registerWebhook(deps, 'ten_A', { url: 'https://hooks.example:8443/in' });
    expect(r.ok && r.value.events).toEqual([]);
  });

  it.each([
    ['not a URL', 'hooks.example/in', 'url must be an absolute URL'],
    ['credentials', 'https://user:pw@hooks.example/in', 'url must not carry credentials'],
    ['a user alone', 'https://user@hooks.example/in', 'url must not carry credentials'],
    ['http', 'http://hooks.example/in', 'url must use https'],
    ['ftp', 'ftp://hooks.example/in', 'url must use https'],
    ['port 8080', 'https://hooks.example:8080/in', 'url is not an allowed target: port 8080 is not allowed (443, 8443)'],
    ['a refused host', 'https://internal.example/in', 'url is not an allowed target: resolves to 10.0.0.1'],
  ])('refuses %s on field url, writing nothing', async (_name, url, message) => {
    refusals.set('internal.example', 'resolves to 10.0.0.1');
    expect(await registerWebhook(deps, 'ten_A', { url })).toEqual(err('validation_error', message, { field: 'url' }));
    expect(webhooks.rows).toEqual([]);
  });

  it('refuses a URL over 2048 characters, accepts one of 2048', async () => {
    const base = 'https://hooks.example/';
    expect(await registerWebhook(deps, 'ten_A', { url: base + 'x'.repeat(2049 - base.length) })).toEqual(err('validation_error', 'url must be at most 2048 characters'));
    expect((await registerWebhook(deps, 'ten_A', { url: base + 'x'.repeat(2048 - base.length) })).ok).toBe(true);
  });

  it('refuses unknown event types, naming them and the known ones', async () => {
    expect(await registerWebhook(deps, 'ten_A', { url: 'https://hooks.example/in', events: ['payment.succeeded', 'payment.lost', 'x'] })).toEqual(err(
      'validation_error',
      'Unknown event types: payment.lost, x; known: payment.processing, payment.succeeded, payment.failed, payment.refunded, customer.kyc.updated, deposit.detected, deposit.credited, deposit.dropped, deposit.held, deposit.rejected, refund.pending, refund.confirmed, refund.failed',
      { field: 'events' },
    ));
  });

  it('allows http, private targets and any port when private targets are allowed, without asking the guard', async () => {
    refusals.set('127.0.0.1', 'loopback');
    const r = await registerWebhook({ ...deps, allowPrivateTargets: true }, 'ten_A', { url: 'http://127.0.0.1:3999/h' });
    expect(r.ok && r.value.url).toBe('http://127.0.0.1:3999/h');
  });

  it('stops at the service limit, or at the tenant\'s own when it has one; deleted ones do not count', async () => {
    await registerWebhook(deps, 'ten_A', { url: 'https://a.example/1' });
    await registerWebhook(deps, 'ten_A', { url: 'https://a.example/2' });
    expect(await registerWebhook(deps, 'ten_A', { url: 'https://a.example/3' })).toEqual(err(
      'webhook_limit_reached', 'This tenant may have at most 2 webhook registrations: delete one first, or ask an operator to raise its webhookLimit'));
    webhooks.tenantLimit = 3;
    expect((await registerWebhook(deps, 'ten_A', { url: 'https://a.example/3' })).ok).toBe(true);
    expect((await registerWebhook(deps, 'ten_A', { url: 'https://a.example/4' })).ok ? 'ok' : 'limit 3').toBe('limit 3');
    await deleteWebhook(deps, 'ten_A', webhooks.rows[0]!.id);
    expect((await registerWebhook(deps, 'ten_A', { url: 'https://a.example/4' })).ok).toBe(true);
  });

  it('lists the tenant\'s registrations without secrets, and deletes only its own', async () => {
    await registerWebhook(deps, 'ten_A', { url: 'https://a.example/1', events: ['payment.failed'] });
    const id = webhooks.rows[0]!.id;
    expect(await listWebhooks(deps, 'ten_A')).toEqual([{ webhookId: id, url: 'https://a.example/1', events: ['payment.failed'], status: 'active', createdAt: '2026-01-01T00:00:00.000Z' }]);
    expect(await listWebhooks(deps, 'ten_B')).toEqual([]);
    expect(await deleteWebhook(deps, 'ten_B', id)).toEqual(err('not_found', `Webhook ${id} not found`));
    expect(await deleteWebhook(deps, 'ten_A', id)).toEqual(ok(undefined));
    expect(webhooks.rows[0]!.deletedAt).toEqual(clock.now());
    expect(await deleteWebhook(deps, 'ten_A', id)).toEqual(err('not_found', `Webhook ${id} not found`));
  });

  it('pages the event log, and turns a bad cursor into validation_error on cursor', async () => {
    const query = { limit: 10, status: 'failed' as const };
    expect(await listWebhookEvents(deps, 'ten_A', query)).toEqual(ok({ entries: [ENTRY], cursors: ['next'], nextCursor: 'next' }));
    expect(webhooks.queries).toEqual([query]);
    expect(await listWebhookEvents(deps, 'ten_A', { limit: 10, cursor: 'bad' })).toEqual(err('validation_error', 'cursor is not valid', { field: 'cursor' }));
  });

  it("reads one entry of the tenant's event log; an unknown one is not_found", async () => {
    expect(await getWebhookEvent(deps, 'ten_A', ENTRY.id)).toEqual(ok(ENTRY));
    expect(await getWebhookEvent(deps, 'ten_A', 'd-unknown')).toEqual(err('not_found', 'Webhook event not found'));
  });

  it('schedules a retry now and wakes the delivery worker; an unknown entry is not_found and wakes nothing', async () => {
    expect(await retryWebhookEvent(deps, 'ten_A', 'd-1')).toEqual(ok({ ...ENTRY, status: 'pending' }));
    expect(webhooks.retried).toEqual([['ten_A', 'd-1', clock.now()]]);
    expect(woken).toBe(1);
    expect(await retryWebhookEvent(deps, 'ten_A', 'd-9')).toEqual(err('not_found', 'Webhook event d-9 not found'));
    expect(woken).toBe(1);
  });
});

describe('registration rules', () => {
  const reg = (o: Partial<WebhookRegistration> = {}) => ({ status: 'active' as const, deletedAt: null, events: [] as WebhookRegistration['events'], ...o });

  it('an active, undeleted registration receives every type when it lists none, else only those listed', () => {
    expect(receivesEvent(reg(), 'payment.succeeded')).toBe(true);
    expect(receivesEvent(reg({ events: ['payment.failed'] }), 'payment.failed')).toBe(true);
    expect(receivesEvent(reg({ events: ['payment.failed'] }), 'payment.succeeded')).toBe(false);
    expect(receivesEvent(reg({ status: 'disabled' }), 'payment.succeeded')).toBe(false);
    expect(receivesEvent(reg({ deletedAt: new Date(0) }), 'payment.succeeded')).toBe(false);
    expect([isActiveRegistration(reg()), isActiveRegistration(reg({ status: 'disabled' })), isActiveRegistration(reg({ deletedAt: new Date(0) }))]).toEqual([true, false, false]);
  });

  it.each([
    ['https://a.example/', { allowPrivateTargets: false, allowedPorts: [] }, undefined],
    ['https://a.example:443/', { allowPrivateTargets: false, allowedPorts: [] }, undefined],
    ['https://a.example:8443/', { allowPrivateTargets: false, allowedPorts: [8443, 9443] }, undefined],
    ['https://a.example:6379/', { allowPrivateTargets: false, allowedPorts: [8443, 9443] }, 'port 6379 is not allowed (443, 8443, 9443)'],
    ['http://a.example/', { allowPrivateTargets: false, allowedPorts: [] }, 'port 80 is not allowed (443)'],
    ['http://a.example:6379/', { allowPrivateTargets: true, allowedPorts: [] }, undefined],
  ])('refusedPort(%s, %j) is %p', (url, policy, expected) => {
    expect(refusedPort(new URL(url), policy)).toBe(expected);
  });

  it('views a registration without its secret', () => {
    const r = new WebhookRegistration({
      id: 'w', tenantId: 't', url: 'https://a.example/', events: ['payment.failed'], secretCiphertext: 'sealed', status: 'disabled',
      createdAt: new Date(0), updatedAt: new Date(1), deletedAt: null,
    });
    expect(toWebhookView(r)).toEqual({ webhookId: 'w', url: 'https://a.example/', events: ['payment.failed'], status: 'disabled', createdAt: '1970-01-01T00:00:00.000Z' });
  });
});
