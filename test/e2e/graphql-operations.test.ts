import { randomUUID } from 'node:crypto';
import { gql } from '../support/graphql-client';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const TIMELINE = `query T($id: ID!) { paymentTimeline(id: $id) {
  payment { id status country recipient } events { type status at failureReason } } }`;
const HEALTH = '{ webhookHealth { webhookId url status failing failed retrying delivered lastError lastErrorAt } }';
const LIST = `query L($filter: PaymentFilter) { payments(first: 10, filter: $filter) { edges { node { id country recipient } } } }`;
const HOURLY = `query H($from: DateTimeISO!, $to: DateTimeISO!) { analyticsSummary(from: $from, to: $to, groupBy: HOUR) { key count } }`;

describe('GraphQL operations console reads: recipients, history, webhook health, hourly analytics', () => {
  let service: TestService;
  let failing: Receiver;
  let healthy: Receiver;

  beforeAll(async () => {
    service = await startTestService({ WEBHOOK_RETRY_SCHEDULE_MS: '0,20', WEBHOOK_TIMEOUT_MS: '5000' });
    failing = await startReceiver(() => ({ status: 500 }));
    healthy = await startReceiver();
  });
  afterAll(async () => {
    await service.close();
    await failing.close();
    await healthy.close();
  });

  const q = async (query: string, variables: Record<string, unknown>, apiKey: string) => {
    const res = await gql(service.baseUrl, query, variables, apiKey);
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };
  const pay = async (apiKey: string, overrides: Record<string, unknown> = {}) => {
    const res = await service.call('POST', '/v1/payments/moneyout', {
      apiKey, body: moneyOutBody(overrides), headers: { 'idempotency-key': randomUUID() },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  it('shows country and a masked recipient on payments, and filters by country', async () => {
    const { apiKey } = await service.newTenant();
    const kenya = await pay(apiKey);
    const ghana = await pay(apiKey, {
      country: 'GH', destinationCurrency: 'GHS', paymentCode: 'MTN', accountNumber: '233241234567', fiatAmount: 100,
    });
    const all = (await q(LIST, {}, apiKey)).payments.edges.map((e: any) => e.node);
    expect(all).toEqual([
      { id: ghana, country: 'GH', recipient: '••••4567' },
      { id: kenya, country: 'KE', recipient: '••••5678' },
    ]);
    const onlyGhana = (await q(LIST, { filter: { country: ['GH'] } }, apiKey)).payments.edges.map((e: any) => e.node.id);
    expect(onlyGhana).toEqual([ghana]);
  });

  it('gives the history of a failed payment with its reason, and not_found for another tenant', async () => {
    const { apiKey } = await service.newTenant();
    const id = await pay(apiKey, { accountNumber: '254712341111' });
    const timeline = await eventually(async () => {
      const data = await q(TIMELINE, { id }, apiKey);
      return data.paymentTimeline.payment.status === 'FAILED' ? data.paymentTimeline : undefined;
    });
    expect(timeline.payment).toEqual({ id, status: 'FAILED', country: 'KE', recipient: '••••1111' });
    expect(timeline.events.map((e: any) => [e.type, e.status])).toEqual([
      ['payment.initiated', 'INITIATED'], ['payment.processing', 'PROVIDER_ACCEPTED'], ['payment.failed', 'FAILED'],
    ]);
    expect(timeline.events[2].failureReason).toEqual(expect.any(String));
    expect(timeline.events[0].failureReason).toBeNull();

    const other = await service.newTenant();
    const res = await gql(service.baseUrl, TIMELINE, { id }, other.apiKey);
    expect(res.body.data).toEqual({ paymentTimeline: null });
    expect(res.body.errors[0].extensions.code).toBe('not_found');
  });

  it('lists failing endpoints first with their last error', async () => {
    const { apiKey } = await service.newTenant();
    const register = async (url: string) => service.call('POST', '/v1/webhooks/register', { apiKey, body: { url } });
    expect((await register(healthy.url)).status).toBe(201);
    const bad = await register(failing.url);
    expect(bad.status).toBe(201);
    await pay(apiKey);
    const health = await eventually(async () => {
      const rows = (await q(HEALTH, {}, apiKey)).webhookHealth;
      return rows[0]?.failed > 0 && rows[1]?.delivered > 0 ? rows : undefined;
    });
    expect(health[0]).toMatchObject({ webhookId: bad.body.webhookId, url: failing.url, failing: true, lastError: 'HTTP 500', delivered: 0 });
    expect(health[0].lastErrorAt).toEqual(expect.any(String));
    expect(health[1]).toMatchObject({ url: healthy.url, failing: false, failed: 0, retrying: 0, lastError: null });
  });

  it('groups analytics by hour (UTC)', async () => {
    const { apiKey } = await service.newTenant();
    const hours = new Map<string, number>();
    for (const id of [await pay(apiKey), await pay(apiKey)]) {
      const created: string = (await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.createdAt;
      const hour = `${created.slice(0, 13)}:00:00Z`;
      hours.set(hour, (hours.get(hour) ?? 0) + 1);
    }
    const now = Date.now();
    const from = new Date(now - 3_600_000).toISOString();
    const to = new Date(now + 3_600_000).toISOString();
    expect((await q(HOURLY, { from, to }, apiKey)).analyticsSummary).toEqual([...hours].map(([key, count]) => ({ key, count })));
  });
});
