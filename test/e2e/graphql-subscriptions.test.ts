import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { connectRaw, gql, subscribe, subscribed, wsUrl, type LiveSubscription } from '../support/graphql-client';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const UPDATES = `subscription Updates($paymentId: ID, $status: [PaymentStatus!]) {
  paymentUpdated(paymentId: $paymentId, status: $status) { id status providerRef reference amountStablecoin }
}`;

const statusesOf = (results: any[], paymentId?: string) =>
  results.map((r) => r.data.paymentUpdated).filter((p) => !paymentId || p.id === paymentId).map((p) => p.status);

describe('GraphQL subscriptions over graphql-ws (LISTEN/NOTIFY fan-out)', () => {
  let service: TestService;
  const open: LiveSubscription[] = [];
  const live = (key: string, variables: Record<string, unknown> = {}, query = UPDATES) => {
    const sub = subscribe(service.baseUrl, key, query, variables);
    open.push(sub);
    return sub;
  };
  const createPayment = async (apiKey: string, overrides: Record<string, unknown> = {}) => {
    const res = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(overrides), headers: { 'idempotency-key': randomUUID() } });
    expect(res.status).toBe(201);
    return res.body as { id: string; reference: string };
  };

  beforeAll(async () => {
    service = await startTestService();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.dispose()));
    // Each test counts its own registrations from zero.
    await eventually(async () => (service.container.graphql.groups.subscriberCount === 0 ? true : undefined));
  });
  afterAll(() => service.close());

  it('sees initiated -> provider_accepted -> succeeded for a sandbox payment; another tenant sees nothing', async () => {
    const mine = await service.newTenant();
    const theirs = await service.newTenant();
    const watching = live(mine.apiKey);
    const other = live(theirs.apiKey);
    await subscribed(service, 2);

    const payment = await createPayment(mine.apiKey);
    const results = await watching.until((r) => statusesOf(r, payment.id).includes('SUCCEEDED'));
    expect(statusesOf(results, payment.id)).toEqual(['INITIATED', 'PROVIDER_ACCEPTED', 'SUCCEEDED']);
    const accepted = results.map((r) => r.data.paymentUpdated).find((p) => p.status === 'PROVIDER_ACCEPTED');
    expect(accepted).toMatchObject({ id: payment.id, reference: payment.reference, providerRef: expect.any(String) });
    expect(accepted.amountStablecoin).toMatch(/^\d+\.\d{6}$/);
    // The other tenant's subscription was live the whole time and received none of it.
    expect(other.results).toEqual([]);
    expect(other.errors).toEqual([]);
  });

  it('filters by paymentId and by status', async () => {
    const { apiKey } = await service.newTenant();
    const first = await createPayment(apiKey, { accountNumber: '254712343333' });
    const onlyFirst = live(apiKey, { paymentId: first.id });
    const onlyFinal = live(apiKey, { status: ['SUCCEEDED', 'FAILED'] });
    await subscribed(service, 2);
    const second = await createPayment(apiKey, { accountNumber: '254712341111' });
    await onlyFinal.until((r) => r.length >= 1);
    expect(onlyFinal.results.map((r) => r.data.paymentUpdated)).toEqual([expect.objectContaining({ id: second.id, status: 'FAILED' })]);
    // The first payment (3333) stays accepted; nothing about the second reaches its filter.
    expect(onlyFirst.results.filter((r) => r.data.paymentUpdated.id !== first.id)).toEqual([]);
  });

  it('serves subscribers of one shape from one group with the same payload', async () => {
    const { apiKey } = await service.newTenant();
    const groupsBefore = service.container.graphql.groups.groupCount;
    const a = live(apiKey);
    const b = live(apiKey);
    const c = live(apiKey, {}, 'subscription { paymentUpdated { id status } }');
    await subscribed(service, 3);
    expect(service.container.graphql.groups.groupCount - groupsBefore).toBe(2);
    const payment = await createPayment(apiKey);
    await Promise.all([a, b, c].map((s) => s.until((r) => statusesOf(r, payment.id).includes('SUCCEEDED'))));
    expect(a.results).toEqual(b.results);
    expect(statusesOf(c.results, payment.id)).toEqual(['INITIATED', 'PROVIDER_ACCEPTED', 'SUCCEEDED']);
  });

  it('refuses a socket without a valid key (4401) or whose key has no tenant (4403)', async () => {
    expect(await connectRaw(service.baseUrl, undefined)).toEqual({ code: 4401, reason: expect.stringContaining('Unauthorized') });
    expect(await connectRaw(service.baseUrl, { authorization: 'sk_sandbox_000000000000000000000000000000000000' })).toMatchObject({ code: 4401 });
    expect(await connectRaw(service.baseUrl, { authorization: await service.newAdminKey() })).toMatchObject({ code: 4403 });
    const { apiKey } = await service.newTenant('0');
    expect(await connectRaw(service.baseUrl, { authorization: `Bearer ${apiKey}` })).toBe('acked');
  });

  it('serves only subscriptions over WebSocket, validated with the HTTP rules', async () => {
    const { apiKey } = await service.newTenant('0');
    const query = live(apiKey, {}, '{ me { tenantId } }');
    await eventually(async () => (query.errors.length > 0 ? true : undefined));
    expect(query.errors[0]).toEqual([expect.objectContaining({ extensions: { code: 'validation_error' } })]);
    const unknown = live(apiKey, {}, 'subscription { paymentUpdated { nope } }');
    await eventually(async () => (unknown.errors.length > 0 ? true : undefined));
    expect(unknown.errors[0]).toEqual([expect.objectContaining({ extensions: { code: 'validation_error' } })]);
  });

  it('closes the open sockets of a key when an admin revokes it (4401)', async () => {
    const { apiKey } = await service.newTenant('0');
    const me = await gql(service.baseUrl, '{ me { keyId } }', {}, apiKey);
    const socket = new WebSocket(wsUrl(service.baseUrl), 'graphql-transport-ws');
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve) => {
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: apiKey } })));
      socket.on('message', (data) => JSON.parse(String(data)).type === 'connection_ack' && resolve());
    });
    const admin = await service.newAdminKey();
    const revoked = await service.call('DELETE', `/v1/admin/api-keys/${me.body.data.me.keyId}`, { apiKey: admin });
    expect(revoked.status).toBe(204);
    expect(await closed).toBe(4401);
    expect(await connectRaw(service.baseUrl, { authorization: apiKey })).toMatchObject({ code: 4401 });
  });
});
