import { randomUUID } from 'node:crypto';
import { gql } from '../support/graphql-client';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

const CREATE = `mutation Create($input: MoneyOutInput!, $key: String!) {
  createMoneyOut(input: $input, idempotencyKey: $key) { replayed payment { id } }
}`;
const HOUR_MS = 3_600_000;

/**
 * Idempotency rules with one home: a key's lifetime is judged by the service clock, the use case
 * says created or replayed (each transport picks its status), and each transport names the key
 * after its own field.
 */
describe('idempotency: the service clock, and each transport in its own words', () => {
  let service: TestService;
  let apiKey: string;
  // The service's clock, moved by the tests (days ahead of the wall clock once moved).
  let now = Date.now();

  beforeAll(async () => {
    service = await startTestService({ IDEMPOTENCY_TTL_HOURS: '1', WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' }, {
      clock: { now: () => new Date(now) },
    });
    ({ apiKey } = await service.newTenant());
  });
  afterAll(() => service.close());

  const moneyOut = (key: string, body = moneyOutBody()) =>
    service.call('POST', '/v1/payments/moneyout', { apiKey, body, headers: { 'idempotency-key': key } });

  it('a key is remembered until its lifetime ends on the service clock, then free for another request', async () => {
    const key = randomUUID();
    const first = await moneyOut(key);
    expect(first.status).toBe(201);
    now += 30 * 60_000;
    const other = await moneyOut(key);
    expect([other.status, other.body.code]).toEqual([422, 'idempotency_key_reused']);
    // Past IDEMPOTENCY_TTL_HOURS by the service clock (the wall clock has hardly moved).
    now += HOUR_MS;
    const again = await moneyOut(key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.id).not.toBe(first.body.id);
  });

  it('REST answers 201 for a created money-out and for its replay, which says Idempotent-Replayed', async () => {
    const key = randomUUID();
    const body = moneyOutBody();
    const created = await moneyOut(key, body);
    const replayed = await moneyOut(key, body);
    expect([created.status, created.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(replayed.body).toEqual(created.body);
  });

  it('a key is one key in any letter case, across both transports', async () => {
    const key = randomUUID();
    const body = moneyOutBody();
    const created = await moneyOut(key.toUpperCase(), body);
    const replayed = await moneyOut(key, body);
    expect([created.status, replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true']);
    expect(replayed.body.id).toBe(created.body.id);
    const graphql = await gql(service.baseUrl, CREATE, { input: { ...body, fiatAmount: String(body.fiatAmount) }, key: key.replace(/[a-f]/g, (c) => c.toUpperCase()) }, apiKey);
    expect(graphql.body.data.createMoneyOut).toEqual({ replayed: true, payment: { id: created.body.id } });
  });

  it('a malformed key: REST names the Idempotency-Key header, GraphQL its idempotencyKey argument', async () => {
    const rest = await moneyOut('not-a-uuid');
    expect([rest.status, rest.body.code]).toEqual([400, 'validation_error']);
    expect(rest.body.message).toBe('Idempotency-Key header is required and must be a UUID');

    const input = { ...moneyOutBody(), fiatAmount: '1500' };
    const graphql = await gql(service.baseUrl, CREATE, { input, key: 'not-a-uuid' }, apiKey);
    const [error] = graphql.body.errors;
    expect(error.extensions).toMatchObject({ code: 'validation_error', details: { field: 'idempotencyKey' } });
    expect(error.message).toBe('idempotencyKey is required and must be a UUID');
    expect(error.message).not.toContain('header');
  });

  it('a key reused with another request: neither transport mentions a header', async () => {
    const key = randomUUID();
    expect((await moneyOut(key)).status).toBe(201);
    const rest = await moneyOut(key);
    expect([rest.status, rest.body.code]).toEqual([422, 'idempotency_key_reused']);
    const graphql = await gql(service.baseUrl, CREATE, { input: { ...moneyOutBody(), fiatAmount: '1500' }, key }, apiKey);
    expect(graphql.body.errors[0].extensions.code).toBe('idempotency_key_reused');
    expect(graphql.body.errors[0].message).not.toMatch(/Idempotency-Key|header/);
  });
});
