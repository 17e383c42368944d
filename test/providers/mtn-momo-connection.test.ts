import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { MtnMomoClient } from '../../src/adapters/providers/mtn-momo/mtn-momo-client';
import { parseMtnMomoConfig, type MtnMomoConfig } from '../../src/adapters/providers/mtn-momo/mtn-momo-config';
import { MtnMomoPayoutProvider } from '../../src/adapters/providers/mtn-momo/mtn-momo-payout-provider';
import { transferReferenceOf } from '../../src/adapters/providers/mtn-momo/mtn-momo-wire';
import { CALLBACK_SECRET, momoPayment, TestClock } from './support/mtn-momo-harness';

// The MTN MoMo client's connection handling and token sharing, and status answers the simulator
// never gives, against a scripted gateway of its own per test over real local HTTP: the token
// endpoint (POST /disbursement/token/), the transfer (POST /disbursement/v1_0/transfer) and its
// status query (GET /disbursement/v1_0/transfer/{referenceId}).
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Gateway {
  url: string;
  server: Server;
  /** Sockets the gateway holds open. */
  sockets: Set<Socket>;
  /** `METHOD path bearer-token` of every request, in arrival order. */
  seen: string[];
  issued: number;
  onToken: Handler;
  onTransfer: Handler;
  onStatus: Handler;
}

const reply = (res: ServerResponse, status: number, body?: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? '' : JSON.stringify(body));
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startGateway(): Promise<Gateway> {
  const g = { seen: [], issued: 0, sockets: new Set<Socket>() } as unknown as Gateway;
  g.onToken = (_req, res) => {
    g.issued += 1;
    reply(res, 200, { access_token: `tok-${g.issued}`, token_type: 'access_token', expires_in: 3600 });
  };
  g.onTransfer = (_req, res) => reply(res, 202);
  g.onStatus = (_req, res) => reply(res, 404, { code: 'RESOURCE_NOT_FOUND', message: 'Requested resource was not found.' });
  g.server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      g.seen.push(`${req.method} ${req.url} ${(req.headers.authorization ?? '').replace(/^Bearer /, '')}`);
      if (req.url === '/disbursement/token/') return g.onToken(req, res);
      return req.method === 'POST' ? g.onTransfer(req, res) : g.onStatus(req, res);
    });
  });
  g.server.on('connection', (socket: Socket) => {
    g.sockets.add(socket);
    socket.on('close', () => g.sockets.delete(socket));
  });
  await new Promise<void>((resolve) => g.server.listen(0, '127.0.0.1', resolve));
  g.url = `http://127.0.0.1:${(g.server.address() as AddressInfo).port}`;
  cleanups.push(() => closeServer(g.server));
  return g;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** The adapter on `baseUrl`, with its client (closed or aborted after the test). */
function momo(baseUrl: string, env: Record<string, string> = {}): { provider: MtnMomoPayoutProvider; client: MtnMomoClient } {
  const config = parseMtnMomoConfig({
    MTN_MOMO_BASE_URL: baseUrl, MTN_MOMO_SUBSCRIPTION_KEY: 'sub-key', MTN_MOMO_API_USER: '3f9a8b2c-1d4e-4f5a-9b6c-7d8e9f0a1b2c',
    MTN_MOMO_API_KEY: 'api-key', MTN_MOMO_TARGET_ENVIRONMENT: 'mtnuganda', MTN_MOMO_CALLBACK_BASE_URL: 'https://pay.example.com/cb/mtn_momo',
    MTN_MOMO_CALLBACK_SECRET: CALLBACK_SECRET, MTN_MOMO_CALLBACK_ALLOWED_IPS: '127.0.0.1', MTN_MOMO_CONNECT_TIMEOUT_MS: '200',
    MTN_MOMO_RESPONSE_TIMEOUT_MS: '300', MTN_MOMO_POLL_INTERVAL_MS: '1000', ...env,
  }) as MtnMomoConfig;
  const client = new MtnMomoClient(config, new TestClock(1_000_000));
  cleanups.push(() => client.abort());
  return { provider: new MtnMomoPayoutProvider(config, client), client };
}

