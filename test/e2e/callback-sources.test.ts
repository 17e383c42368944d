import { createHmac } from 'node:crypto';
import { sqlOf } from '../support/provider-e2e';
import { startTestService, type TestService } from '../support/test-service';

const PAYSTACK_KEY = 'sk_test_callbacksources0123456789';

/** A Paystack webhook signed with PAYSTACK_KEY (x-paystack-signature: hex HMAC-SHA512 of the raw body). */
function paystackWebhook(event: unknown, headers: Record<string, string> = {}): RequestInit {
  const body = JSON.stringify(event);
  return {
    method: 'POST', body,
    headers: { 'content-type': 'application/json', 'x-paystack-signature': createHmac('sha512', PAYSTACK_KEY).update(body).digest('hex'), ...headers },
  };
}

/** A signed event that concerns none of our payouts: acknowledged and stored as `not_ours` when its source is allowed. */
const foreignEvent = (n: number) => ({ event: 'charge.success', data: { reference: `sources-${n}-${Date.now()}` } });

/** How many Paystack events are stored. */
async function storedPaystackEvents(service: TestService): Promise<number> {
  const [row] = await sqlOf(service)<{ n: string }>("select count(*) as n from provider_events where provider = 'paystack'");
  return Number(row!.n);
}

describe('Paystack webhooks: the source allow-list over HTTP', () => {
  const services: TestService[] = [];
  const start = async (env: Record<string, string>) => {
    const service = await startTestService({ PAYSTACK_SECRET_KEY: PAYSTACK_KEY, PAYSTACK_BASE_URL: 'http://127.0.0.1:1', ...env });
    services.push(service);
    return service;
  };
  afterAll(async () => {
    for (const service of services) await service.close();
  });

  it('by default only Paystack\'s documented addresses are heard: a correctly signed webhook from elsewhere is 403 and stores nothing', async () => {
    const service = await start({});
    const before = await storedPaystackEvents(service);
    const res = await fetch(`${service.baseUrl}/callbacks/paystack`, paystackWebhook(foreignEvent(1)));
    expect(res.status).toBe(403);
    expect(await storedPaystackEvents(service)).toBe(before);
  });

  it('PAYSTACK_WEBHOOK_ALLOWED_IPS replaces the default; PAYSTACK_WEBHOOK_ALLOW_ANY_IP=true hears any source (the signature still decides)', async () => {
    for (const env of [{ PAYSTACK_WEBHOOK_ALLOWED_IPS: '127.0.0.1' }, { PAYSTACK_WEBHOOK_ALLOW_ANY_IP: 'true' }] as Record<string, string>[]) {
      const service = await start(env);
      const before = await storedPaystackEvents(service);
      const res = await fetch(`${service.baseUrl}/callbacks/paystack`, paystackWebhook(foreignEvent(2)));
      expect([res.status, await res.text()]).toEqual([200, 'OK']);
      expect(await storedPaystackEvents(service)).toBe(before + 1);
      const forged = await fetch(`${service.baseUrl}/callbacks/paystack`, { ...paystackWebhook(foreignEvent(3)), headers: { 'x-paystack-signature': 'f'.repeat(128) } });
      expect(forged.status).toBe(401);
    }
  });
});
