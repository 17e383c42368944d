/**
 * The targets of the lifecycle benchmark (bench/lifecycle.bench.ts) and its interleaved rounds:
 * each target on its own fresh database, all started before the first burst; then rounds in which
 * every target takes one burst, the order rotating by one each round, so that noise on a shared
 * host (seconds when the machine runs slow) falls on every target alike. Not run on its own.
 */
import { moneyOutBody } from '../test/support/test-service';
import { openBenchDatabase, type BenchDatabase } from './bench-database';
import { burst, expectCreated, summarize, type LoadOptions, type LoadSummary, type RawRun } from './load';
import { startRawServer } from './raw-server';
import { startServiceServer } from './service-server';
import { startTwinServer } from './twin-server';
import type { LiveRates } from './live-rates-target';

const FINAL_TIMEOUT_MS = 180_000;
/** The service as the twin runs: workers on, the sandbox answering at once, webhooks worker on. */
const LIFECYCLE_ENV = {
  WORKER_ENABLED: 'true', WEBHOOK_WORKER_ENABLED: 'true', SANDBOX_ACCEPT_DELAY_MS: '0', SANDBOX_RESULT_DELAY_MS: '0',
};

/** `service-live`: the service with one live tenant priced from live rate sources (bench/live-rates-target.ts). */
export type Kind = 'service' | 'service-live' | 'twin' | 'minimal';

/** What the rounds need of the benchmark's settings. */
export interface RoundSettings {
  readonly connections: number;
  /** Seconds of one burst. */
  readonly burstS: number;
  /** Seconds of each target's warm-up burst (none at 0). */
  readonly warmupS: number;
  /** Connections of each server's pool. */
  readonly pool: number;
}

/** One server under test on its own database, started and idle. */
export interface Target {
  readonly name: string;
  readonly kind: Kind;
  /** Connection url of its database. */
  readonly url: string;
  readonly db: BenchDatabase;
  /** The create load against it (POST /v1/payments/moneyout). */
  readonly load: LoadOptions;
  close(): Promise<void>;
}

/** One target's create figures: the merged bursts and, with a worker, payments made final per second. */
export interface CreateFigures {
  readonly name: string;
  readonly create: LoadSummary;
  /** Requests per second of each burst, in round order (how much the host's speed moved). */
  readonly perBurst: number[];
  /** Payments created ÷ seconds from each burst's start until all its payments were final, over all bursts; undefined without a worker. */
  readonly lifecyclePerS?: number;
}

/**
 * Opens `kind` with `tenants` funded tenants on a fresh database and checks that a money-out answers
 * 201; `service-live` needs `live` (the rate simulators' settings).
 */
