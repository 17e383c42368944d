import { randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { captureLog, type CapturedLog } from '../support/captured-log';
import { startFreezableTcpProxy, type FreezableTcpProxy } from '../support/freezable-tcp-proxy';
import { eventually, startTestService, type TestService } from '../support/test-service';

// The machine's Redis, as CI and the README name it (REDIS_URL), else the default local one.
const REDIS_AT = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const REDIS = { host: REDIS_AT.hostname, port: Number(REDIS_AT.port || 6379) };
const hungWarning = (l: Record<string, any>) => l.level === 40 && /Redis does not answer in time/.test(l.msg);
const answersAgain = (l: Record<string, any>) => l.level === 30 && /Redis answers again/.test(l.msg);

/** The commands in a stretch of RESP a client sent (arrays of bulk strings), each as its arguments. */
function commands(resp: string): string[][] {
  const lines = resp.split('\r\n');
  const parsed: string[][] = [];
  for (let i = 0; i < lines.length && lines[i]!.startsWith('*');) {
    const count = Number(lines[i]!.slice(1));
    const args = [];
    for (let a = 0; a < count; a++) args.push(lines[i + 2 + 2 * a]!);
    parsed.push(args);
    i += 1 + 2 * count;
  }
  return parsed;
}

/** Sequential GET /v1/balances; the status and milliseconds of each. */
async function timedCalls(service: TestService, apiKey: string, count: number): Promise<Array<{ status: number; ms: number }>> {
  const results = [];
  for (let i = 0; i < count; i++) {
    const started = Date.now();
    const { status } = await service.call('GET', '/v1/balances', { apiKey });
    results.push({ status, ms: Date.now() - started });
  }
  return results;
}

describe('rate limits when Redis hangs: it accepts and never answers (docs/decisions.md § Rate limits and abuse limits)', () => {
  // A prefix of this run's own, so parallel runs on one Redis never share counts.
  const prefix = `payout-test:${randomUUID()}:`;
  const redis = new Redis(`redis://${REDIS.host}:${REDIS.port}`);
  let proxy: FreezableTcpProxy;
  let log: CapturedLog;
  let service: TestService;
  beforeAll(async () => {
    proxy = await startFreezableTcpProxy(REDIS);
    log = captureLog('info');
    service = await startTestService({
      REDIS_URL: `redis://${proxy.host}:${proxy.port}`, REDIS_KEY_PREFIX: prefix, WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false',
    }, {}, { logger: log.logger });
  });
  afterAll(async () => {
    await service.close();
    proxy.thaw();
    await proxy.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('one timeout per outage, not per request: one warn line, counts in memory meanwhile, Redis again once it answers', async () => {
    const { apiKey } = await service.newTenant();
    const count = async () => {
      const [key] = await redis.keys(`${prefix}rl:*`);
      return key ? Number(await redis.get(key)) : 0;
    };
    expect((await timedCalls(service, apiKey, 1)).map((r) => r.status)).toEqual([200]);
    expect(await count()).toBe(1);

    proxy.freeze();
    const frozen = await timedCalls(service, apiKey, 10);
    expect(frozen.map((r) => r.status)).toEqual(Array(10).fill(200));
    // Only the first request asked Redis (the failed-authentication count, which timed out); the
    // others were counted in memory without asking, so they never waited for it.
    const asked = commands(proxy.held()).filter((args) => args.some((a) => a.startsWith(prefix)));
    // (One read of the failed-authentication count: GET and PTTL in one MULTI; `af:` or `rl:` after the prefix.)
    const named = (args: string[]) => args.find((a) => a.startsWith(prefix))!.slice(prefix.length, prefix.length + 3);
    expect(asked.map((args) => [args[0], named(args)])).toEqual([['get', 'af:'], ['pttl', 'af:']]);
    expect(frozen.slice(1).reduce((sum, r) => sum + r.ms, 0)).toBeLessThan(2500);
    expect(log.lines.filter(hungWarning)).toHaveLength(1);
    expect(log.lines.filter((l) => l.level >= 40 && !hungWarning(l))).toEqual([]);

    proxy.thaw();
    await eventually(async () => (log.lines.some(answersAgain) ? true : undefined), 15_000);
    expect(log.lines.filter(answersAgain)).toHaveLength(1);
    expect((await timedCalls(service, apiKey, 1)).map((r) => r.status)).toEqual([200]);
    // Counted in Redis again: the request before the outage and this one.
    expect(await count()).toBe(2);

    // A second outage is a second episode: one more warn line.
    proxy.freeze();
    expect((await timedCalls(service, apiKey, 3)).map((r) => r.status)).toEqual([200, 200, 200]);
    expect(log.lines.filter(hungWarning)).toHaveLength(2);
    proxy.thaw();
    await eventually(async () => (log.lines.filter(answersAgain).length === 2 ? true : undefined), 15_000);
    expect(log.lines.filter((l) => l.level >= 50)).toEqual([]);
  }, 60_000);
});

describe('rate limits when the Redis address accepts connections and never answers from the start', () => {
  it('requests do not wait for it: one warn line, counted in memory', async () => {
    const silent = net.createServer((socket) => socket.on('error', () => undefined)).listen(0, '127.0.0.1');
    await new Promise((resolve) => silent.once('listening', resolve));
    const { port } = silent.address() as AddressInfo;
    const log = captureLog('info');
    const service = await startTestService({
      REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_PER_MINUTE: '3', WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false',
    }, {}, { logger: log.logger });
    try {
      const { apiKey } = await service.newTenant();
      const calls = await timedCalls(service, apiKey, 4);
      expect(calls.map((r) => r.status)).toEqual([200, 200, 200, 429]);
      expect(calls.reduce((sum, r) => sum + r.ms, 0)).toBeLessThan(2500);
      await eventually(async () => (log.lines.some((l) => l.level === 40 && /Redis/.test(l.msg)) ? true : undefined));
      expect(log.lines.filter((l) => l.level >= 40)).toHaveLength(1);
    } finally {
      await service.close();
      silent.close();
    }
  }, 30_000);
});
