import { randomUUID } from 'node:crypto';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { AuthFailures } from '../../src/adapters/access/auth-failures';
import { memoryCounterStore, redisCounterStore, type CounterStore } from '../../src/adapters/access/counter-store';
import { RateLimits } from '../../src/adapters/access/rate-limits';
import { captureLog } from '../support/captured-log';

/**
 * The Redis counter store on the machine's real Redis (docs/decisions.md § Rate limits and abuse
 * limits), reached through a TCP relay of the test's own that can pass traffic, refuse connections
 * (Redis down) or swallow commands (Redis hanging), so an outage is made without touching the
 * shared server. Keys live under a prefix of this run's own.
 */
// The machine's Redis, as CI and the README name it (REDIS_URL), else the default local one.
const REDIS_AT = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const REDIS = { host: REDIS_AT.hostname, port: Number(REDIS_AT.port || 6379) };
const prefix = `payout-test:${randomUUID()}:`;
const redis = new Redis(REDIS.port, REDIS.host);

type Mode = 'pass' | 'refuse' | 'swallow';

/** A TCP relay in front of Redis; `connections` counts the connections it was asked for. */
async function relay() {
  let mode: Mode = 'pass';
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    connections += 1;
    if (mode === 'refuse') return void client.resetAndDestroy();
    sockets.add(client);
    const upstream = connect(REDIS.port, REDIS.host);
    client.on('data', (chunk) => { if (mode === 'pass') upstream.write(chunk); });
    upstream.on('data', (chunk) => { if (mode === 'pass') client.write(chunk); });
    client.on('close', () => { sockets.delete(client); upstream.destroy(); });
    upstream.on('close', () => client.destroy());
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    set(next: Mode) {
      mode = next;
      if (next === 'refuse') for (const socket of sockets) socket.resetAndDestroy();
    },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

/** Resolves once `condition` holds, checking every 20 ms; fails after 10 s. */
async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const stores: CounterStore[] = [];
const relays: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  await Promise.all(relays.splice(0).map((r) => r.close()));
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

function store(url: string, log = captureLog('info')) {
  const created = redisCounterStore(url, prefix, log.logger);
  stores.push(created);
  return { store: created, log };
}
const levels = (log: ReturnType<typeof captureLog>) => log.lines.map((line) => [line.level, line.msg]);
const WARN: [number, string] = [40, 'Redis unreachable: rate limits count in this process only until it answers again'];
const INFO: [number, string] = [30, 'Redis answers again: rate limits are shared by every replica again'];

describe('redisCounterStore', () => {
  it('counts in Redis under its prefix and the counter name, one count shared by every replica, never refusing by itself', async () => {
    const a = store(`redis://${REDIS.host}:${REDIS.port}`);
    const b = store(`redis://${REDIS.host}:${REDIS.port}`);
    await Promise.all([a.store.start(), b.store.start()]);
    expect([a.store.kind, memoryCounterStore().kind]).toEqual(['redis', 'memory']);
    const key = `key_${randomUUID()}`;
    expect((await a.store.counter('rl:', 60).consume(key, 2)).consumedPoints).toBe(2);
    expect((await b.store.counter('rl:', 60).consume(key, 1)).consumedPoints).toBe(3);
    // Another counter name is another count.
    expect((await b.store.counter('af:', 60).consume(key, 1)).consumedPoints).toBe(1);
    expect(await redis.get(`${prefix}rl::${key}`)).toBe('3');
    const ttl = await redis.pttl(`${prefix}rl::${key}`);
    expect(ttl > 58_000 && ttl <= 60_000).toBe(true);
    // Counters never refuse: the caller compares the count with the limit that applies now.
    expect((await a.store.counter('rl:', 60).consume(key, 1_000_000)).consumedPoints).toBe(1_000_003);
    expect([...a.log.lines, ...b.log.lines]).toEqual([]);
  });

  it('Redis down from the start: the start does not fail, counts go on in memory, and one warn line marks it however often it retries', async () => {
    const down = await relay();
    relays.push(down);
    down.set('refuse');
    const { store: s, log } = store(down.url);
    await s.start();
    const counter = s.counter('rl:', 60);
    const key = `key_${randomUUID()}`;
    expect((await counter.consume(key)).consumedPoints).toBe(1);
    expect((await counter.consume(key)).consumedPoints).toBe(2);
    await until(() => down.connections() >= 3, 'three connection attempts');
    expect(levels(log)).toEqual([WARN]);
    expect(typeof log.lines[0]!.err).toBe('string');
    expect(await redis.exists(`${prefix}rl::${key}`)).toBe(0);
  });

  it('an outage and its end: one warn line, memory counts meanwhile, one info line when Redis answers, then Redis counts again', async () => {
    const link = await relay();
    relays.push(link);
    const { store: s, log } = store(link.url);
    await s.start();
    const counter = s.counter('rl:', 60);
    const key = `key_${randomUUID()}`;
    expect((await counter.consume(key)).consumedPoints).toBe(1);

    link.set('refuse');
    await until(() => log.lines.length > 0, 'the warn line');
    const before = link.connections();
    await until(() => link.connections() >= before + 2, 'two more connection attempts');
    expect(levels(log)).toEqual([WARN]);
    expect((await counter.consume(key)).consumedPoints).toBe(1);
    expect(await redis.get(`${prefix}rl::${key}`)).toBe('1');

    link.set('pass');
    await until(() => log.lines.length > 1, 'the info line');
    expect(levels(log)).toEqual([WARN, INFO]);
    expect((await counter.consume(key)).consumedPoints).toBe(2);
    expect(await redis.get(`${prefix}rl::${key}`)).toBe('2');
  });

  it('a second outage is marked again: warn and info once per outage', async () => {
    const link = await relay();
    relays.push(link);
    const { store: s, log } = store(link.url);
    await s.start();
    for (let outage = 1; outage <= 2; outage++) {
      link.set('refuse');
      await until(() => log.lines.length === 2 * outage - 1, `the warn line of outage ${outage}`);
      link.set('pass');
      await until(() => log.lines.length === 2 * outage, `the info line of outage ${outage}`);
      await until(async () => (await s.counter('rl:', 60).consume(`key_${randomUUID()}`)).consumedPoints === 1
        && (await redis.keys(`${prefix}rl::*`)).length > 0, 'a count in Redis');
    }
    expect(levels(log)).toEqual([WARN, INFO, WARN, INFO]);
  });

  it('a Redis that stops answering: each count is answered from memory after the command timeout, nothing waits longer', async () => {
    const link = await relay();
    relays.push(link);
    const { store: s } = store(link.url);
    await s.start();
    const counter = s.counter('rl:', 60);
    const key = `key_${randomUUID()}`;
    expect((await counter.consume(key)).consumedPoints).toBe(1);
    link.set('swallow');
    const started = Date.now();
    expect((await counter.consume(key)).consumedPoints).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await redis.get(`${prefix}rl::${key}`)).toBe('1');
  });

  it('close() disconnects and stays silent', async () => {
    const link = await relay();
    relays.push(link);
    const { store: s, log } = store(link.url);
    await s.start();
    await s.close();
    link.set('refuse');
    const before = link.connections();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(link.connections()).toBe(before);
    expect(log.lines).toEqual([]);
  });
});

