import { ulid } from 'ulid';
import { startMpesaSimulator, type MpesaSimulator } from '../../simulators/mpesa/mpesa-simulator';
import { certificateFile, mpesaEnv, PATH_SECRET } from '../providers/mpesa-harness';
import { sqlOf } from '../support/provider-e2e';
import { startTestService, type TestService } from '../support/test-service';

const MTN_SECRET = 'cb_secret_0123456789abcdefghijklmnopqrstuv';
/** The addresses the M-Pesa and MTN allow-lists name here; the test's own 127.0.0.1 is not one of them. */
const PROVIDER_RANGE = '196.201.214.0/24';
const PROVIDER_ADDRESS = '196.201.214.10';

/** Both unsigned providers on, their allow-lists naming PROVIDER_RANGE only. */
function pathSecretEnv(sim: MpesaSimulator): Record<string, string> {
  return {
    ...mpesaEnv(sim, 'http://127.0.0.1:1/callbacks/mpesa', certificateFile(sim), { MPESA_CALLBACK_ALLOWED_IPS: PROVIDER_RANGE }),
    MTN_MOMO_BASE_URL: 'http://127.0.0.1:1', MTN_MOMO_SUBSCRIPTION_KEY: 'sub-key', MTN_MOMO_API_USER: '7c1e3b4a-2f5d-4e8a-9b6c-1d2e3f4a5b6c',
    MTN_MOMO_API_KEY: 'api-key', MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox', MTN_MOMO_SANDBOX_CURRENCY: 'EUR',
    MTN_MOMO_CALLBACK_BASE_URL: 'http://127.0.0.1:1/callbacks/mtn-momo', MTN_MOMO_CALLBACK_SECRET: MTN_SECRET,
    MTN_MOMO_CALLBACK_ALLOWED_IPS: PROVIDER_RANGE,
  };
}

/** An M-Pesa QueueTimeOutURL callback (any body) of a new payment id, with `secret` in its path. */
function mpesaTimeout(service: TestService, secret: string, headers: Record<string, string> = {}, paymentId = `pay_${ulid()}`) {
  return fetch(`${service.baseUrl}/callbacks/mpesa/${secret}/timeout/${paymentId}`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"Result":{"ResultCode":"SFC_IC0003"}}',
  });
}

/** An MTN transfer callback (PUT) of a new payment id, with `secret` in its path. */
function mtnCallback(service: TestService, secret: string, headers: Record<string, string> = {}) {
  return fetch(`${service.baseUrl}/callbacks/mtn-momo/${secret}`, {
    method: 'PUT', headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ amount: '100', currency: 'EUR', externalId: `pay_${ulid()}`, status: 'SUCCESSFUL', financialTransactionId: ulid() }),
  });
}

const answer = async (res: Response) => ({ status: res.status, body: await res.text() });
const storedCount = async (service: TestService) => Number((await sqlOf(service)<{ n: string }>('select count(*) as n from provider_events'))[0]!.n);

