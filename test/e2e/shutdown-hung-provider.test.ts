import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMpesaSimulator, type MpesaSimulator } from '../../simulators/mpesa/mpesa-simulator';
import { certificateFile, mpesaEnv } from '../providers/mpesa-harness';
import { ensureBuilt, exitWithin, freePort, killChildren, listeningPort, spawnService, terminate, type Child } from '../support/child-process';
import { liveTenant, moneyOut } from '../support/live-tenant';
import { settled, sqlOf } from '../support/provider-e2e';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

// Two compiled service processes in turn; a loaded machine needs room.
jest.setTimeout(180_000);

const GRACE_MS = 2000;
const B2C = 'POST /mpesa/b2c/v3/paymentrequest';
const STATUS_QUERY = 'POST /mpesa/transactionstatus/v1/query';

/**
 * An HTTP proxy to `target` that lists each request's method, path and body, so a test can count
 * what reached Daraja about its own payment (files of a jest worker share its database: a service
 * started here also works on payments earlier files left due).
 */
async function countingProxy(target: string): Promise<{ url: string; seen: { call: string; body: string }[]; close(): Promise<void> }> {
  const seen: { call: string; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ call: `${req.method} ${(req.url ?? '').split('?')[0]}`, body: body.toString('utf8') });
      const upstream = request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      // The caller gave up (the service aborted its call): so does the proxy.
      res.on('close', () => upstream.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/**
 * A stop with a payout provider call hanging (docs/decisions.md § Running it; § Payout providers:
 * never pay twice): Daraja holds the B2C answer (the simulator's `hang`, recipient ending 41) and
 * the service's response timeout is a minute, yet SIGTERM ends the process within the grace period.
 * The aborted submission's outcome is unknown, so the payment keeps its submission marker, and the
 * next start settles it by a Transaction Status query, never a second B2C request.
 */
describe('shutdown with an M-Pesa call hanging', () => {
  let sim: MpesaSimulator;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  let service: TestService;
  let env: (callbackBase: string) => Record<string, string>;
  beforeAll(async () => {
    ensureBuilt();
    sim = await startMpesaSimulator({ callbackDelayMs: 30 });
    proxy = await countingProxy(sim.url);
    const cert = certificateFile(sim);
    env = (callbackBase) => mpesaEnv(sim, callbackBase, cert, { MPESA_BASE_URL: proxy.url, MPESA_RESPONSE_TIMEOUT_MS: '60000' });
    // Where the operator's calls go (tenant, key, deposit, money-out); its own workers stay off.
    service = await startTestService({ ...env(`http://127.0.0.1:${await freePort()}/callbacks/mpesa`), WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
  }, 180_000);
  afterEach(() => killChildren());
  afterAll(async () => {
    await service.close();
    await proxy.close();
    await sim.close();
  });

  it('SIGTERM ends the process within SHUTDOWN_GRACE_MS; the next start asks M-Pesa and pays once', async () => {
    const admin = await service.newAdminKey();
    const { apiKey } = await liveTenant(service, admin);
    const id = await moneyOut(service, apiKey, moneyOutBody({ accountNumber: '254712345641' }));
    const childEnv = (callbackBase: string, port: string) => ({
      DATABASE_URL: process.env.TEST_DATABASE_URL!, PORT: port, WEBHOOK_SECRET_KEY: service.config.WEBHOOK_SECRET_KEY!,
      WEBHOOK_WORKER_ENABLED: 'false', WORKER_POLL_INTERVAL_MS: '50', SHUTDOWN_GRACE_MS: String(GRACE_MS), ...env(callbackBase),
    });

    // First run: its result callbacks go nowhere, so only the held B2C answer could tell it anything.
    const first: Child = spawnService(childEnv(`http://127.0.0.1:${await freePort()}/callbacks/mpesa`, '0'));
    await listeningPort(first);
    await eventually(async () => (sim.transfers().some((t) => t.originatorConversationId === id) ? true : undefined), 60_000);
    const signalled = Date.now();
    first.signal('SIGTERM');
    const exit = await exitWithin(first, 20_000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    // The grace period, then the aborted pass's writes, the pools and exit.
    expect(exit!.at - signalled).toBeLessThan(GRACE_MS + 3000);
    expect(first.logs().filter((l) => /grace period over/.test(String(l.msg)))).toMatchObject([{ level: 40 }]);

    // Unknown outcome: still initiated, with the marker naming M-Pesa.
    const [row] = await sqlOf(service)<{ status: string; provider: string; submitted: boolean }>(
      'select status, provider, submitted_at is not null as submitted from payments where id = ?', [id]);
    expect(row).toEqual({ status: 'initiated', provider: 'mpesa', submitted: true });
    const about = (call: string) => proxy.seen.filter((r) => r.call === call && r.body.includes(id));
    expect(about(B2C)).toHaveLength(1);

    // Second run, with its callbacks reachable: a status query, whose result settles the payment.
    const port = await freePort();
    const second = spawnService(childEnv(`http://127.0.0.1:${port}/callbacks/mpesa`, String(port)));
    await listeningPort(second);
    expect(await settled(service, admin, id, 'succeeded', 60_000)).toMatchObject({ provider: 'mpesa' });
    expect((await terminate(second)).code).toBe(0);
    expect(about(B2C)).toHaveLength(1);
    expect(proxy.seen.filter((r) => r.call === STATUS_QUERY).length).toBeGreaterThanOrEqual(1);
    expect(sim.transfers().filter((t) => t.originatorConversationId === id)).toHaveLength(1);
  });
});
