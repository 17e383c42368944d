import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MpesaClient } from '../../src/adapters/providers/mpesa/mpesa-client';
import { MtnMomoClient } from '../../src/adapters/providers/mtn-momo/mtn-momo-client';
import type { MtnMomoConfig } from '../../src/adapters/providers/mtn-momo/mtn-momo-config';
import type { MtnMomoTransferRequest } from '../../src/adapters/providers/mtn-momo/mtn-momo-client';
import { PaystackClient } from '../../src/adapters/providers/paystack/paystack-client';
import type { PaystackConfig } from '../../src/adapters/providers/paystack/paystack-config';
import { systemClock } from '../../src/adapters/providers/system';

/** Every call in these tests would wait this long for an answer if nothing cut it short. */
const RESPONSE_TIMEOUT_MS = 60_000;

/**
 * A provider that hangs: token requests (Daraja's `/oauth/v1/generate`, MTN's `/disbursement/token/`)
 * are answered, every other request is read and never answered. `requests` lists what arrived.
 */
async function hangingProvider() {
  const requests: string[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
    req.resume();
    req.on('end', () => {
      if (/^\/(oauth\/v1\/generate|disbursement\/token\/)/.test(req.url ?? '')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'tok', expires_in: 3599 }));
      } else held.push(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    /** Resolves once a request other than a token request is held. */
    holding: async () => {
      while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Races `call` with a bound far below the response timeout, so a call that was not cut short fails the test. */
async function within<T>(call: Promise<T>, ms = 5000): Promise<T | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  const result = await Promise.race([call, late]);
  clearTimeout(timer);
  return result;
}

// What a stopping service does at the end of its grace period (docs/decisions.md § Running it):
// each client's abort() cuts the calls in flight (outcome unknown) and sends nothing after.
describe('provider clients: abort() at the end of a shutdown grace period', () => {
  let provider: Awaited<ReturnType<typeof hangingProvider>>;
  beforeEach(async () => {
    provider = await hangingProvider();
  });
  afterEach(() => provider.close());

  it('M-Pesa: the hung B2C request is lost (it may have arrived); a later one is not sent', async () => {
    const client = new MpesaClient({
      baseUrl: provider.url, consumerKey: 'key', consumerSecret: 'secret', connectTimeoutMs: 1000, responseTimeoutMs: RESPONSE_TIMEOUT_MS,
    });
    const hung = client.post('/mpesa/b2c/v3/paymentrequest', { Amount: '1500' });
    await provider.holding();
    await client.abort();
    expect(await within(hung)).toMatchObject({ kind: 'lost' });
    expect(await client.post('/mpesa/b2c/v3/paymentrequest', { Amount: '1500' })).toEqual({ kind: 'not_sent', reason: 'the service is stopping' });
    expect(provider.requests).toEqual(['GET /oauth/v1/generate', 'POST /mpesa/b2c/v3/paymentrequest']);
    await client.close();
  });

  it('MTN MoMo: the hung transfer request is lost; a later one is not sent', async () => {
    const config = {
      baseUrl: provider.url, subscriptionKey: 'sub', apiUser: 'user', apiKey: 'key', targetEnvironment: 'sandbox',
      connectTimeoutMs: 1000, responseTimeoutMs: RESPONSE_TIMEOUT_MS,
    } as MtnMomoConfig;
    const client = new MtnMomoClient(config, systemClock);
    const body = {} as MtnMomoTransferRequest;
    const hung = client.postTransfer('ref-1', body, 'http://127.0.0.1/callback');
    await provider.holding();
    await client.abort();
    expect(await within(hung)).toMatchObject({ kind: 'lost' });
    expect(await client.postTransfer('ref-2', body, 'http://127.0.0.1/callback')).toMatchObject({ kind: 'not_sent', reason: expect.stringContaining('the service is stopping') });
    expect(provider.requests).toEqual(['POST /disbursement/token/', 'POST /disbursement/v1_0/transfer']);
    await client.close();
  });

  it('Paystack: the hung transfer request may have been sent; a later one is not sent', async () => {
    const client = new PaystackClient({ baseUrl: provider.url, secretKey: 'sk_test_x', connectTimeoutMs: 1000, responseTimeoutMs: RESPONSE_TIMEOUT_MS } as PaystackConfig);
    const hung = client.send({ method: 'POST', path: '/transfer', body: { amount: 1500 } });
    await provider.holding();
    await client.close();
    expect(await within(hung)).toMatchObject({ kind: 'maybe_sent' });
    expect(await client.send({ method: 'POST', path: '/transfer', body: { amount: 1500 } })).toEqual({ kind: 'not_sent', reason: 'the service is stopping' });
    expect(provider.requests).toEqual(['POST /transfer']);
  });
});
