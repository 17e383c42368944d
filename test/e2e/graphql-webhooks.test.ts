import { randomUUID } from 'node:crypto';
import { gql, withEnumNames } from '../support/graphql-client';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const EVENT_FIELDS = 'id eventId eventType entityId webhookId url status attempt lastError nextRetryAt createdAt updatedAt';
const REGISTER = `mutation Register($input: RegisterWebhookInput!) { registerWebhook(input: $input) { id url events secret } }`;
const WEBHOOKS = '{ webhooks { id url events status createdAt } }';
const EVENTS = `query Events($first: Int, $after: String, $status: WebhookDeliveryStatus, $eventType: WebhookEventType, $entityId: String) {
  webhookEvents(first: $first, after: $after, status: $status, eventType: $eventType, entityId: $entityId) {
    nodes { ${EVENT_FIELDS} }
    pageInfo { endCursor hasNextPage }
  }
}`;
const DELETE = 'mutation Delete($id: ID!) { deleteWebhook(id: $id) }';
const RETRY = `mutation Retry($id: ID!) { retryWebhookEvent(id: $id) { ${EVENT_FIELDS} } }`;

/** A REST event type as its GraphQL enum value name: payment.processing → PAYMENT_PROCESSING. */
const eventTypeName = (type: string) => type.replace(/\./g, '_').toUpperCase();
/** A REST event log entry as GraphQL writes it (enum value names). */
const restEntryInGraphql = (entry: object) => withEnumNames(entry, ['eventType', 'status']);
/** A REST registration as GraphQL writes it: `webhookId` as `id`, enum value names. */
const restWebhookInGraphql = ({ webhookId, events, ...rest }: { webhookId: string; events: string[] } & Record<string, unknown>) =>
  withEnumNames({ id: webhookId, ...rest, events: events.map(eventTypeName) }, ['status']);

/** The `cursor` of a REST Link rel="next" header. */
const linkCursor = (link: string | null) => (link ? new URL(/^<([^>]+)>/.exec(link)![1]!, 'http://x').searchParams.get('cursor') : null);

