/**
 * BSC deposits credited exactly once whatever happens to the watcher or its RPC endpoints
 * (docs/decisions.md § Onchain deposits: watchers, docs/chains.md § BSC reader): a watcher process
 * killed with SIGKILL mid-scan, two replicas on one database behind an RPC that answers every log
 * twice, and one endpoint down while the other refuses wide ranges. Real anvil, real service
 * (in this process and as a child process), PostgreSQL; a small JSON-RPC proxy plays the provider.
 */
import type { Address } from 'viem';
import { freePort } from '../support/chains/anvil';
import {
  available, bscAddressOf, depositLedger, depositsOf, forgetBscCursor, ONE, sql, startBscServiceFixture, type BscServiceFixture,
} from '../support/chains/bsc-service-fixture';
import { duplicateLogs, logRangeSize, refuseLogRangesOver, startRpcProxy, type RpcProxy } from '../support/chains/rpc-proxy';
import { killChildren, listeningPort, spawnChild } from '../support/child-process';
import { eventually, startTestService, type TestService } from '../support/test-service';

jest.setTimeout(120_000);

let f: BscServiceFixture;
/** Reads and hands out addresses; its watcher is built but started only when a test says so. */
let service: TestService;
const closing: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  f = await startBscServiceFixture();
  service = await startTestService(f.env(undefined, { CHAIN_WATCHER_ENABLED: 'false' }));
  await forgetBscCursor(service);
}, 60_000);
afterEach(async () => {
  await killChildren();
  for (const close of closing.splice(0).reverse()) await close();
});
afterAll(async () => {
  await service?.close();
  await f?.stop();
});

interface Funded {
  tenantId: string;
  apiKey: string;
  to: Address;
  /** What the tenant must end with, in USDT. */
  expected: bigint;
}

/** `count` sandbox tenants with no funding and their BSC addresses. */
async function tenants(count: number): Promise<Funded[]> {
  return Promise.all(Array.from({ length: count }, async () => {
    const t = await service.newTenant('0');
    return { ...t, to: await bscAddressOf(service, t.apiKey), expected: 0n };
  }));
}

/** `rounds` transfers spread over the tenants, `gap` empty blocks after each; then two blocks so all are final. */
async function pay(to: Funded[], rounds: number, gap: number): Promise<number> {
  for (let i = 0; i < rounds; i++) {
    const t = to[i % to.length]!;
    const units = BigInt(i + 1) * ONE + BigInt(i) * 10n ** 12n;
    await f.bsc.transfer(f.usdt, f.senderIndex, t.to, units);
    t.expected += units;
    if (gap > 0) await f.bsc.mine(gap);
  }
  await f.bsc.mine(2);
  return rounds;
}

const sixPlaces = (units: bigint) => {
  const micros = units / 10n ** 12n;
  return `${micros / 1_000_000n}.${(micros % 1_000_000n).toString().padStart(6, '0')}`;
};

/** Credited deposits of these tenants, counted in PostgreSQL. */
async function creditedCount(of: Funded[]): Promise<number> {
  const [row] = await sql<{ n: number }>(service, `select count(*)::int as n from deposits where status = 'credited' and tenant_id in (${of.map(() => '?').join(',')})`,
    of.map((t) => t.tenantId));
  return row!.n;
}

/** Every tenant got exactly its transfers: one deposit, one ledger transaction, one detected and one credited event each. */
async function expectCreditedOnce(of: Funded[], transfers: number): Promise<void> {
  let deposits = 0;
  for (const t of of) {
    const seen = await depositsOf(service, t.apiKey);
    deposits += seen.length;
    expect(seen.every((d) => d.status === 'credited')).toBe(true);
    expect(new Set(seen.map((d) => `${d.txHash}#${d.index}`)).size).toBe(seen.length);
    expect(await depositLedger(service, t.tenantId)).toHaveLength(seen.length);
    expect(await available(service, t.apiKey, 'USDT')).toBe(sixPlaces(t.expected));
    const events = await sql<{ entity_id: string; types: string[] }>(service,
      'select entity_id, array_agg(type order by created_at) as types from outbox_events where tenant_id = ? group by entity_id', [t.tenantId]);
    expect(events.map((e) => e.types)).toEqual(seen.map(() => ['deposit.detected', 'deposit.credited']));
  }
  expect(deposits).toBe(transfers);
}

async function proxy(behaviour: Parameters<typeof startRpcProxy>[1]): Promise<RpcProxy> {
  const started = await startRpcProxy(f.bsc.url, behaviour);
  closing.push(() => started.close());
  return started;
}

async function replica(env: Record<string, string>): Promise<TestService> {
  const started = await startTestService(env);
  closing.push(() => started.close());
  return started;
}

