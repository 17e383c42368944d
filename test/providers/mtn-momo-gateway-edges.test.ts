import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MtnMomoClient } from '../../src/adapters/providers/mtn-momo/mtn-momo-client';
import { parseMtnMomoConfig, type MtnMomoConfig } from '../../src/adapters/providers/mtn-momo/mtn-momo-config';
import { MtnMomoPayoutProvider } from '../../src/adapters/providers/mtn-momo/mtn-momo-payout-provider';
import { momoPayment, TestClock } from './support/mtn-momo-harness';

// MTN MoMo Disbursement answers the simulator never gives, from a scripted gateway over real local
// HTTP: a refused or unreadable token (POST /disbursement/token/, Basic apiUser:apiKey, answering
// `{access_token, token_type, expires_in}`), a token refused twice, and status queries
// (GET /disbursement/v1_0/transfer/{referenceId}) that cannot be read.
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let onToken: Handler;
let onTransfer: Handler;
let onStatus: Handler;
let seen: string[] = [];
const clients: MtnMomoClient[] = [];
const clock = new TestClock(1_000_000);

const reply = (res: ServerResponse, status: number, body?: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body));
let issued = 0;
const tokenOk = (expiresIn = 3600): Handler => (_req, res) => {
  issued += 1;
  reply(res, 200, { access_token: `tok-${issued}`, token_type: 'access_token', expires_in: expiresIn });
};

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      if (req.url === '/disbursement/token/') return onToken(req, res);
      if (req.method === 'POST') return onTransfer(req, res);
      return onStatus(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
beforeEach(() => {
  seen = [];
  issued = 0;
  onToken = tokenOk();
  onTransfer = (_req, res) => reply(res, 202);
  onStatus = (_req, res) => reply(res, 404, { code: 'RESOURCE_NOT_FOUND', message: 'Requested resource was not found.' });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.abort()));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function provider(baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`): MtnMomoPayoutProvider {
  const config = parseMtnMomoConfig({
    MTN_MOMO_BASE_URL: baseUrl, MTN_MOMO_SUBSCRIPTION_KEY: 'sub-key', MTN_MOMO_API_USER: '3f9a8b2c-1d4e-4f5a-9b6c-7d8e9f0a1b2c',
    MTN_MOMO_API_KEY: 'api-key', MTN_MOMO_TARGET_ENVIRONMENT: 'mtnuganda', MTN_MOMO_CALLBACK_BASE_URL: 'https://pay.example.com/cb/mtn_momo',
    MTN_MOMO_CALLBACK_SECRET: 'cb_secret_0123456789abcdefghijklmnopqrstuv', MTN_MOMO_CALLBACK_ALLOWED_IPS: '127.0.0.1', MTN_MOMO_RESPONSE_TIMEOUT_MS: '1000', MTN_MOMO_POLL_INTERVAL_MS: '1000',
  }) as MtnMomoConfig;
  const client = new MtnMomoClient(config, clock);
  clients.push(client);
  return new MtnMomoPayoutProvider(config, client);
}
const basic = `Basic ${Buffer.from('3f9a8b2c-1d4e-4f5a-9b6c-7d8e9f0a1b2c:api-key').toString('base64')}`;

describe('MTN MoMo access token', () => {
  it('a refused, unreadable or unreachable token endpoint is retry: nothing was sent', async () => {
    onToken = (_req, res) => reply(res, 401, { error: 'login_failed' });
    expect(await provider().submit(momoPayment('00'))).toEqual({
      kind: 'retry', afterMs: expect.any(Number), reason: 'MTN MoMo not reached: no access token: token request refused with HTTP 401',
    });
    onToken = (_req, res) => reply(res, 200, '<html>ok</html>');
    expect(await provider().submit(momoPayment('00'))).toMatchObject({
      kind: 'retry', reason: 'MTN MoMo not reached: no access token: token response is not JSON with access_token and expires_in',
    });
    expect(await provider('http://127.0.0.1:1').submit(momoPayment('00'))).toMatchObject({
      kind: 'retry', reason: 'MTN MoMo not reached: no access token: token request failed (POST /disbursement/token/: ECONNREFUSED)',
    });
    expect(seen.filter((s) => s.startsWith('POST /disbursement/v1_0/'))).toEqual([]);
    expect(seen[0]).toBe(`POST /disbursement/token/ ${basic}`);
  });

  it('a token refused at the transfer is replaced once; no new token to be had, the transfer is not sent again', async () => {
    let refusals = 1;
    onTransfer = (_req, res) => (refusals-- > 0 ? reply(res, 401, { code: 'INVALID_TOKEN' }) : reply(res, 202));
    const momo = provider();
    const payment = momoPayment('00');
    expect(await momo.submit(payment)).toMatchObject({ kind: 'accepted' });
    expect(seen.filter((s) => s.startsWith('POST /disbursement/v1_0/transfer')).map((s) => s.split(' ').pop())).toEqual(['tok-1', 'tok-2']);

    onTransfer = (_req, res) => reply(res, 401, { code: 'INVALID_TOKEN' });
    onToken = (_req, res) => reply(res, 500);
    expect(await momo.submit(momoPayment('00'))).toMatchObject({
      kind: 'retry', reason: 'MTN MoMo not reached: no access token: token request refused with HTTP 500',
    });
  });

  it('a token is reused until ten minutes before it expires, or half its life when that is shorter', async () => {
    const momo = provider();
    await momo.submit(momoPayment('00'));
    clock.ms += 3_000_000 - 1;
    await momo.submit(momoPayment('00'));
    expect(issued).toBe(1);
    clock.ms += 1;
    await momo.submit(momoPayment('00'));
    expect(issued).toBe(2);

    onToken = tokenOk(600);
    const short = provider();
    const start = clock.ms;
    await short.submit(momoPayment('00'));
    clock.ms = start + 300_000 - 1;
    await short.submit(momoPayment('00'));
    expect(issued).toBe(3);
    clock.ms = start + 300_000;
    await short.submit(momoPayment('00'));
    expect(issued).toBe(4);
  });
});

describe('MTN MoMo answers to a transfer request', () => {
  const found = (_req: IncomingMessage, res: ServerResponse) => reply(res, 200, { amount: '15000', currency: 'UGX', status: 'PENDING' });
  const submitWith = (status: number, body?: unknown) => {
    onTransfer = (_req, res) => reply(res, status, body);
    return provider().submit(momoPayment('00'));
  };

  it('202 is accepted under our reference, with no status query', async () => {
    const payment = momoPayment('00');
    expect(await provider().submit(payment)).toEqual({ kind: 'accepted', providerRef: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(seen.filter((s) => s.startsWith('GET '))).toEqual([]);
  });

  it('a refusal is looked up first: a transfer MTN has is accepted after all', async () => {
    onStatus = found;
    for (const [status, code] of [[400, 'INVALID_PAYEE'], [409, 'RESOURCE_ALREADY_EXIST'], [403, 'NOT_ALLOWED'], [500, 'NOT_ALLOWED_TARGET_ENVIRONMENT']] as const) {
      expect(await submitWith(status, { code })).toMatchObject({ kind: 'accepted' });
    }
  });

  it('absent at MTN: 400 is rejected, other 4xx and a 500 naming our configuration are retried in a minute, 409 stays unknown', async () => {
    expect(await submitWith(400, { code: 'INVALID_PAYEE' })).toEqual({ kind: 'rejected', reason: 'MTN MoMo refused the transfer request (HTTP 400 INVALID_PAYEE)', code: 'declined' });
    expect(await submitWith(400)).toEqual({ kind: 'rejected', reason: 'MTN MoMo refused the transfer request (HTTP 400)', code: 'declined' });
    expect(await submitWith(403, { code: 'NOT_ALLOWED' })).toEqual({ kind: 'retry', afterMs: 60_000, reason: 'MTN MoMo refused our request (HTTP 403 NOT_ALLOWED): check the MTN_MOMO_* configuration' });
    expect(await submitWith(499)).toMatchObject({ kind: 'retry', afterMs: 60_000 });
    expect(await submitWith(500, { code: 'INVALID_CURRENCY' })).toEqual({ kind: 'retry', afterMs: 60_000, reason: 'MTN MoMo refused our request (HTTP 500 INVALID_CURRENCY): check the MTN_MOMO_* configuration' });
    expect(await submitWith(409, { code: 'RESOURCE_ALREADY_EXIST' })).toEqual({ kind: 'unknown', reason: 'MTN MoMo answered HTTP 409 RESOURCE_ALREADY_EXIST and the transfer\'s status is not available' });
  });

  it('a refusal whose presence cannot be checked is unknown; any other answer is unknown without a look-up', async () => {
    onStatus = (_req, res) => reply(res, 503);
    expect(await submitWith(400, { code: 'INVALID_PAYEE' })).toEqual({ kind: 'unknown', reason: 'MTN MoMo answered HTTP 400 INVALID_PAYEE and the transfer\'s status is not available' });
    onStatus = (req) => req.socket.destroy();
    expect(await submitWith(400)).toMatchObject({ kind: 'unknown', reason: 'MTN MoMo answered HTTP 400 and the transfer\'s status is not available' });
    seen = [];
    for (const [status, code] of [[500, 'INTERNAL_PROCESSING_ERROR'], [500, undefined], [503, undefined], [200, undefined], [302, undefined]] as const) {
      expect(await submitWith(status, code ? { code } : undefined)).toEqual({ kind: 'unknown', reason: `MTN MoMo answered the transfer request with HTTP ${status}${code ? ` ${code}` : ''}` });
    }
    expect(seen.filter((s) => s.startsWith('GET '))).toEqual([]);
  });

  it('a transfer request cut off after sending is unknown', async () => {
    onTransfer = (req) => req.socket.destroy();
    expect(await provider().submit(momoPayment('00'))).toEqual({ kind: 'unknown', reason: expect.stringMatching(/^MTN MoMo transfer request interrupted: POST \/disbursement\/v1_0\/transfer: \S+$/) });
  });
});

describe('MTN MoMo status queries that cannot be read', () => {
  it('404 is not_found; an error answer throws with its status and code', async () => {
    const momo = provider();
    expect(await momo.status(momoPayment('00'))).toEqual({ kind: 'not_found' });
    onStatus = (_req, res) => reply(res, 500, { code: 'INTERNAL_PROCESSING_ERROR', message: 'An internal error occurred' });
    await expect(momo.status(momoPayment('00'))).rejects.toThrow(/^MTN MoMo status query answered HTTP 500 INTERNAL_PROCESSING_ERROR$/);
    onStatus = (_req, res) => reply(res, 503, 'down');
    await expect(momo.status(momoPayment('00'))).rejects.toThrow(/^MTN MoMo status query answered HTTP 503$/);
    onStatus = (_req, res) => reply(res, 200, '{"amount":"100"}');
    await expect(momo.status(momoPayment('00'))).rejects.toThrow('MTN MoMo status answer is not JSON with a status');
  });

  it('a record naming another payment as its externalId throws; one naming this payment is read', async () => {
    const payment = momoPayment('00');
    onStatus = (_req, res) => reply(res, 200, { amount: '15000', currency: 'UGX', externalId: 'pay_01JDX0000000000000000000ZZ', status: 'SUCCESSFUL' });
    await expect(provider().reconcile(payment)).rejects.toThrow(`MTN MoMo transfer for ${payment.id} reports externalId of another payment`);
    onStatus = (_req, res) => reply(res, 200, { amount: '15000', currency: 'UGX', externalId: payment.id, status: 'SUCCESSFUL' });
    expect(await provider().reconcile(payment)).toMatchObject({ status: 'SUCCESSFUL', externalId: payment.id });
  });

  it('an unreachable MTN throws with the request and the error code; after abort() nothing is sent', async () => {
    await expect(provider('http://127.0.0.1:1').status(momoPayment('00'))).rejects.toThrow(/^MTN MoMo status query failed: /);
    const momo = provider();
    const payment = momoPayment('00');
    expect(await momo.status(payment)).toEqual({ kind: 'not_found' });
    await clients.at(-1)!.abort();
    await expect(momo.status(payment)).rejects.toThrow('MTN MoMo status query failed: GET /disbursement/v1_0/transfer: the service is stopping');
    expect(await momo.submit(momoPayment('00'))).toMatchObject({
      kind: 'retry', reason: 'MTN MoMo not reached: POST /disbursement/v1_0/transfer: the service is stopping',
    });
  });
});
