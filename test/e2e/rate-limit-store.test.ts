import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { captureLog } from '../support/captured-log';
import { eventually, startTestService, type TestService } from '../support/test-service';

const REDIS_URL = 'redis://127.0.0.1:6379';
const unknownKey = `sk_sandbox_${'Z'.repeat(40)}`;

describe('rate limits in memory (one process, no REDIS_URL)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ RATE_LIMIT_PER_MINUTE: '2' });
  });
  afterAll(() => service.close());

  it('a tiny limit gives 429 rate_limited, and PostgreSQL keeps no rate_limits table', async () => {
    const { apiKey } = await service.newTenant();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await service.call('GET', '/v1/balances', { apiKey })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const [row] = await service.database.orm.em.getConnection().execute(`select to_regclass('rate_limits') as t`);
    expect(row?.t).toBeNull();
  });
});

describe('rate limits in Redis (REDIS_URL): replicas share one budget', () => {
  // A prefix of this run's own, so parallel runs on one Redis never share counts.
  const prefix = `payout-test:${randomUUID()}:`;
  const redis = new Redis(REDIS_URL);
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix, RATE_LIMIT_PER_MINUTE: '3', AUTH_FAILURES_PER_MINUTE: '4', WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' };
    [a, b] = await Promise.all([startTestService(env), startTestService(env)]);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('counts one budget per key across two service instances, in Redis', async () => {
    const { apiKey } = await a.newTenant();
    expect((await a.call('GET', '/v1/balances', { apiKey })).status).toBe(200);
    expect((await b.call('GET', '/v1/balances', { apiKey })).status).toBe(200);
    const third = await a.call('GET', '/v1/balances', { apiKey });
    expect(third.headers.get('ratelimit')).toMatch(/^limit=3, remaining=0, reset=\d+$/);
    const refused = await b.call('GET', '/v1/balances', { apiKey });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await a.call('GET', '/v1/balances', { apiKey })).status).toBe(429);
    expect((await redis.keys(`${prefix}rl:*`)).length).toBeGreaterThan(0);
  });

  it('a spent budget recovers when its window ends (deleting the count stands in for waiting a minute)', async () => {
    const { apiKey } = await a.newTenant();
    for (let i = 0; i < 3; i++) await b.call('GET', '/v1/balances', { apiKey });
    expect((await a.call('GET', '/v1/balances', { apiKey })).status).toBe(429);
    await redis.del(...(await redis.keys(`${prefix}rl:*`)));
    const recovered = await a.call('GET', '/v1/balances', { apiKey });
    expect(recovered.status).toBe(200);
    expect(recovered.headers.get('ratelimit')).toMatch(/^limit=3, remaining=2, reset=(59|60)$/);
  });

  it('failed authentications of one address are counted across instances too', async () => {
    const statuses = [];
    for (const service of [a, b, a, b, a, b]) statuses.push((await service.call('GET', '/v1/balances', { apiKey: unknownKey })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    expect((await redis.keys(`${prefix}af:*`)).length).toBe(1);
  });
});

describe('rate limits when Redis is down', () => {
  it('fail open to counting in memory, with one warn line', async () => {
    const log = captureLog('info');
    // Port 1 refuses connections: Redis is "down" from the start.
    const service = await startTestService({ REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_PER_MINUTE: '2', WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' }, {}, { logger: log.logger });
    try {
      const { apiKey } = await service.newTenant();
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await service.call('GET', '/v1/balances', { apiKey })).status);
      expect(statuses).toEqual([200, 200, 429]);
      await eventually(async () => (log.lines.some((l) => /Redis unreachable/.test(l.msg)) ? true : undefined));
      const warnings = log.lines.filter((l) => /Redis unreachable/.test(l.msg));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 40 });
      expect(log.lines.filter((l) => l.level >= 50)).toEqual([]);
    } finally {
      await service.close();
    }
  });
});