export async function openTarget(kind: Kind, tenants: number, settings: RoundSettings, live?: LiveRates): Promise<Target> {
  const plural = `${tenants} tenant${tenants > 1 ? 's' : ''}`;
  const name = kind === 'minimal' ? 'minimal durable money-out (no worker)' : kind === 'service-live' ? `service, ${plural}, live rates` : `${kind}, ${plural}`;
  process.stderr.write(`bench:lifecycle: starting ${name}...\n`);
  const db = await openBenchDatabase(settings.pool, `lifecycle_${kind.replace('-', '_')}_${tenants}`);
  try {
    if (kind === 'service-live' && !live) throw new Error('service-live needs the live rate simulators');
    const service = kind === 'service-live'
      ? await startServiceServer(db.database, db.url, settings.pool, tenants, { ...LIFECYCLE_ENV, ...live!.env }, { environment: 'live', overrides: live!.overrides })
      : await startServiceServer(db.database, db.url, settings.pool, tenants, kind === 'service' ? LIFECYCLE_ENV : {});
    let server: { baseUrl: string; close(): Promise<void> } = service;
    if (kind !== 'service' && kind !== 'service-live') {
      // The service only made the funded tenants; the twin or the minimal server takes over the database.
      await service.close();
      server = kind === 'twin'
        ? await startTwinServer(db.url, settings.pool, new Map(service.apiKeys.map((k, i) => [k, service.tenantIds[i]!])))
        : await startRawServer(db.url, settings.pool);
    }
    const bodyTemplate = JSON.stringify(moneyOutBody({ reference: '__REFERENCE__' }));
    const headers = { authorization: `Bearer ${service.apiKey}` };
    await expectCreated(name, server.baseUrl, bodyTemplate, headers);
    if (kind === 'service-live') {
      // The figures mean something only if the money-outs were priced from the live sources.
      const [row] = await db.database.orm.em.getConnection().execute<{ origin: string | null }[]>("select pricing->>'origin' as origin from payments limit 1");
      if (row?.origin !== 'live') throw new Error(`${name}: the money-out was priced from ${row?.origin ?? 'nothing recorded'}, not the live sources`);
    }
    const load: LoadOptions = { url: server.baseUrl, bodyTemplate, headers, apiKeys: tenants > 1 ? service.apiKeys : [], connections: settings.connections };
    return {
      name, kind, url: db.url, db, load,
      async close() {
        await server.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/**
 * A warm-up burst per target, then `rounds` rounds of one create burst per target (rotating order),
 * each followed, for a target with a worker, by the wait until all its payments are final.
 */
export async function measureCreates(targets: readonly Target[], rounds: number, settings: RoundSettings): Promise<CreateFigures[]> {
  const hasWorker = (t: Target) => t.kind !== 'minimal';
  if (settings.warmupS > 0) {
    for (const t of targets) {
      await burst(t.load, settings.warmupS);
      if (hasWorker(t)) await allFinal(t.db);
    }
  }
  const finalMs = new Map<Target, number>(targets.map((t) => [t, 0]));
  const runs = await inRounds(targets, rounds, 'create', async (t) => {
    await t.db.checkpoint();
    const started = Date.now();
    const run = await burst(t.load, settings.burstS);
    if (hasWorker(t)) await allFinal(t.db);
    finalMs.set(t, finalMs.get(t)! + Date.now() - started);
    return run;
  });
  return targets.map((t) => {
    const create = summarize(runs.get(t)!);
    const perBurst = runs.get(t)!.map((r) => r.totalCompletedRequests / r.duration);
    return { name: t.name, create, perBurst, lifecyclePerS: hasWorker(t) ? create.ok2xx / (finalMs.get(t)! / 1000) : undefined };
  });
}

/**
 * GET /v1/payments/{id} over up to 1,000 payments each target made: a warm-up burst each, then
 * `rounds` rounds of one burst per target (rotating order). One summary per target, same order.
 */
export async function measureGets(targets: readonly Target[], rounds: number, settings: RoundSettings): Promise<LoadSummary[]> {
  const loads = new Map<Target, LoadOptions>();
  for (const t of targets) {
    const ids = (await t.db.database.orm.em.getConnection().execute<{ id: string }[]>('select id from payments order by random() limit 1000')).map((r) => r.id);
    loads.set(t, { ...t.load, method: 'GET', paymentIds: ids });
  }
  if (settings.warmupS > 0) for (const t of targets) await burst(loads.get(t)!, settings.warmupS);
  const runs = await inRounds(targets, rounds, 'GET', (t) => burst(loads.get(t)!, settings.burstS));
  return targets.map((t) => summarize(runs.get(t)!));
}

/**
 * `rounds` rounds of `run` once per target, round r starting at target r (mod their number) and
 * wrapping around, so each target takes each place in the order; each target's runs, in round order.
 */
async function inRounds(targets: readonly Target[], rounds: number, what: string, run: (t: Target) => Promise<RawRun>): Promise<Map<Target, RawRun[]>> {
  const runs = new Map<Target, RawRun[]>(targets.map((t) => [t, []]));
  for (let round = 0; round < rounds; round++) {
    process.stderr.write(`bench:lifecycle: ${what} round ${round + 1} of ${rounds}\n`);
    const at = round % targets.length;
    for (const t of [...targets.slice(at), ...targets.slice(0, at)]) runs.get(t)!.push(await run(t));
  }
  return runs;
}

/** Waits until no payment of the database is in a non-final state. */
async function allFinal(db: BenchDatabase): Promise<void> {
  const deadline = Date.now() + FINAL_TIMEOUT_MS;
  const conn = db.database.orm.em.getConnection();
  for (;;) {
    const [row] = await conn.execute<{ n: string }[]>("select count(*) as n from payments where status in ('initiated', 'provider_accepted')");
    if (Number(row?.n) === 0) return;
    if (Date.now() > deadline) throw new Error(`${row?.n} payments still not final after ${FINAL_TIMEOUT_MS} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
