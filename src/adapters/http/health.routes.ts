import { z } from 'zod';
import { BLOCKCHAINS } from '../../core/catalog/catalog';
import { AUTH_ERRORS } from './common.schema';
import { defineRoute, type RouteSpec } from './route';

/** Port: what readiness checks (docs/decisions.md § Analytics, admin and health). */
export interface HealthProbe {
  /** Database reachable and every migration applied; `detail` says what is wrong otherwise. */
  ready(): Promise<{ ready: boolean; database: 'up' | 'down'; migrations: 'applied' | 'pending' | 'unknown'; detail?: string }>;
  /** Service version (the interface's, 0.5.0). */
  readonly version: string;
  /** This process's workers: running or not, and when each last finished a pass (ISO, null before the first). */
  workers?(): { name: string; running: boolean; lastPassAt: string | null }[];
  /** Each watched chain's watcher as stored (docs/decisions.md § Onchain deposits: watchers); absent when no chain is watched. */
  chains?(): Promise<ChainReadiness[]>;
  /** The sanctions lists this instance screens with, and warnings (none loaded, too old): details, never unready (docs/decisions.md § Screening). */
  screening?(): { lists: { source: string; version: string; publishedAt: Date; loadedAt: Date; entries: number }[]; warnings: string[] };
}

/** One chain's watcher in /readyz details. */
export interface ChainReadiness {
  readonly chain: string;
  readonly head: bigint;
  readonly finalized: bigint;
  readonly scannedTo: bigint | null;
  readonly lagBlocks: number;
  readonly lagSeconds: number | null;
  readonly watching: boolean;
}

const Status = z.object({ status: z.enum(['ok', 'unavailable']).meta({ description: 'ok when every check passes' }) });
const Readiness = Status.extend({
  database: z.enum(['up', 'down']).meta({ description: 'Whether PostgreSQL answers' }),
  migrations: z.enum(['applied', 'pending', 'unknown']).meta({ description: 'Whether every migration is applied (unknown when the database is down)' }),
  chains: z.array(z.object({
    chain: z.enum(BLOCKCHAINS).meta({ description: 'The chain' }),
    head: z.number().int().meta({ description: 'Newest block (BSC) or slot (SOLANA) the watcher read', example: 44218573 }),
    finalized: z.number().int().meta({ description: 'Newest finalized block or slot it read', example: 44218571 }),
    scannedTo: z.number().int().nullable().meta({ description: 'Highest block or slot scanned; null before the first scan', example: 44218573 }),
    lagBlocks: z.number().int().meta({ description: 'Blocks or slots between the head and what is scanned', example: 0 }),
    lagSeconds: z.number().int().nullable().meta({ description: 'Seconds since a pass last reached the head (grows while the watcher lags or no replica watches); null before one did', example: 2 }),
    watching: z.boolean().meta({ description: 'Whether a replica holds the chain\'s watcher lease now' }),
  })).optional().meta({ description: 'Onchain deposit watchers, one per configured chain (details: they never make the instance unready); absent when no chain is configured' }),
  screening: z.object({
    lists: z.array(z.object({
      source: z.enum(['ofac-sdn', 'un-consolidated']).meta({ description: 'The list' }),
      version: z.string().meta({ description: "The list's own version (OFAC Publish_Date, UN dateGenerated)", example: '11/25/2026' }),
      publishedAt: z.iso.datetime().meta({ description: 'When the list says it was published', example: '2026-11-25T00:00:00.000Z' }),
      loadedAt: z.iso.datetime().meta({ description: 'When an operator loaded it', example: '2026-11-26T08:00:00.000Z' }),
      entries: z.number().int().meta({ description: 'Designated parties in it', example: 18000 }),
    })).meta({ description: 'The sanctions lists this instance screens with' }),
    warnings: z.array(z.string()).meta({ description: 'No list loaded, or a list older than SCREENING_MAX_AGE_DAYS (details: never unready)', example: [] }),
  }).optional().meta({ description: 'Sanctions screening (docs/decisions.md § Screening)' }),
}).meta({ id: 'Readiness', description: 'Readiness of this instance', example: { status: 'ok', database: 'up', migrations: 'applied' } });
const Health = Readiness.extend({
  version: z.string().meta({ description: 'Version of the API', example: '0.5.0' }),
  workers: z.array(z.object({
    name: z.string().meta({ description: 'The worker', example: 'payouts' }),
    running: z.boolean().meta({ description: 'Whether it runs in this process' }),
    lastPassAt: z.iso.datetime().nullable().meta({ description: 'When it last finished a pass; null before the first', example: '2026-11-23T09:41:07.512Z' }),
  })).meta({ description: "This process's background workers" }),
}).meta({
  id: 'Health', description: 'Health of this instance for API clients',
  example: { status: 'ok', database: 'up', migrations: 'applied', version: '0.5.0', workers: [{ name: 'payouts', running: true, lastPassAt: '2026-11-23T09:41:07.512Z' }] },
});

