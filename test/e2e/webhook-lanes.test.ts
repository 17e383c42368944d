import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

/**
 * A TCP port that never accepts connections: a child process listens with a backlog of 1 and then
 * blocks its event loop, and fillers use up the kernel's accept queue, so a further connect is
 * never answered (the SYN is dropped) and only a connect timeout ends it.
 */
async function unansweredPort(): Promise<{ port: number; close(): void }> {
  const child: ChildProcess = spawn(process.execPath, ['-e', `
    const server = require('node:net').createServer();
    server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
      process.stdout.write(server.address().port + '\\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    });`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => child.stdout!.once('data', (d) => resolve(Number(String(d).trim()))));
  const fillers: Socket[] = [];
  // Connect until one connect stays unanswered: the accept queue is full from then on.
  for (let i = 0; i < 10; i++) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    fillers.push(socket);
    const answered = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 500);
      socket.once('connect', () => { clearTimeout(timer); resolve(true); });
    });
    if (!answered) break;
  }
  return { port, close: () => { for (const s of fillers) s.destroy(); child.kill('SIGKILL'); } };
}

describe('one hanging endpoint holds only its own lane', () => {
  // The real 15 s response timeout; a short connect timeout; retries far away so each hang stays one attempt.
  // A cap of 4 per endpoint, so 6 due events per hanging endpoint show the cap holding.
  const ENV = { WEBHOOK_RETRY_SCHEDULE_MS: '0,60000', WEBHOOK_CONNECT_TIMEOUT_MS: '300', WEBHOOK_ENDPOINT_CONCURRENCY: '4' };
  let service: TestService;
  const receivers: Receiver[] = [];
  const cleanups: (() => void)[] = [];

  beforeEach(async () => {
    service = await startTestService(ENV);
  });
  afterEach(async () => {
    // Receivers first: hanging sends end at once instead of holding the service's stop.
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    for (const cleanup of cleanups.splice(0)) cleanup();
    await service.close();
  });

  const tenantWithHook = async (reply?: Parameters<typeof startReceiver>[0]) => {
    const tenant = await service.newTenant();
    const hook = await startReceiver(reply);
    receivers.push(hook);
    const res = await service.call('POST', '/v1/webhooks/register', { apiKey: tenant.apiKey, body: { url: hook.url } });
    expect(res.status).toBe(201);
    return { ...tenant, hook };
  };
  const pay = async (apiKey: string) => {
    const res = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  it("keeps another tenant's transition-to-receipt p99 far under the 15 s hang while 3 endpoints hang, each held to its cap", async () => {
    const hanging = await Promise.all([1, 2, 3].map(() => tenantWithHook(() => 'hang')));
    // 6 payments each: 6 processing events due at once, more than the cap of 4.
    for (const tenant of hanging) for (let i = 0; i < 6; i++) await pay(tenant.apiKey);
    await eventually(async () => (hanging.some((t) => t.hook.received.length > 0) ? true : undefined));

    const healthy = await tenantWithHook();
    const payments: string[] = [];
    for (let i = 0; i < 15; i++) payments.push(await pay(healthy.apiKey));
    await eventually(async () => (healthy.hook.received.length >= payments.length * 2 ? true : undefined), 25_000);

    const latencies = healthy.hook.received.map((r) => r.at - Date.parse(JSON.parse(r.body).timestamp)).sort((a, b) => a - b);
    const p99 = latencies[Math.min(latencies.length - 1, Math.floor(0.99 * latencies.length))]!;
    // Behind a hanging send an event would wait out the 15 s response timeout; alone on an idle
    // machine p99 is well under 1 s, and 5 s leaves room for test workers sharing the cores.
    expect(p99).toBeLessThan(5000);
    // WEBHOOK_ENDPOINT_CONCURRENCY (4 here): the other two processing events of each hanging
    // endpoint wait for a free slot instead of opening more hanging connections.
    await eventually(async () => (hanging.every((t) => t.hook.received.length >= 4) ? true : undefined));
    expect(hanging.map((t) => t.hook.received.length)).toEqual([4, 4, 4]);
  }, 45_000);

  it('gives up on an endpoint that never accepts the connection after the connect timeout, not the 15 s response timeout', async () => {
    const stuck = await unansweredPort();
    cleanups.push(stuck.close);
    const { apiKey } = await service.newTenant();
    const res = await service.call('POST', '/v1/webhooks/register', {
      apiKey, body: { url: `http://127.0.0.1:${stuck.port}/hooks`, events: ['payment.processing'] },
    });
    expect(res.status).toBe(201);
    const paymentId = await pay(apiKey);
    const entry = await eventually(async () => {
      const log = await service.call('GET', `/v1/webhooks/events?entityId=${paymentId}`, { apiKey });
      return log.body[0]?.lastError ? log.body[0] : undefined;
    }, 20_000);
    expect(entry).toMatchObject({ status: 'pending', attempt: 1, lastError: 'connect timeout after 300 ms' });
    expect(Date.parse(entry.updatedAt) - Date.parse(entry.createdAt)).toBeLessThan(2000);
  });

  it('stop() waits for a send in flight and records its outcome before it returns', async () => {
    const requests: (() => void)[] = [];
    const slow = createServer((req, res) => {
      req.resume();
      req.on('end', () => requests.push(() => res.writeHead(204).end()));
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => slow.close());
    const { apiKey } = await service.newTenant();
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hooks`;
    await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url, events: ['payment.processing'] } });
    const paymentId = await pay(apiKey);
    await eventually(async () => (requests.length > 0 ? true : undefined));
    const stopped = service.container.webhookWorker.stop();
    setTimeout(() => requests[0]!(), 300);
    await stopped;
    const log = await service.call('GET', `/v1/webhooks/events?entityId=${paymentId}`, { apiKey });
    expect(log.body[0]).toMatchObject({ status: 'delivered', attempt: 1 });
  });
});