/** Resolves once `check()` holds, polled every 10 ms; rejects after `timeoutMs`. */
async function eventually(check: () => boolean, timeoutMs: number): Promise<void> {
  for (const start = Date.now(); !check(); await new Promise((resolve) => setTimeout(resolve, 10))) {
    if (Date.now() - start > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
  }
}
/** Per test: a few of undici's one-second timer steps, well under the defaults a lost setting would fall back to. */
const TEST_MS = 8_000;

describe('MTN MoMo connection limits', () => {
  it('a connection that never completes (a TLS handshake nobody answers) gives up after the connect timeout: nothing was sent', async () => {
    const accepted = new Set<Socket>();
    const silent = createTcpServer((socket) => accepted.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      for (const socket of accepted) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });
    const { provider } = momo(`https://127.0.0.1:${(silent.address() as AddressInfo).port}`);
    const start = Date.now();
    expect(await provider.submit(momoPayment('00'))).toEqual({
      kind: 'retry', afterMs: 10_000, reason: 'MTN MoMo not reached: no access token: token request failed (POST /disbursement/token/: UND_ERR_CONNECT_TIMEOUT)',
    });
    // MTN_MOMO_CONNECT_TIMEOUT_MS is 200 (undici counts in steps of about a second); its own default would be 10 s.
    expect(Date.now() - start).toBeLessThan(3_000);
  }, TEST_MS);

  it('a transfer answered with no headers, or a body that stops, is unknown after the response timeout', async () => {
    const g = await startGateway();
    const { provider } = momo(g.url);
    g.onTransfer = () => undefined;
    let start = Date.now();
    expect(await provider.submit(momoPayment('00'))).toEqual({
      kind: 'unknown', reason: 'MTN MoMo transfer request interrupted: POST /disbursement/v1_0/transfer: UND_ERR_HEADERS_TIMEOUT',
    });
    expect(Date.now() - start).toBeLessThan(3_000);
    start = Date.now();
    g.onTransfer = (_req, res) => res.writeHead(202, { 'content-length': '10' }).write('{');
    expect(await provider.submit(momoPayment('00'))).toEqual({
      kind: 'unknown', reason: 'MTN MoMo transfer request interrupted: POST /disbursement/v1_0/transfer: UND_ERR_BODY_TIMEOUT',
    });
    // MTN_MOMO_RESPONSE_TIMEOUT_MS is 300 (undici counts in steps of about a second); its own default would be 300 s.
    expect(Date.now() - start).toBeLessThan(3_000);
  }, TEST_MS);

  it('a transfer whose connection is refused, with a token in hand, is retry: it never left', async () => {
    const g = await startGateway();
    const { provider } = momo(g.url);
    // No connection is kept for later: the next request must open one.
    g.server.on('request', (_req, res: ServerResponse) => res.setHeader('connection', 'close'));
    expect(await provider.submit(momoPayment('00'))).toMatchObject({ kind: 'accepted' });
    await closeServer(g.server);
    expect(await provider.submit(momoPayment('00'))).toEqual({
      kind: 'retry', afterMs: 10_000, reason: 'MTN MoMo not reached: POST /disbursement/v1_0/transfer: ECONNREFUSED',
    });
    expect(g.issued).toBe(1);
  }, TEST_MS);

  it('a status query cut off names the operation, not the transfer\'s reference', async () => {
    const g = await startGateway();
    const { provider } = momo(g.url);
    g.onStatus = (req) => req.socket.destroy();
    const payment = momoPayment('00');
    const failure = provider.status(payment);
    await expect(failure).rejects.toThrow(/^MTN MoMo status query failed: GET \/disbursement\/v1_0\/transfer: [A-Z_]+$/);
    await expect(failure).rejects.not.toThrow(transferReferenceOf(payment.id));
  }, TEST_MS);

  it('close() releases the kept-alive connections to MTN', async () => {
    const g = await startGateway();
    const { provider, client } = momo(g.url);
    expect(await provider.submit(momoPayment('00'))).toMatchObject({ kind: 'accepted' });
    expect(g.sockets.size).toBeGreaterThan(0);
    await client.close();
    await eventually(() => g.sockets.size === 0, 1_000);
  }, TEST_MS);
});