describe('RateLimits and AuthFailures on Redis', () => {
  const principal = (keyId: string) => ({ keyId, tenantId: 'ten_1', scope: 'issuer' as const });

  it('keep request counts (rl:) and failed-authentication counts (af:) apart, even for one name', async () => {
    const { store: s } = store(`redis://${REDIS.host}:${REDIS.port}`);
    await s.start();
    const name = `203.0.113.${Math.floor(Math.random() * 250)}-${randomUUID()}`;
    const limits = new RateLimits(s, async () => 5);
    const failures = new AuthFailures(s, 2);
    await failures.record(name);
    await failures.record(name);
    expect(await failures.retryAfterS(name)).toBe(60);
    expect(await limits.consume(principal(name))).toMatchObject({ allowed: true, remaining: 4 });
    expect([await redis.get(`${prefix}af::${name}`), await redis.get(`${prefix}rl::${name}`)]).toEqual(['2', '1']);
  });

  it('with the failure limit off a replica counts nothing and throttles no one, even an address another replica counted', async () => {
    const [a, b] = [store(`redis://${REDIS.host}:${REDIS.port}`), store(`redis://${REDIS.host}:${REDIS.port}`)];
    await Promise.all([a.store.start(), b.store.start()]);
    const address = `198.51.100.${Math.floor(Math.random() * 250)}-${randomUUID()}`;
    const off = new AuthFailures(b.store, 0);
    await off.record(address);
    expect(await redis.exists(`${prefix}af::${address}`)).toBe(0);
    // A replica still configured with a limit of 1 counts a failure: the address has spent its budget there.
    const on = new AuthFailures(a.store, 1);
    await on.record(address);
    expect(await on.retryAfterS(address)).toBe(60);
    expect(await off.retryAfterS(address)).toBeUndefined();
  });
});