describe('BSC deposits credited exactly once', () => {
  it('a watcher process killed with SIGKILL mid-scan: another replica resumes from the stored cursor and credits the rest, each once', async () => {
    const to = await tenants(8);
    const transfers = await pay(to, 24, 12);
    // One block per eth_getLogs: the catch-up takes several passes, so the kill lands between them or inside one.
    // The service as its own process (ts-node, as `npm start` runs it), on this file's database.
    const child = spawnChild(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/app/main.ts'], {
      ...f.env(undefined, { BSC_SCAN_RANGE: '1' }), NODE_ENV: 'test', DATABASE_URL: process.env.TEST_DATABASE_URL!, PORT: '0', HOST: '127.0.0.1',
      LOG_FORMAT: 'json', LOG_LEVEL: 'info', WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false', WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
    });
    await listeningPort(child, 90_000);
    await eventually(async () => ((await creditedCount(to)) > 0 ? true : undefined), 60_000);
    child.signal('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');
    const atKill = await creditedCount(to);
    expect(atKill).toBeLessThan(transfers);
    // Killed inside the catch-up: the stored cursor is short of the head.
    const [position] = await sql<{ scanned_to: string }>(service, "select scanned_to::text from chain_watchers where blockchain = 'BSC'");
    expect(BigInt(position!.scanned_to)).toBeLessThan((await f.bsc.heights()).head);

    // The killed watcher's lease runs out (1 s); this replica's watcher takes it over.
    const watcher = service.container.chainWatchers[0]!;
    watcher.start();
    closing.push(() => watcher.stop());
    await eventually(async () => ((await creditedCount(to)) === transfers ? true : undefined), 60_000);
    await expectCreditedOnce(to, transfers);
  });

  it('two replicas on one database, one behind an RPC that answers every log twice: one watches at a time, each deposit credited once, and the other takes over', async () => {
    const doubled = await proxy({ rewrite: duplicateLogs });
    const first = await replica(f.env([doubled.url]));
    const second = await replica(f.env([doubled.url, f.bsc.url]));
    const to = await tenants(4);
    let transfers = await pay(to, 8, 1);
    await eventually(async () => ((await creditedCount(to)) === transfers ? true : undefined), 30_000);
    const holding = () => [first, second].filter((s) => s.container.chainWatchers[0]!.isHolding);
    // Each replica's flag is its own last reading of the lease: under load one may still believe it holds
    // a lease that has passed to the other (the lease, not the flag, keeps them from scanning together, and
    // the deposits below are credited once). Wait until they agree on one holder.
    await eventually(async () => (holding().length === 1 ? true : undefined));
    expect(doubled.calls.some((c) => c.method === 'eth_getLogs')).toBe(true);

    // The holder stops (its lease given up): the other replica watches from the stored cursor.
    const [stopping] = holding();
    const staying = stopping === first ? second : first;
    await stopping!.container.chainWatchers[0]!.stop();
    transfers += await pay(to, 8, 1);
    await eventually(async () => ((await creditedCount(to)) === transfers ? true : undefined), 30_000);
    expect(staying.container.chainWatchers[0]!.isHolding).toBe(true);
    await expectCreditedOnce(to, transfers);
  });

  it('one RPC endpoint down and the other refusing wide ranges: the watcher fails over, halves its ranges, catches up, and counts the errors', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const narrow = await proxy({ refuse: refuseLogRangesOver(4) });
    const to = await tenants(3);
    // Paid while nobody watches: the watcher starts behind by some 60 blocks.
    const transfers = await pay(to, 6, 9);
    const watching = await replica(f.env([down, narrow.url]));
    await eventually(async () => ((await creditedCount(to)) === transfers ? true : undefined), 30_000);
    await expectCreditedOnce(to, transfers);

    const logs = narrow.calls.filter((c) => c.method === 'eth_getLogs');
    expect(logs.some((c) => c.refused)).toBe(true);
    expect(logs.filter((c) => !c.refused).every((c) => logRangeSize(c)! <= 4n)).toBe(true);
    const { head } = await f.bsc.heights();
    const ready = await eventually(async () => {
      const body = (await watching.call('GET', '/readyz')).body;
      return body.chains?.[0]?.scannedTo >= Number(head) ? body : undefined;
    });
    expect(ready.chains[0]).toMatchObject({ chain: 'BSC', lagBlocks: 0, watching: true });
    const admin = await watching.newAdminKey();
    const metrics = await (await fetch(`${watching.baseUrl}/metrics`, { headers: { authorization: `Bearer ${admin}` } })).text();
    const downErrors = new RegExp(`chain_rpc_errors_total\\{chain="BSC",endpoint="${new URL(down).host}"\\} ([0-9]+)`).exec(metrics);
    expect(Number(downErrors?.[1] ?? 0)).toBeGreaterThan(0);
  });
});
