import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MpesaClient } from '../../src/adapters/providers/mpesa/mpesa-client';
import { MpesaConfigError, parseMpesaConfig, type MpesaConfig } from '../../src/adapters/providers/mpesa/mpesa-config';
import { MpesaPayoutProvider } from '../../src/adapters/providers/mpesa/mpesa-payout-provider';
import { payoutRequestOf } from '../../src/adapters/providers/mpesa/mpesa-requests';
import { keKesPayment } from './mpesa-harness';

// What a scripted Daraja gateway answers that the simulator never does on demand, over real local
// HTTP (https://developer.safaricom.co.ke/apis/Authorization for the token; the B2C page for the
// acknowledgement): a token answered with an error status, a token refused twice by calls in
// flight, a hung answer, the gateway gone between the token and the request, an acknowledgement
// under an error status, and the client after close().
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let tokenHandler: Handler;
let postHandler: Handler;
let seen: { method: string; url: string; authorization?: string }[];
let tokens: number;
const clients: MpesaClient[] = [];

const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const goodToken: Handler = (_req, res) => {
  tokens += 1;
  json(res, 200, { access_token: `tok-${tokens}`, expires_in: 3599 });
};

beforeEach(async () => {
  seen = [];
  tokens = 0;
  tokenHandler = goodToken;
  postHandler = (_req, res) => json(res, 200, { ConversationID: 'AG_1', ResponseCode: '0' });
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
      (req.url?.startsWith('/oauth/') ? tokenHandler : postHandler)(req, res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.abort()));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const clientOf = (responseTimeoutMs = 1_000) => {
  const client = new MpesaClient({ baseUrl, consumerKey: 'consumer-key', consumerSecret: 'consumer-secret', connectTimeoutMs: 1_000, responseTimeoutMs });
  clients.push(client);
  return client;
};
const posts = () => seen.filter((s) => !s.url.startsWith('/oauth/'));

describe('Daraja client: token and transport', () => {
  it('the token is asked for with GET', async () => {
    await clientOf().post('/p', {});
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /oauth/v1/generate?grant_type=client_credentials', 'POST /p']);
  });

  it('a token body under an error status is no token: the request is not sent', async () => {
    tokenHandler = (_req, res) => json(res, 503, { access_token: 'tok-x', expires_in: 3599 });
    expect(await clientOf().post('/p', {})).toEqual({ kind: 'not_sent', reason: 'no access token: HTTP 503' });
    expect(posts()).toEqual([]);
  });

  it('a call refused for a token already replaced by another call uses the new one: no third token', async () => {
    const client = clientOf();
    await client.post('/warm', {});
    let refusals = 0;
    postHandler = (req, res) => {
      if (req.url === '/warm' || req.headers.authorization !== 'Bearer tok-1') return json(res, 200, { ResponseCode: '0' });
      refusals += 1;
      // The second refusal arrives after the first call has fetched and used a new token.
      setTimeout(() => json(res, 401, { errorCode: '401.002.01', errorMessage: 'Invalid Access Token' }), refusals === 1 ? 0 : 300);
    };
    const [a, b] = await Promise.all([client.post('/a', {}), client.post('/b', {})]);
    expect([a, b]).toEqual([{ kind: 'answered', status: 200, body: { ResponseCode: '0' } }, { kind: 'answered', status: 200, body: { ResponseCode: '0' } }]);
    expect(tokens).toBe(2);
    expect(posts().map((p) => `${p.url} ${p.authorization}`).sort()).toEqual(['/a Bearer tok-1', '/a Bearer tok-2', '/b Bearer tok-1', '/b Bearer tok-2', '/warm Bearer tok-1']);
  });

  it('no answer within MPESA_RESPONSE_TIMEOUT_MS is lost, naming undici\'s header timeout', async () => {
    postHandler = () => undefined;
    expect(await clientOf(200).post('/p', {})).toEqual({ kind: 'lost', reason: 'no answer after sending (UND_ERR_HEADERS_TIMEOUT)' });
  });

  it('an answer cut off names the error code', async () => {
    postHandler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"ConversationID":');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    expect(await clientOf().post('/p', {})).toEqual({ kind: 'lost', reason: expect.stringMatching(/^answer cut off \(UND_ERR_\w+\)$/) });
  });

  it('the gateway gone after the token: the request is not sent (connection refused)', async () => {
    const client = clientOf();
    // Each answer closes its connection, so the next request needs a new one.
    tokenHandler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end('{"access_token":"tok-1","expires_in":3599}');
    postHandler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end('{"ResponseCode":"0"}');
    await client.post('/warm', {});
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    expect(await client.post('/p', {})).toEqual({ kind: 'not_sent', reason: 'connection failed (ECONNREFUSED)' });
    server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });

  it('after close() nothing more is sent', async () => {
    const client = clientOf();
    await client.post('/p', {});
    await client.close();
    expect((await client.post('/p', {})).kind).not.toBe('answered');
    expect(posts()).toHaveLength(1);
  });
});

describe('M-Pesa provider: answers and requests', () => {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = () => {
    const config = {
      baseUrl, consumerKey: 'k', consumerSecret: 's', shortcode: '600980', b2bShortcode: '600000', initiatorName: 'testapi',
      initiatorPassword: 'pw', certificate: Buffer.from(publicKey.export({ type: 'spki', format: 'pem' })), b2cCommandId: 'BusinessPayment',
      callbackBaseUrl: 'https://pay.example.com/cb/mpesa', callbackPathSecret: 'cb_0123456789abcdefghijklmnopqrstuvwxyz',
      connectTimeoutMs: 1_000, responseTimeoutMs: 1_000, resultWaitMs: 45_000,
    } satisfies MpesaConfig;
    const client = new MpesaClient(config);
    clients.push(client);
    return new MpesaPayoutProvider(config, client);
  };

  it('is named mpesa (the name routing and the payment record carry)', () => {
    expect(provider().name).toBe('mpesa');
  });

  it('an acknowledgement body under an error status is not acceptance: unknown', async () => {
    const payment = keKesPayment();
    postHandler = (_req, res) => json(res, 500, { OriginatorConversationID: payment.id, ConversationID: 'AG_1', ResponseCode: '0' });
    expect(await provider().submit(payment)).toEqual({ kind: 'unknown', reason: 'Daraja HTTP 500' });
  });

  it('only a leading + is dropped from an M-Pesa number: one inside it is refused', () => {
    const settings = { shortcode: '600980', b2bShortcode: '600000', initiatorName: 'i', b2cCommandId: 'BusinessPayment' as const, callbackBaseUrl: 'https://x.example', callbackPathSecret: 's', securityCredential: 'c' };
    expect(payoutRequestOf(keKesPayment({ accountNumber: '+254712345678' }), settings)).toMatchObject({ ok: true, body: { PartyB: '254712345678' } });
    expect(payoutRequestOf(keKesPayment({ accountNumber: '25471234+5678' }), settings))
      .toEqual({ ok: false, reason: 'accountNumber is not a Kenyan M-Pesa number (254 and 9 digits)' });
  });

  it('a base URL must start with http(s)://, not merely contain it', () => {
    const env = {
      MPESA_BASE_URL: 'ftp://files.example/http://sandbox.safaricom.co.ke', MPESA_CONSUMER_KEY: 'ck', MPESA_CONSUMER_SECRET: 'cs', MPESA_SHORTCODE: '600980',
      MPESA_INITIATOR_NAME: 'testapi', MPESA_INITIATOR_PASSWORD: 'pw', MPESA_CERTIFICATE_PATH: '/certs/mpesa.cer',
      MPESA_CALLBACK_BASE_URL: 'https://pay.example.com/cb/mpesa', MPESA_CALLBACK_PATH_SECRET: 'cb_0123456789abcdefghijklmnopqrstuvwxyz',
    };
    expect(() => parseMpesaConfig(env, () => Buffer.from('cert'))).toThrow(new MpesaConfigError('Invalid M-Pesa configuration: MPESA_BASE_URL must be an http(s) URL'));
  });
});