describe('GraphQL webhooks: registrations and the event log on the same use cases as REST', () => {
  let service: TestService;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    service = await startTestService({ WEBHOOK_RETRY_SCHEDULE_MS: '0,50,50', WEBHOOK_TIMEOUT_MS: '5000' });
  });
  afterAll(async () => {
    await service.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  const q = (query: string, variables: Record<string, unknown>, apiKey: string) => gql(service.baseUrl, query, variables, apiKey);
  const receiver = async () => {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  };
  /** Registers through GraphQL; `events` as REST names them (payment.processing). */
  const register = async (apiKey: string, url: string, events?: string[]) => {
    const res = await q(REGISTER, { input: { url, ...(events ? { events: events.map(eventTypeName) } : {}) } }, apiKey);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.registerWebhook as { id: string; url: string; events: string[]; secret: string };
  };
  const pay = async (apiKey: string, accountNumber = '254712345678') => {
    const res = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody({ accountNumber }), headers: { 'idempotency-key': randomUUID() } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const events = async (apiKey: string, variables: Record<string, unknown> = {}) => {
    const res = await q(EVENTS, variables, apiKey);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.webhookEvents as { nodes: any[]; pageInfo: { endCursor: string | null; hasNextPage: boolean } };
  };
  const registrationRows = async (tenantId: string) => {
    const rows = await service.database.orm.em.fork().getConnection().execute('select count(*)::int as n from webhook_registrations where tenant_id = ?', [tenantId]);
    return rows[0]?.n as number;
  };

  it('register → webhooks → webhookEvents → retryWebhookEvent → deleteWebhook, each answer equal to REST', async () => {
    const { apiKey } = await service.newTenant();
    const hook = await receiver();
    const registered = await register(apiKey, hook.url, ['payment.processing', 'payment.processing']);
    expect(registered).toEqual({ id: expect.any(String), url: hook.url, events: ['PAYMENT_PROCESSING'], secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
    const viaRest = await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: hook.url, events: ['payment.processing', 'payment.processing'] } });
    expect({ ...registered, id: '', secret: '' }).toEqual({ ...restWebhookInGraphql({ ...viaRest.body, webhookId: '' }), secret: '' });

    const listed = await q(WEBHOOKS, {}, apiKey);
    const restList = await service.call('GET', '/v1/webhooks', { apiKey });
    expect(listed.body.data.webhooks).toEqual(restList.body.map(restWebhookInGraphql));
    expect(listed.body.data.webhooks.map((w: { id: string }) => w.id)).toEqual([registered.id, viaRest.body.webhookId]);
    // The deprecated webhookId still answers, equal to id.
    expect((await q('{ webhooks { id webhookId } }', {}, apiKey)).body.data.webhooks.every((w: { id: string; webhookId: string }) => w.id === w.webhookId)).toBe(true);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    expect((await q('{ webhooks { secret } }', {}, apiKey)).body.errors[0].extensions.code).toBe('validation_error');
    expect((await service.call('DELETE', `/v1/webhooks/${viaRest.body.webhookId}`, { apiKey })).status).toBe(204);

    const paymentId = await pay(apiKey);
    const log = await eventually(async () => {
      const page = await events(apiKey, { entityId: paymentId });
      return page.nodes[0]?.status === 'DELIVERED' ? page : undefined;
    });
    expect(log.nodes).toHaveLength(1);
    expect(log.nodes[0]).toMatchObject({ eventType: 'PAYMENT_PROCESSING', entityId: paymentId, webhookId: registered.id, attempt: 1, lastError: null, nextRetryAt: null });
    expect(log.pageInfo).toEqual({ endCursor: expect.any(String), hasNextPage: false });
    expect(log.nodes).toEqual((await service.call('GET', `/v1/webhooks/events?entityId=${paymentId}`, { apiKey })).body.map(restEntryInGraphql));

    const retried = await q(RETRY, { id: log.nodes[0].id }, apiKey);
    expect(retried.body.errors).toBeUndefined();
    expect(retried.body.data.retryWebhookEvent).toMatchObject({ ...log.nodes[0], status: 'PENDING', nextRetryAt: expect.any(String), updatedAt: expect.any(String) });
    await eventually(async () => (hook.received.length === 2 ? true : undefined));
    expect(hook.received[1]!.headers['webhook-id']).toBe(log.nodes[0].id);

    const deleted = await q(DELETE, { id: registered.id }, apiKey);
    expect(deleted.body).toEqual({ data: { deleteWebhook: true } });
    expect((await q(WEBHOOKS, {}, apiKey)).body.data.webhooks).toEqual([]);
    const again = await q(DELETE, { id: registered.id }, apiKey);
    expect(again.body.errors[0]).toMatchObject({ extensions: { code: 'not_found' }, path: ['deleteWebhook'] });
  });

  it('webhookEvents filters and pages like REST: first/after follow the Link cursor, newest first, REST default size', async () => {
    const { apiKey } = await service.newTenant();
    const hook = await receiver();
    await register(apiKey, hook.url);
    const ids = [await pay(apiKey), await pay(apiKey), await pay(apiKey, '254712340000')];
    await eventually(async () => (hook.received.length >= 5 ? true : undefined));
    // A delivery is recorded delivered just after the receiver's 200: wait until none is pending.
    await eventually(async () => ((await events(apiKey, { status: 'PENDING' })).nodes.length === 0 ? true : undefined));

    const failed = await events(apiKey, { eventType: 'PAYMENT_FAILED' });
    expect(failed.nodes.map((e) => e.entityId)).toEqual([ids[2]]);
    expect(failed.nodes).toEqual((await service.call('GET', '/v1/webhooks/events?eventType=payment.failed', { apiKey })).body.map(restEntryInGraphql));

    const page1 = await events(apiKey, { first: 2, status: 'DELIVERED' });
    const rest1 = await service.call('GET', '/v1/webhooks/events?limit=2&status=delivered', { apiKey });
    expect(page1.nodes).toEqual(rest1.body.map(restEntryInGraphql));
    expect(page1.pageInfo).toEqual({ hasNextPage: true, endCursor: linkCursor(rest1.headers.get('link')) });
    const page2 = await events(apiKey, { first: 2, status: 'DELIVERED', after: page1.pageInfo.endCursor });
    const rest2 = await service.call('GET', `/v1/webhooks/events?limit=2&status=delivered&cursor=${encodeURIComponent(page1.pageInfo.endCursor!)}`, { apiKey });
    expect(page2.nodes).toEqual(rest2.body.map(restEntryInGraphql));
    const all = await events(apiKey, { status: 'DELIVERED' });
    expect(all.pageInfo).toEqual({ hasNextPage: false, endCursor: all.nodes.length > 0 ? expect.any(String) : null });
    expect(all.nodes.length).toBeGreaterThan(4);
    expect(all.nodes.slice(0, 4)).toEqual([...page1.nodes, ...page2.nodes]);
    expect(all.nodes.map((e) => e.createdAt)).toEqual([...all.nodes.map((e) => e.createdAt)].sort().reverse());

    const openapi = await service.call('GET', '/openapi.json');
    const restLimit = openapi.body.paths['/v1/webhooks/events'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    const introspected = await q('{ __type(name: "Query") { fields { name args { name description } } } }', {}, apiKey);
    const args = introspected.body.data.__type.fields.find((f: { name: string }) => f.name === 'webhookEvents').args;
    expect(args.find((a: { name: string }) => a.name === 'first').description).toContain(`default ${restLimit.schema.default}`);
  });

  it('refuses what REST refuses, with validation_error, and writes nothing', async () => {
    const { apiKey, tenantId } = await service.newTenant('0');
    const bodies = [
      { url: 'https://example.com/h', events: ['payment.exploded'] },
      { url: 'not a url' },
      { url: 'https://user:pass@example.com/h' },
      { url: `https://example.com/${'a'.repeat(2048)}` },
      { url: 'https://example.com/h', events: Array.from({ length: 21 }, () => 'payment.failed') },
      { url: '' },
    ];
    for (const body of bodies) {
      const rest = await service.call('POST', '/v1/webhooks/register', { apiKey, body });
      expect(rest.body.code).toBe('validation_error');
      // An unknown event type is refused by the WebhookEventType enum before the resolver runs.
      const input = { ...body, ...(body.events ? { events: body.events.map(eventTypeName) } : {}) };
      const res = await q(REGISTER, { input }, apiKey);
      expect(res.body.data ?? null).toBeNull();
      expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'validation_error' } });
    }
    expect(await registrationRows(tenantId)).toBe(0);

    for (const [variables, restQuery, argument] of [
      [{ first: 0 }, 'limit=0', 'webhookEvents.first'], [{ first: 101 }, 'limit=101', 'webhookEvents.first'],
      [{ eventType: 'x'.repeat(65) }, `eventType=${'x'.repeat(65)}`, 'eventType'], [{ after: 'garbage' }, 'cursor=garbage', 'after'],
    ] as const) {
      expect((await service.call('GET', `/v1/webhooks/events?${restQuery}`, { apiKey })).body.code).toBe('validation_error');
      const res = await q(EVENTS, variables, apiKey);
      expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'validation_error' }, message: expect.stringContaining(argument) });
    }
    expect((await q(EVENTS, { status: 'lost' }, apiKey)).body.errors[0].extensions.code).toBe('validation_error');
    const longId = 'x'.repeat(65);
    expect((await service.call('DELETE', `/v1/webhooks/${longId}`, { apiKey })).body.code).toBe('validation_error');
    expect((await q(DELETE, { id: longId }, apiKey)).body.errors[0].extensions.code).toBe('validation_error');
    expect((await q(RETRY, { id: longId }, apiKey)).body.errors[0].extensions.code).toBe('validation_error');
  });

  it("another tenant's webhook and event ids are not_found, change nothing, and its data never shows", async () => {
    const owner = await service.newTenant();
    const other = await service.newTenant('0');
    const hook = await receiver();
    const { id: webhookId } = await register(owner.apiKey, hook.url, ['payment.processing']);
    const paymentId = await pay(owner.apiKey);
    const entry = await eventually(async () => (await events(owner.apiKey, { entityId: paymentId })).nodes.find((e) => e.status === 'DELIVERED'));

    const deleted = await q(DELETE, { id: webhookId }, other.apiKey);
    expect(deleted.body.errors[0]).toMatchObject({ extensions: { code: 'not_found' }, path: ['deleteWebhook'] });
    const retried = await q(RETRY, { id: entry.id }, other.apiKey);
    expect(retried.body.errors[0]).toMatchObject({ extensions: { code: 'not_found' }, path: ['retryWebhookEvent'] });
    expect((await q(RETRY, { id: randomUUID() }, owner.apiKey)).body.errors[0].extensions.code).toBe('not_found');
    expect((await q(WEBHOOKS, {}, other.apiKey)).body.data.webhooks).toEqual([]);
    expect((await events(other.apiKey)).nodes).toEqual([]);

    expect((await q(WEBHOOKS, {}, owner.apiKey)).body.data.webhooks.map((w: { id: string }) => w.id)).toEqual([webhookId]);
    expect((await events(owner.apiKey, { entityId: paymentId })).nodes).toEqual([entry]);
    expect(hook.received).toHaveLength(1);
  });
});

describe('GraphQL webhooks with private targets refused (the production rule)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false', WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
  });
  afterAll(() => service.close());

  it('refuses http, loopback, private, link-local and internal-name urls as REST does; accepts a public https one', async () => {
    const { apiKey } = await service.newTenant('0');
    const refused = ['http://93.184.215.14/h', 'https://127.0.0.1/h', 'https://10.1.2.3/h', 'https://169.254.169.254/latest', 'https://[::1]/h', 'https://localhost/h'];
    for (const url of refused) {
      expect((await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url } })).body.code).toBe('validation_error');
      const res = await gql(service.baseUrl, REGISTER, { input: { url } }, apiKey);
      expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'validation_error', details: { field: 'url' } } });
    }
    expect((await gql(service.baseUrl, WEBHOOKS, {}, apiKey)).body.data.webhooks).toEqual([]);
    const accepted = await gql(service.baseUrl, REGISTER, { input: { url: 'https://93.184.215.14/hooks' } }, apiKey);
    expect(accepted.body.data.registerWebhook).toMatchObject({ url: 'https://93.184.215.14/hooks', events: [] });
  });
});
