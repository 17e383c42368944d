import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { cliCommand } from '../support/child-process';
import { gql } from '../support/graphql-client';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

describe('webhook registrations are capped per tenant', () => {
  let service: TestService;
  let admin: string;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    service = await startTestService();
    admin = await service.newAdminKey();
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await service.close();
  });

  const register = (apiKey: string, n = 0) =>
    service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: `https://hooks.example.com/${n}` } });
  const count = async (apiKey: string) => (await service.call('GET', '/v1/webhooks', { apiKey })).body.length as number;
  const patch = (tenantId: string, body: unknown) => service.call('PATCH', `/v1/admin/tenants/${tenantId}`, { apiKey: admin, body });

  it('accepts 10 by default, refuses the 11th with 422 webhook_limit_reached, and counts a deleted one out', async () => {
    const { apiKey } = await service.newTenant();
    const made = [];
    for (let i = 0; i < 10; i++) made.push(await register(apiKey, i));
    expect(made.map((r) => r.status)).toEqual(Array(10).fill(201));
    const refused = await register(apiKey, 10);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ statusCode: 422, code: 'webhook_limit_reached', message: expect.stringContaining('at most 10'), details: { requestId: expect.any(String) } });
    expect(await count(apiKey)).toBe(10);
    expect((await service.call('DELETE', `/v1/webhooks/${made[0]!.body.webhookId}`, { apiKey })).status).toBe(204);
    expect((await register(apiKey, 11)).status).toBe(201);
  });

  it('holds the cap under 25 concurrent registrations', async () => {
    const { apiKey } = await service.newTenant();
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => register(apiKey, i)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(10).fill(201), ...Array(15).fill(422)]);
    expect(await count(apiKey)).toBe(10);
  });

  it('an operator sets a per-tenant webhookLimit, shown in tenant views; null returns to the default', async () => {
    const { tenantId, apiKey } = await service.newTenant();
    const patched = await patch(tenantId, { webhookLimit: 2 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ tenantId, webhookLimit: 2 });
    const listed = (await service.call('GET', '/v1/admin/tenants', { apiKey: admin })).body.find((t: { tenantId: string }) => t.tenantId === tenantId);
    expect(listed.webhookLimit).toBe(2);
    expect([(await register(apiKey, 1)).status, (await register(apiKey, 2)).status, (await register(apiKey, 3)).status]).toEqual([201, 201, 422]);
    expect((await register(apiKey, 4)).body.message).toContain('at most 2');
    expect((await patch(tenantId, { webhookLimit: null })).body.webhookLimit).toBeNull();
    expect((await register(apiKey, 5)).status).toBe(201);
    expect((await patch(tenantId, { webhookLimit: 0 })).body.webhookLimit).toBe(0);
    expect((await register(apiKey, 6)).status).toBe(422);
  });

  it.each([[-1], [1001], [1.5], ['5']])('refuses webhookLimit %p with 400 validation_error', async (webhookLimit) => {
    const { tenantId } = await service.newTenant();
    const res = await patch(tenantId, { webhookLimit });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
  });

  it('GraphQL registerWebhook answers the same code over the cap', async () => {
    const { tenantId, apiKey } = await service.newTenant();
    await patch(tenantId, { webhookLimit: 1 });
    const REGISTER = 'mutation R($input: RegisterWebhookInput!) { registerWebhook(input: $input) { webhookId } }';
    const first = await gql(service.baseUrl, REGISTER, { input: { url: 'https://hooks.example.com/a' } }, apiKey);
    expect(first.body.data.registerWebhook.webhookId).toEqual(expect.any(String));
    const second = await gql(service.baseUrl, REGISTER, { input: { url: 'https://hooks.example.com/b' } }, apiKey);
    expect(second.body.errors[0]).toMatchObject({ extensions: { code: 'webhook_limit_reached' }, path: ['registerWebhook'] });
    expect(await count(apiKey)).toBe(1);
  });

  it('the operator CLI sets it with --webhook-limit N|default', async () => {
    const { tenantId } = await service.newTenant();
    const cli = (...args: string[]) => promisify(execFile)(...cliCommand(...args), {
      env: { ...process.env, DATABASE_URL: service.config.DATABASE_URL },
    });
    expect(JSON.parse((await cli('tenants:update', '--tenant', tenantId, '--webhook-limit', '3')).stdout)).toMatchObject({ tenantId, webhookLimit: 3 });
    await expect(cli('tenants:update', '--tenant', tenantId, '--webhook-limit', 'many')).rejects.toMatchObject({ stderr: expect.stringContaining('validation_error') });
    expect(JSON.parse((await cli('tenants:update', '--tenant', tenantId, '--webhook-limit', 'default')).stdout)).toMatchObject({ webhookLimit: null });
  }, 60_000);

  it('POST /v1/webhooks/events/{id}/retry draws from the key\'s rate limit like any request', async () => {
    const { tenantId, apiKey } = await service.newTenant();
    const hook = await startReceiver();
    receivers.push(hook);
    await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: hook.url, events: ['payment.processing'] } });
    const paid = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    const entry = await eventually(async () => {
      const log = await service.call('GET', `/v1/webhooks/events?entityId=${paid.body.id}`, { apiKey });
      return log.body[0]?.status === 'delivered' ? log.body[0] : undefined;
    });
    // A fresh key, so the requests above do not count; the tenant's limit: 3 a minute.
    const issued = await service.call('POST', `/v1/admin/tenants/${tenantId}/api-keys`, { apiKey: admin, body: { scope: 'issuer' } });
    await patch(tenantId, { rateLimitPerMinute: 3 });
    const retry = () => service.call('POST', `/v1/webhooks/events/${entry.id}/retry`, { apiKey: issued.body.apiKey });
    const answers = [await retry(), await retry(), await retry(), await retry()];
    expect(answers.map((r) => r.status)).toEqual([202, 202, 202, 429]);
    expect(answers[3]!.body.code).toBe('rate_limited');
    expect(Number(answers[3]!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