/** Routes of the Health tag: unauthenticated probes and the authenticated /health. */
export function healthRoutes(probe: HealthProbe): RouteSpec<any, any, any>[] {
  const check = async () => {
    const state = await probe.ready();
    const chains = state.database === 'up' ? await chainDetails(probe) : undefined;
    const screening = probe.screening?.();
    return {
      status: state.ready ? ('ok' as const) : ('unavailable' as const), database: state.database, migrations: state.migrations, ...(chains ? { chains } : {}),
      ...(screening ? { screening: { warnings: screening.warnings, lists: screening.lists.map((l) => ({ ...l, publishedAt: l.publishedAt.toISOString(), loadedAt: l.loadedAt.toISOString() })) } } : {}),
    };
  };
  return [
    defineRoute({
      method: 'get', path: '/livez', operationId: 'livez',
      description: 'Liveness for orchestrators: 200 while the process answers. Needs no key.', summary: 'Liveness: the process answers', tags: ['Health'], auth: 'none',
      responses: { '200': { description: 'Alive', schema: Status } },
      handler: (_req, res) => void res.json({ status: 'ok' }),
    }),
    defineRoute({
      method: 'get', path: '/readyz', operationId: 'readyz',
      description: 'Readiness for orchestrators: 200 when the database is reachable and migrations are applied, 503 otherwise and while stopping. Needs no key.', summary: 'Readiness: database reachable and migrations applied', tags: ['Health'], auth: 'none',
      responses: { '200': { description: 'Ready', schema: Readiness }, '503': { description: 'Not ready', schema: Readiness } },
      handler: async (_req, res) => {
        const body = await check();
        res.status(body.status === 'ok' ? 200 : 503).json(body);
      },
    }),
    defineRoute({
      method: 'get', path: '/health', operationId: 'health',
      description: "Health for API clients: the version, database and migrations, and each worker's last pass. 503 when degraded.", summary: 'Service health for API clients', tags: ['Health'], auth: 'any',
      responses: { '200': { description: 'Healthy', schema: Health }, '503': { description: 'Degraded', schema: Health }, ...AUTH_ERRORS },
      handler: async (_req, res) => {
        const body = await check();
        res.status(body.status === 'ok' ? 200 : 503).json({ ...body, version: probe.version, workers: probe.workers?.() ?? [] });
      },
    }),
  ];
}

/** The chain watchers' details, or undefined when none is configured or they cannot be read (readiness stands on the database alone). */
async function chainDetails(probe: HealthProbe) {
  if (!probe.chains) return undefined;
  try {
    return (await probe.chains()).map((c) => ({
      chain: c.chain, head: Number(c.head), finalized: Number(c.finalized), scannedTo: c.scannedTo === null ? null : Number(c.scannedTo),
      lagBlocks: c.lagBlocks, lagSeconds: c.lagSeconds, watching: c.watching,
    }));
  } catch {
    return undefined;
  }
}
