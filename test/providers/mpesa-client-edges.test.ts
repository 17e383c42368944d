import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MpesaClient } from '../../src/adapters/providers/mpesa/mpesa-client';

// The Daraja HTTP client's edges over real local HTTP (https://developer.safaricom.co.ke/apis/Authorization:
// GET /oauth/v1/generate?grant_type=client_credentials with Basic key:secret, answering
// `{access_token, expires_in}`; the gateway's error body `{requestId, errorCode, errorMessage}`).
// A scripted gateway serves what the simulator never does: refused tokens, cut answers, non-JSON.
type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

let server: Server;
let baseUrl: string;
let tokenHandler: Handler;
let postHandler: Handler;
let seen: Array<{ method: string; url: string; authorization?: string; contentType?: string; body: string }> = [];
const clients: MpesaClient[] = [];

const answer = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
let tokens = 0;
const goodToken = (expiresIn: number | string = 3599): Handler => (_req, res) => {
  tokens += 1;
  answer(res, 200, { access_token: `tok-${tokens}`, expires_in: expiresIn });
};
const accepted: Handler = (_req, res) => answer(res, 200, { ConversationID: 'AG_1', ResponseCode: '0' });

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, contentType: req.headers['content-type'], body });
      (req.url?.startsWith('/oauth/') ? tokenHandler : postHandler)(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
beforeEach(() => {
  seen = [];
  tokens = 0;
  tokenHandler = goodToken();
  postHandler = accepted;
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.abort()));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const clientOf = (options: { now?: () => number; url?: string } = {}) => {
  const client = new MpesaClient(
    { baseUrl: options.url ?? baseUrl, consumerKey: 'consumer-key', consumerSecret: 'consumer-secret', connectTimeoutMs: 1_000, responseTimeoutMs: 1_000 },
    options.now ? { now: options.now } : {},
  );
  clients.push(client);
  return client;
};
const posts = () => seen.filter((s) => s.method === 'POST');
const tokenCalls = () => seen.filter((s) => s.url.startsWith('/oauth/'));

describe('Daraja client: access token', () => {
  it('asks with Basic key:secret, then posts JSON with the Bearer token', async () => {
    const client = clientOf();
    expect(await client.post('/mpesa/b2c/v3/paymentrequest', { Amount: 1500 })).toEqual({ kind: 'answered', status: 200, body: { ConversationID: 'AG_1', ResponseCode: '0' } });
    expect(tokenCalls()).toEqual([expect.objectContaining({
      method: 'GET', url: '/oauth/v1/generate?grant_type=client_credentials',
      authorization: `Basic ${Buffer.from('consumer-key:consumer-secret').toString('base64')}`,
    })]);
    expect(posts()).toEqual([{ method: 'POST', url: '/mpesa/b2c/v3/paymentrequest', authorization: 'Bearer tok-1', contentType: 'application/json', body: '{"Amount":1500}' }]);
  });

  it('is fetched again a minute before it expires, or at half its life when that is shorter; concurrent calls share one fetch', async () => {
    let now = 1_000_000;
    const client = clientOf({ now: () => now });
    await Promise.all([client.post('/p', {}), client.post('/p', {}), client.post('/p', {})]);
    expect(tokenCalls()).toHaveLength(1);
    now += 3_539_000 - 1;
    await client.post('/p', {});
    expect(tokenCalls()).toHaveLength(1);
    now += 1;
    await client.post('/p', {});
    expect(tokenCalls()).toHaveLength(2);
    expect(posts().at(-1)!.authorization).toBe('Bearer tok-2');

    tokenHandler = goodToken('100');
    const short = clientOf({ now: () => now });
    const start = now;
    await short.post('/p', {});
    now = start + 50_000 - 1;
    await short.post('/p', {});
    expect(tokenCalls()).toHaveLength(3);
    now = start + 50_000;
    await short.post('/p', {});
    expect(tokenCalls()).toHaveLength(4);
  });

  it('a token the gateway refuses is replaced once; refused again, the request is not sent', async () => {
    const client = clientOf();
    let refusals = 1;
    postHandler = (_req, res) => {
      if (refusals-- > 0) answer(res, 400, { requestId: 'r-1', errorCode: '400.003.01', errorMessage: 'Invalid Access Token' });
      else accepted(_req, res, '');
    };
    expect(await client.post('/p', {})).toMatchObject({ kind: 'answered', status: 200 });
    expect(posts().map((p) => p.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);

    seen = [];
    postHandler = (_req, res) => answer(res, 401, '');
    expect(await client.post('/p', {})).toEqual({ kind: 'not_sent', reason: 'Daraja refused a fresh access token' });
    expect(posts()).toHaveLength(2);

    seen = [];
    postHandler = (_req, res) => answer(res, 404, { requestId: 'r-2', errorCode: '404.001.03', errorMessage: 'Invalid Access Token' });
    expect(await client.post('/p', {})).toEqual({ kind: 'not_sent', reason: 'Daraja refused a fresh access token' });
  });

  it('another gateway error is the answer, sent once', async () => {
    const client = clientOf();
    postHandler = (_req, res) => answer(res, 400, { requestId: 'r-3', errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid Amount' });
    expect(await client.post('/p', {})).toEqual({ kind: 'answered', status: 400, body: { requestId: 'r-3', errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid Amount' } });
    expect(posts()).toHaveLength(1);
  });

  it('no token: the request is not sent, saying why without the credentials', async () => {
    tokenHandler = (_req, res) => answer(res, 400, { requestId: 'r-4', errorCode: '400.008.01', errorMessage: 'Invalid Authentication passed' });
    expect(await clientOf().post('/p', {})).toEqual({ kind: 'not_sent', reason: 'no access token: HTTP 400 400.008.01' });
    tokenHandler = (_req, res) => answer(res, 503, '<html>maintenance</html>');
    expect(await clientOf().post('/p', {})).toEqual({ kind: 'not_sent', reason: 'no access token: HTTP 503' });
    tokenHandler = (_req, res) => answer(res, 200, { access_token: 'tok', expires_in: 'soon' });
    expect(await clientOf().post('/p', {})).toEqual({ kind: 'not_sent', reason: 'no access token: HTTP 200' });
    expect(await clientOf({ url: 'http://127.0.0.1:1' }).post('/p', {})).toEqual({ kind: 'not_sent', reason: 'no access token: connection failed (ECONNREFUSED)' });
    expect(posts()).toHaveLength(0);
  });
});

describe('Daraja client: answers', () => {
  it('an answer that is not JSON is answered with no body', async () => {
    postHandler = (_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>');
    expect(await clientOf().post('/p', {})).toEqual({ kind: 'answered', status: 502, body: undefined });
  });

  it('an answer cut off after its headers is lost: Daraja may have taken the request', async () => {
    postHandler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"ConversationID":');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    expect(await clientOf().post('/p', {})).toEqual({ kind: 'lost', reason: expect.stringMatching(/^answer cut off \(\S+\)$/) });
  });

  it('a connection reset after sending is lost, naming the error code', async () => {
    postHandler = (req) => req.socket.destroy();
    expect(await clientOf().post('/p', {})).toEqual({ kind: 'lost', reason: expect.stringMatching(/^no answer after sending \((UND_ERR_SOCKET|ECONNRESET)\)$/) });
  });

  it('after abort() nothing more is sent; close() after abort() is harmless', async () => {
    const client = clientOf();
    await client.post('/p', {});
    await client.abort();
    expect(await client.post('/p', {})).toEqual({ kind: 'not_sent', reason: 'the service is stopping' });
    await client.close();
    expect(posts()).toHaveLength(1);
  });
});