describe('MTN MoMo token shared by concurrent calls', () => {
  /** Two transfers at once, both sent with tok-1, which the gateway refuses (401) as `refuse` decides. */
  async function twoRefusedAtOnce(g: Gateway, refuse: (res: ServerResponse, nth: number) => void) {
    let refused = 0;
    g.onTransfer = (req, res) => {
      if (req.headers.authorization === 'Bearer tok-1') return refuse(res, (refused += 1));
      reply(res, 202);
    };
    const { provider } = momo(g.url);
    const outcomes = await Promise.all([provider.submit(momoPayment('00')), provider.submit(momoPayment('00'))]);
    expect(outcomes).toEqual([expect.objectContaining({ kind: 'accepted' }), expect.objectContaining({ kind: 'accepted' })]);
    const transfers = g.seen.filter((s) => s.startsWith('POST /disbursement/v1_0/transfer')).map((s) => s.split(' ').pop());
    expect(transfers.sort()).toEqual(['tok-1', 'tok-1', 'tok-2', 'tok-2']);
    expect(g.issued).toBe(2);
  }

  it('a 401 for the old token while the new one is being fetched waits for that new one', async () => {
    const g = await startGateway();
    const pending: (() => void)[] = [];
    let refusalsSent = 0;
    const issue = g.onToken;
    // The second token is issued only once both refusals are out and read: the second is read mid-refresh.
    g.onToken = (req, res) => (g.issued === 0 ? issue(req, res) : pending.push(() => issue(req, res)));
    const release = () => setTimeout(() => pending.splice(0).forEach((send) => send()), 50);
    await twoRefusedAtOnce(g, (res) => {
      reply(res, 401, { code: 'INVALID_TOKEN' });
      if ((refusalsSent += 1) === 2) void eventually(() => pending.length > 0, 1_000).then(release, () => undefined);
    });
  }, TEST_MS);

  it('a 401 for the old token after the new one arrived keeps the new one: no third token', async () => {
    const g = await startGateway();
    let held: ServerResponse | undefined;
    const transfer = g.onTransfer;
    await twoRefusedAtOnce(g, (res, nth) => {
      if (nth === 1) return reply(res, 401, { code: 'INVALID_TOKEN' });
      held = res;
      // The second refusal goes out once the first call has come back with tok-2 (now the cached token).
      g.onTransfer = (req, res2) => {
        transfer(req, res2);
        if (req.headers.authorization === 'Bearer tok-2' && held) {
          reply(held, 401, { code: 'INVALID_TOKEN' });
          held = undefined;
        }
      };
    });
  }, TEST_MS);
});

describe('MTN MoMo answers read strictly', () => {
  it('a 5xx other than 500 is unknown without a look-up, even when its code names our configuration', async () => {
    const g = await startGateway();
    const { provider } = momo(g.url);
    for (const [status, code] of [[503, 'NOT_ALLOWED_TARGET_ENVIRONMENT'], [502, 'INVALID_CALLBACK_URL_HOST']] as const) {
      g.onTransfer = (_req, res) => reply(res, status, { code });
      expect(await provider.submit(momoPayment('00'))).toEqual({ kind: 'unknown', reason: `MTN MoMo answered the transfer request with HTTP ${status} ${code}` });
    }
    expect(g.seen.filter((s) => s.startsWith('GET '))).toEqual([]);
  }, TEST_MS);

  it('a status answer without an externalId is read as this payment\'s transfer', async () => {
    const g = await startGateway();
    const { provider } = momo(g.url);
    g.onStatus = (_req, res) => reply(res, 200, { amount: '15000', currency: 'UGX', financialTransactionId: '363440463', status: 'SUCCESSFUL' });
    const payment = momoPayment('00');
    expect(await provider.status(payment)).toEqual({ kind: 'succeeded', providerRef: transferReferenceOf(payment.id) });
    expect(await provider.reconcile(payment)).toEqual({ amount: '15000', currency: 'UGX', financialTransactionId: '363440463', status: 'SUCCESSFUL' });
  }, TEST_MS);
});