describe('callbacks without a trusted proxy (TRUST_PROXY off)', () => {
  let sim: MpesaSimulator;
  let service: TestService;
  beforeAll(async () => {
    sim = await startMpesaSimulator();
    service = await startTestService(pathSecretEnv(sim));
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  it('an unlisted caller gets the same answer with the right path secret as with a wrong one (the address is checked first)', async () => {
    const before = await storedCount(service);
    const mpesaRight = await answer(await mpesaTimeout(service, PATH_SECRET));
    const mpesaWrong = await answer(await mpesaTimeout(service, `${PATH_SECRET.slice(0, -1)}Z`));
    expect(mpesaRight).toEqual({ status: 403, body: '{"ResultCode":1,"ResultDesc":"Rejected"}' });
    expect(mpesaWrong).toEqual(mpesaRight);
    const mtnRight = await answer(await mtnCallback(service, MTN_SECRET));
    const mtnWrong = await answer(await mtnCallback(service, `${MTN_SECRET.slice(0, -1)}Z`));
    expect(mtnRight).toEqual({ status: 403, body: '' });
    expect(mtnWrong).toEqual(mtnRight);
    expect(await storedCount(service)).toBe(before);
  });

  it('ignores X-Forwarded-For: naming an allowed address in it does not pass the allow-list', async () => {
    const spoof = { 'x-forwarded-for': PROVIDER_ADDRESS };
    expect((await mpesaTimeout(service, PATH_SECRET, spoof)).status).toBe(403);
    expect((await mtnCallback(service, MTN_SECRET, spoof)).status).toBe(403);
  });
});

describe('callbacks behind one trusted proxy hop (TRUST_PROXY=1)', () => {
  let sim: MpesaSimulator;
  let service: TestService;
  beforeAll(async () => {
    sim = await startMpesaSimulator();
    service = await startTestService({ ...pathSecretEnv(sim), TRUST_PROXY: '1', CALLBACK_RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });
  /** The X-Forwarded-For our proxy would pass on: what the client sent, then the client's address it appends. */
  const via = (client: string, sentByClient?: string) => ({ 'x-forwarded-for': sentByClient ? `${sentByClient}, ${client}` : client });

  it('the client is the address the proxy appended: an allowed address spoofed in an extra hop is not trusted', async () => {
    expect((await mpesaTimeout(service, PATH_SECRET, via('203.0.113.7', PROVIDER_ADDRESS))).status).toBe(403);
    expect((await mtnCallback(service, MTN_SECRET, via('203.0.113.7', PROVIDER_ADDRESS))).status).toBe(403);
    // From the provider's address, through the proxy: heard, whatever hop the provider's side sent before it.
    expect((await mpesaTimeout(service, PATH_SECRET, via(PROVIDER_ADDRESS, '203.0.113.7'))).status).toBe(200);
    expect((await mtnCallback(service, MTN_SECRET, via('196.201.214.11'))).status).toBe(200);
    // A listed caller with a wrong secret: the route does not reveal itself (404).
    expect((await mpesaTimeout(service, 'x'.repeat(40), via('196.201.214.12'))).status).toBe(404);
    expect((await mtnCallback(service, 'x'.repeat(40), via('196.201.214.12'))).status).toBe(404);
  });

  it('each client address has its own callback budget; rotating a spoofed hop does not open a new one', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 8; i++) {
      last = await mpesaTimeout(service, PATH_SECRET, via('203.0.113.30', `198.51.100.${i}`));
      statuses.push(last.status);
    }
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429, 429, 429]);
    expect(await last!.json()).toEqual({ statusCode: 429, code: 'rate_limited', message: expect.stringMatching(/callback requests from this address/), details: { requestId: expect.any(String) } });
    const retryAfter = Number(last!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // The budget is the address's on every callback route, and another address has its own.
    expect((await mtnCallback(service, MTN_SECRET, via('203.0.113.30'))).status).toBe(429);
    expect((await mpesaTimeout(service, PATH_SECRET, via('203.0.113.31', '203.0.113.30'))).status).toBe(403);
  });
});

describe('the callback budget without a trusted proxy', () => {
  let sim: MpesaSimulator;
  let service: TestService;
  beforeAll(async () => {
    sim = await startMpesaSimulator();
    service = await startTestService({
      ...mpesaEnv(sim, 'http://127.0.0.1:1/callbacks/mpesa', certificateFile(sim)), CALLBACK_RATE_LIMIT_PER_MINUTE: '3',
    });
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  it('counts the socket\'s address: listed callers too, whatever X-Forwarded-For says, and refused requests store nothing', async () => {
    const before = await storedCount(service);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await mpesaTimeout(service, PATH_SECRET, { 'x-forwarded-for': `198.51.100.${i}` })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(await storedCount(service)).toBe(before + 3);
  });
});
