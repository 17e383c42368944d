import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { SanctionsIndex, SwappableScreen } from '../adapters/providers/sanctions/sanctions-index';
import { parseSanctionsList } from '../adapters/providers/sanctions/list-parser';
import { ComplianceReviewRepository } from '../adapters/persistence/compliance-review.repository';
import { ScreeningListRepository } from '../adapters/persistence/screening-list.repository';
import { PollingWorker } from '../adapters/workers/polling-worker';
import type { MoneyOutScreening } from '../core/payments/create-money-out';
import type { ReviewDeps } from '../core/screening/review-decisions';
import { createScreeningAdmin, type ScreeningAdmin } from '../core/screening/screening-admin';
import { staleLists, type ScreeningPolicy, type SubjectScreening } from '../core/screening/screening-rules';
import type { LoadedList, ScreeningHit } from '../core/screening/sanctions-screen';
import type { Config } from './config';

/** Sanctions screening as wired (docs/decisions.md § Screening): the screen, the money-out's hook, the admin use cases, the reloader. */
export interface ScreeningWiring {
  readonly screen: SwappableScreen;
  readonly moneyOut: MoneyOutScreening;
  /** New customers' names: the same screen, policy and near-miss log; a hold logged with the customer id. */
  readonly customers: SubjectScreening;
  readonly admin: ScreeningAdmin;
  /** Polls the stored lists' versions and rebuilds the screen when one changed (never on a request). */
  readonly reloader: PollingWorker;
  /** Loads the stored lists now (at start, before requests). */
  reload(): Promise<void>;
  /** Readiness details: each list in memory, and warnings (none loaded, older than SCREENING_MAX_AGE_DAYS). */
  readiness(): { lists: LoadedList[]; warnings: string[] };
}

/** What a hold logs of its hits: list, entry and score, never the matched name or the screened one. */
const hitsLogged = (hits: readonly ScreeningHit[]) =>
  hits.map((h) => ({ kind: h.kind, source: h.source, entryId: h.entryId, ...(h.kind === 'name' ? { score: Number(h.score.toFixed(3)) } : {}) }));

const sameVersions = (a: readonly LoadedList[], b: readonly LoadedList[]) =>
  a.length === b.length && a.every((l, i) => l.source === b[i]?.source && l.version === b[i]?.version && l.loadedAt.getTime() === b[i]?.loadedAt.getTime());

/** Builds screening for the service and the CLI. `deps` are the payment ports a rejection moves the payment with. */
export function buildScreening(config: Config, em: EntityManager, deps: Omit<ReviewDeps, 'reviews'>, logger: Logger): ScreeningWiring {
  const policy: ScreeningPolicy = { required: config.SCREENING_REQUIRED ?? config.NODE_ENV === 'production', maxAgeDays: config.SCREENING_MAX_AGE_DAYS,
    retryAfterS: config.SCREENING_RELOAD_SECONDS };
  const lists = new ScreeningListRepository(em.fork());
  const screen = new SwappableScreen(new SanctionsIndex([], config.SCREENING_NAME_THRESHOLD));
  const reload = async () => {
    const stored = await lists.versions();
    if (sameVersions(stored, [...screen.loaded()].sort((a, b) => a.source.localeCompare(b.source)))) return;
    const started = Date.now();
    const index = new SanctionsIndex(await lists.loadAll(), config.SCREENING_NAME_THRESHOLD);
    screen.swap(index);
    logger.info({ screening: { lists: index.loaded().map((l) => ({ source: l.source, version: l.version, entries: l.entries })), names: index.names, ms: Date.now() - started } }, 'sanctions lists loaded');
  };
  const reloader = new PollingWorker('screening', async () => {
    await reload();
    return 0;
  }, { pollIntervalMs: config.SCREENING_RELOAD_SECONDS * 1000, batchSize: 1 }, logger);
  const admin = createScreeningAdmin({
    ...deps, reviews: new ComplianceReviewRepository(em.fork()), parse: parseSanctionsList, lists, screen, policy,
    // This replica screens with a new load at once; the others at their next poll.
    onLoaded: () => reloader.wake(),
  });
  // A name is personal data: only the list entry and the score are logged (docs/decisions.md § Screening).
  const onNearMiss = (nearest: { source: string; entryId: string; score: number }) =>
    logger.info({ screening: { ...nearest, score: Number(nearest.score.toFixed(3)) } }, 'name screened: below the threshold, passed');
  return {
    screen, admin, reloader, reload,
    moneyOut: {
      screen, policy, onNearMiss,
      onHeld: (paymentId, hits) => logger.warn({ paymentId, screening: hitsLogged(hits) }, 'payment held for compliance review'),
    },
    customers: {
      screen, policy, onNearMiss,
      onHeld: (customerId, hits) => logger.warn({ customerId, screening: hitsLogged(hits) }, 'customer held for compliance review: KYC waits'),
    },
    readiness: () => {
      const loaded = screen.loaded();
      const warnings = [
        ...(loaded.length === 0 ? [`no sanctions list is loaded${policy.required ? ': live money-outs and customers are refused' : ''}`] : []),
        ...staleLists(loaded, policy.maxAgeDays, deps.clock.now()).map((l) => `${l.source} list ${l.version} is older than ${policy.maxAgeDays} days`),
      ];
      return { lists: [...loaded], warnings };
    },
  };
}
