import type { MikroORM } from '@mikro-orm/postgresql';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { createHttpApp } from '../adapters/http/http-app';
import { ApiKeyRepository } from '../adapters/persistence/api-key.repository';
import { PaymentQueueRepository, PaymentReadRepository } from '../adapters/persistence/payment.repository';
import { QuoteMikroRepository } from '../adapters/persistence/quote.repository';
import { MikroUnitOfWork } from '../adapters/persistence/unit-of-work';
import { loadCatalog } from '../adapters/providers/catalog-file';
import { CatalogRateSource } from '../adapters/providers/catalog-rate-source';
import { SandboxPayoutProvider } from '../adapters/providers/sandbox-payout-provider';
import { sha256Hasher, systemClock, ulidGenerator } from '../adapters/providers/system';
import { PayoutWorker } from '../adapters/workers/payout.worker';
import { createApplication, type Application } from '../core/application';
import type { AdvanceDeps } from '../core/payments/advance-payment';
import type { Clock, IdGenerator } from '../core/shared/clock';
import type { Config } from './config';
import { databaseProbe } from './database';

/** The wired service: use cases, transports and workers, sharing one ORM. */
export interface Container {
  readonly application: Application;
  readonly http: Express;
  readonly payoutWorker: PayoutWorker;
  readonly keys: ApiKeyRepository;
  readonly advanceDeps: AdvanceDeps;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** Overridable edges for tests (a fixed clock, a scripted provider). */
export interface ContainerOverrides {
  readonly clock?: Clock;
  readonly provider?: AdvanceDeps['provider'];
}

/** Composition root (DESIGN.md 1): builds every adapter and binds the core's use cases to them. */
export function buildContainer(config: Config, orm: MikroORM, logger: Logger, overrides: ContainerOverrides = {}): Container {
  const em = orm.em;
  const clock = overrides.clock ?? systemClock;
  const ids = ulidGenerator();
  const catalog = loadCatalog(config.CATALOG_PATH);
  const uow = new MikroUnitOfWork(em);
  const payments = new PaymentReadRepository(em);
  const keys = new ApiKeyRepository(em);
  const provider = overrides.provider ?? new SandboxPayoutProvider(clock, {
    acceptDelayMs: config.SANDBOX_ACCEPT_DELAY_MS,
    resultDelayMs: config.SANDBOX_RESULT_DELAY_MS,
  });

  const advanceDeps: AdvanceDeps = {
    uow, queue: new PaymentQueueRepository(em), payments, provider, clock, ids, leaseMs: config.WORKER_LEASE_MS,
  };
  const payoutWorker = new PayoutWorker(advanceDeps, {
    pollIntervalMs: config.WORKER_POLL_INTERVAL_MS,
    batchSize: config.WORKER_BATCH_SIZE,
  }, logger.child({ worker: 'payout' }));

  const application = createApplication({
    catalog,
    rates: new CatalogRateSource(catalog),
    quotes: new QuoteMikroRepository(em, true),
    payments,
    keys,
    hasher: sha256Hasher,
    uow,
    clock,
    ids,
    quoteTtlSeconds: config.QUOTE_TTL_SECONDS,
    idempotencyTtlHours: config.IDEMPOTENCY_TTL_HOURS,
    onPaymentCreated: () => payoutWorker.wake(),
  });
  const http = createHttpApp({ app: application, probe: databaseProbe(orm, '0.5.0'), logger, bodyLimit: config.BODY_LIMIT });
  return { application, http, payoutWorker, keys, advanceDeps, clock, ids };
}
