import type { MikroORM } from '@mikro-orm/postgresql';
import type { Express } from 'express';
import type { ClientConfig } from 'pg';
import type { Logger } from 'pino';
import { createHttpApp } from '../adapters/http/http-app';
import { GraphqlGateway } from '../adapters/graphql/graphql-gateway';
import { ApiKeyRepository } from '../adapters/persistence/api-key.repository';
import { TenantRepository } from '../adapters/persistence/tenant.repository';
import { CachedTenantSettings } from '../adapters/persistence/tenant-settings.cache';
import { QueueDepthRepository } from '../adapters/persistence/queue-depth.repository';
import { PaymentEventRepository } from '../adapters/persistence/payment-event.repository';
import { API_KEY_REVOKED_CHANNEL, DEPOSIT_EVENTS_CHANNEL, WORK_DUE_CHANNEL } from '../adapters/persistence/notify-channels';
import { WorkDueRepository, type WorkQueue } from '../adapters/persistence/work-due.repository';
import { PgNotificationListener } from '../adapters/notifications/notification-listener';
import { PgCommitNotifier } from '../adapters/notifications/commit-notifier';
import { LedgerReadRepository } from '../adapters/persistence/ledger.repository';
import { CachedApiKeyReader } from '../adapters/persistence/cached-api-key.reader';
import { TransferRequestRepository } from '../adapters/persistence/transfer-request.repository';
import { AnalyticsRepository } from '../adapters/persistence/analytics.repository';
import { CustomerRepository } from '../adapters/persistence/customer.repository';
import { SandboxKycProvider } from '../adapters/providers/sandbox-kyc';
import { processDueKyc } from '../core/customers/manage-customers';
import { randomTransferLinkTokens } from '../adapters/providers/transfer-link-tokens';
import { DeliveryMikroQueue } from '../adapters/persistence/delivery.queue';
import { PaymentQueueRepository, PaymentReadRepository } from '../adapters/persistence/payment.repository';
import { PgOneTripPaymentWriter } from '../adapters/persistence/one-trip-payment.writer';
import { PaymentListRepository } from '../adapters/persistence/payment-list.repository';
import { OperationsRepository } from '../adapters/persistence/operations.repository';
import { QuoteMikroRepository } from '../adapters/persistence/quote.repository';
import { MikroUnitOfWork } from '../adapters/persistence/unit-of-work';
import { BatchingUnitOfWork } from '../adapters/persistence/batching-unit-of-work';
import { WebhookMikroRepository } from '../adapters/persistence/webhook.repository';
import { loadCatalog } from '../adapters/providers/catalog-file';
import { ratesSetup, type RatesSetup } from './live-rates';
import { RatePinRepository } from '../adapters/persistence/rate-pin.repository';
import { RateSpreadRepository } from '../adapters/persistence/rate-spread.repository';
import { SandboxPayoutProvider } from '../adapters/providers/sandbox-payout-provider';
import { CatalogRouting } from '../adapters/providers/catalog-routing';
import { ProviderOutcomeWindowRepository } from '../adapters/persistence/provider-outcome-window.repository';
import { RoutingDecisionRepository } from '../adapters/persistence/routing-decision.repository';
import { buildLivePayoutProviders, guardLivePayoutProviders, liveAccountDirectory } from './payout-providers';
import { providerCallbacks } from './provider-callbacks';
import { buildSmileIdKyc } from './smile-id-kyc';
import { KycCheckRepository } from '../adapters/persistence/kyc-check.repository';
import { ProviderEventRepository } from '../adapters/persistence/provider-event.repository';
import { SandboxAccountDirectory } from '../adapters/providers/sandbox-account-directory';
import { SandboxIssuerDirectory } from '../adapters/providers/sandbox-issuer-directory';
import { AesGcmSecretBox } from '../adapters/providers/secret-box';
import { PersonalDataBox } from '../adapters/providers/personal-data-box';
import { usePersonalDataBox } from '../adapters/persistence/schemas/sealed-text.type';
import { sealClearPersonalData } from '../adapters/persistence/personal-data.backfill';
import { sha256Hasher, systemClock, ulidGenerator, uuidFor } from '../adapters/providers/system';
import { DnsTargetGuard } from '../adapters/providers/target-guard';
import { UndiciWebhookTransport } from '../adapters/providers/webhook-transport';
import { PollingWorker } from '../adapters/workers/polling-worker';
import { createApplication, type Application, type ApplicationDeps } from '../core/application';
import { createAdminApplication, type AdminApplication } from '../core/admin/admin-application';
import { generateApiKey } from './api-keys';
import { processDuePayments, type AdvanceDeps } from '../core/payments/advance-payment';
import type { PayoutProvider } from '../core/payments/payout-provider';
import type { Clock, IdGenerator } from '../core/shared/clock';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../core/webhooks/delivery-policy';
import { DeliveryDispatcher, type DeliveryDeps } from '../core/webhooks/deliver-webhooks';
import type { Config } from './config';
import { databaseProbe } from './database';
import { webhookSecretKey } from './secret-key';
import { oidcRoutes, operatorServices } from './operators';
import { auditedAdmin } from '../core/operators/audited-admin';
import { queueCounts } from '../core/operators/operator-queues';
import { OperatorQueuesRepository } from '../adapters/persistence/operator-queues.repository';
import type { OperatorApplication } from '../core/operators/operator-application';
import type { AuditLog } from '../core/operators/audit-log';
import { currentAuditContext } from '../adapters/access/audit-context';
import type { OperatorHttp } from '../adapters/http/operator-gate';
import { Metrics } from '../adapters/http/metrics';
import { MeteredPayoutProvider, type ProviderCallObserver } from '../adapters/providers/metered-payout-provider';
import { version as PACKAGE_VERSION } from '../../package.json';
import { AddressRateLimits, RateLimits } from '../adapters/access/rate-limits';
import { AuthFailures } from '../adapters/access/auth-failures';
import { BearerAccess } from '../adapters/access/bearer-access';
import { compileProxyTrust } from '../adapters/access/client-address';
import { memoryCounterStore, redisCounterStore } from '../adapters/access/counter-store';
import { ReconciliationCheckRepository } from '../adapters/persistence/reconciliation-check.repository';
import { routedProviderOfPayment, type ProviderOfPayment } from '../core/reconciliation/reconciliation-ports';
import { resolveStuckPayments } from '../core/reconciliation/resolve-stuck-payments';
import type { ProviderRouting } from '../core/routing/provider-routing';
import { SentPaymentsRepository } from '../adapters/persistence/sent-payments.repository';
import { OnchainRefundReadRepository } from '../adapters/persistence/onchain-refund.repository';
import { eip55Checksum } from '../adapters/chains/eip55-checksum';
import { TenantRefundRepository } from '../adapters/persistence/tenant-refund.repository';
import { CachedOwnAddresses } from '../adapters/persistence/cached-own-addresses';
import { reconciliationSources } from './reconciliation-sources';
import { ChainMetrics } from '../adapters/http/chain-metrics';
import { RateMetrics } from '../adapters/http/rate-metrics';
import { ChainWatchRepository } from '../adapters/persistence/chain-watch.repository';
import { DepositAddressRepository } from '../adapters/persistence/deposit-address.repository';
import { DepositReadRepository } from '../adapters/persistence/deposit.repository';
import type { ChainWatcher } from '../adapters/workers/chain-watcher';
import { chainDeposits, chainStatus, chainWatchers, watcherHolderId, type ChainSupply } from './chain-deposits';
import type { RefundSender } from '../core/refunds/refund-sender';
import { RefundSenderRepository } from '../adapters/persistence/refund-sender.repository';
import { RefundMetrics } from '../adapters/http/refund-metrics';
import type { RefundWorker } from '../adapters/workers/refund-worker';
import { configuredRefundSenders, refundWorkers, watermarksOf } from './refund-senders';
import { buildScreening, type ScreeningWiring } from './screening';

/** The wired service: use cases, transports and workers, sharing one ORM. */
export interface Container {
  readonly application: Application;
  readonly admin: AdminApplication;
  /** Operator accounts, sessions and the audit log's reads (docs/decisions.md § Operators). */
  readonly operators: OperatorApplication;
  readonly audit: AuditLog;
  readonly http: Express;
  readonly payoutWorker: PollingWorker;
  readonly webhookWorker: PollingWorker;
  /** Resolves payments stuck in provider_accepted by status queries (docs/decisions.md § Reconciliation). */
  readonly reconciliationWorker: PollingWorker;
  /** One watcher per configured chain (docs/decisions.md § Onchain deposits: watchers); none when no chain is configured. */
  readonly chainWatchers: readonly ChainWatcher[];
  /** One refunds worker per hot wallet (docs/decisions.md § Refunds); none when no hot wallet is configured. */
  readonly refundWorkers: readonly RefundWorker[];
  readonly keys: ApiKeyRepository;
  readonly tenants: TenantRepository;
  readonly advanceDeps: AdvanceDeps;
  readonly deliveryDeps: DeliveryDeps;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Authentication, the failed-authentication throttle and per-key request limits of every transport. */
  readonly access: BearerAccess;
  /** GraphQL over HTTP and graphql-ws: main and tests `attach(server)` it to the listening server. */
  readonly graphql: GraphqlGateway;
  /** The rates priced with: the catalog's, or live ones for live tenants (docs/decisions.md § FX quotes: live rates). */
  readonly rates: RatesSetup;
  /** Sanctions screening: the in-memory screen, its reloader and admin use cases (docs/decisions.md § Screening). */
  readonly screening: ScreeningWiring;
  /**
   * Seals personal data still in clear (the start-up backfill, docs/decisions.md § Personal data and
   * secrets), then starts the process's one LISTEN connection (key revocations, payment events) and
   * the workers the configuration enables. Call it before the server takes requests.
   */
  startWorkers(): Promise<void>;
  /**
   * First step of a shutdown: from now on /readyz answers 503 so load balancers stop sending
   * traffic, and the workers start no new pass (the one running ends on its own; `stop` awaits it).
   */
  beginShutdown(): void;
  /**
   * The end of a shutdown's grace period (docs/decisions.md § Running it): aborts the payout
   * providers' calls and the webhook sends still in flight. An aborted submission's outcome is
   * unknown: its marker stays, so the payment is asked about, never sent again; an aborted webhook
   * send is a failed attempt, retried on schedule.
   */
  cutOutboundCalls(): Promise<void>;
  /**
   * Stops the workers after their current pass, aborts webhook sends still running (each records its
   * failed attempt), then closes the LISTEN connection and lets the GraphQL feed publish what it
   * heard, in that order, so nothing still uses the database when its owner closes the pool
   * (docs/decisions.md § Running it).
   */
  stop(): Promise<void>;
}

/** Overridable edges for tests (a fixed clock, a scripted provider). */
export interface ContainerOverrides {
  readonly clock?: Clock;
  /** Replaces the sandbox payout provider (it still serves sandbox tenants only). */
  readonly provider?: PayoutProvider;
  readonly accountDirectory?: ApplicationDeps['accounts'];
  readonly issuerDirectory?: ApplicationDeps['issuers'];
  /** Extra live payout providers beside the configured ones (tests: a scripted second provider for failover). */
  readonly livePayoutProviders?: readonly PayoutProvider[];
  /** Replaces provider routing altogether (a test serving live tenants through a scripted provider). */
  readonly routing?: ProviderRouting;
  /** Draws of routing's hedged share (tests: a seeded generator); default Math.random. */
  readonly routingRandom?: () => number;
  /** Replaces how the reconciliation worker finds the provider that took a payment. */
  readonly providerOfPayment?: ProviderOfPayment;
  /** Payout providers reconciliation reports may read besides the sandbox one (real rails, or a test's). */
  readonly reconciliationProviders?: readonly PayoutProvider[];
  /** Chains besides the configured ones (tests: a scripted chain reader and deriver). */
  readonly chains?: readonly ChainSupply[];
  /** Hot wallet senders besides the configured ones (tests: a fake chain, or a sender on a local chain). */
  readonly refundSenders?: readonly RefundSender[];
}


/** Composition root (docs/architecture.md): builds every adapter and binds the core's use cases to them. */
export function buildContainer(config: Config, orm: MikroORM, logger: Logger, overrides: ContainerOverrides = {}): Container {
  const em = orm.em;
  const clock = overrides.clock ?? systemClock;
  const ids = ulidGenerator();
  const catalog = loadCatalog(config.CATALOG_PATH);
  // The process's one LISTEN connection (docs/decisions.md § GraphQL); each reader registers its handlers on it.
  const listenerConfig = em.getConnection().getConnectionOptions() as ClientConfig;
  const listener = new PgNotificationListener(listenerConfig, logger);
  // Committed transactions wake this process's readers at once and other replicas' by NOTIFY, after the commit (docs/decisions.md § Performance).
  const commitNotifier = new PgCommitNotifier(listenerConfig, listener, logger);
  const uow = new MikroUnitOfWork(em, ids, clock, commitNotifier);
  const secretKey = webhookSecretKey(config);
  // Personal data columns are sealed under keys derived from the same secret (docs/decisions.md § Personal data and secrets).
  const personalData = new PersonalDataBox(secretKey);
  usePersonalDataBox(orm, personalData);
  const customers = new CustomerRepository(em, personalData);
  const payments = new PaymentReadRepository(em);
  const keys = new ApiKeyRepository(em);
  const tenants = new TenantRepository(em, ids);
  const findTenant = (tenantId: string) => tenants.findTenant(tenantId);
  const tenantSettings = new CachedTenantSettings(findTenant, config.RATE_LIMIT_PER_MINUTE);
  const cachedKeys = new CachedApiKeyReader(keys, config.AUTH_CACHE_TTL_MS);
  const queueDepths = new QueueDepthRepository(em);
  // Workers sleep until their queue's next row is due or a NOTIFY wakes them (docs/decisions.md § Performance).
  const workDue = new WorkDueRepository(em);
  const untilNextDue = (queue: WorkQueue) => async () => {
    const at = await workDue.nextDueAt(queue);
    return at ? at.getTime() - clock.now().getTime() : undefined;
  };
  const refunds = new OnchainRefundReadRepository(em);
  const metrics = new Metrics({ depths: () => queueDepths.depths() }, { pendingTotals: () => refunds.pendingTotals() }, {
    version: PACKAGE_VERSION, commit: config.BUILD_COMMIT,
  });
  // Every call that reaches a payout provider is timed (README "Metrics and health").
  const observeCall: ProviderCallObserver = (name, operation, outcome, seconds) => metrics.providerCalled(name, operation, outcome, seconds);
  // Onchain deposits (docs/decisions.md § Onchain deposits): the chains the adapters supply, their watchers and metrics.
  const chainWatch = new ChainWatchRepository(em);
  const chainMetrics = new ChainMetrics(metrics.registry, async () => chainStatus(chains, chainWatch));
  const chains = chainDeposits(config, logger, chainMetrics, overrides.chains);
  const depositReads = new DepositReadRepository(em);
  const depositAddresses = new DepositAddressRepository(em);
  const holder = watcherHolderId();
  const watchers = chainWatchers(chains, {
    uow, clock, ids, deposits: depositReads, addresses: depositAddresses, holder,
    // Deposit senders are screened with the one in-memory screen, built further down (a pass runs only once the service started).
    screen: { screenAddress: (address) => screening.screen.screenAddress(address) },
    lease: chainWatch, leaseMs: config.CHAIN_WATCH_LEASE_MS, intervalMs: config.CHAIN_WATCH_INTERVAL_MS, metrics: chainMetrics, logger,
  });
  // Onchain refunds (docs/decisions.md § Refunds): one worker per configured hot wallet (and a test's senders).
  const refundWallets = new RefundSenderRepository(em);
  const refundMetrics = new RefundMetrics(metrics.registry, () => refundWallets.findings());
  const refundSenders = [...configuredRefundSenders(config, (chain, endpoint) => chainMetrics.rpcError(chain, endpoint)), ...(overrides.refundSenders ?? [])];
  const refunders = refundWorkers(refundSenders, {
    uow, clock, ids, wallets: refundWallets, holder, leaseMs: config.REFUND_LEASE_MS, intervalMs: config.REFUND_INTERVAL_MS, metrics: refundMetrics, logger,
    balanceEveryMs: config.REFUND_BALANCE_INTERVAL_MS, watermarks: watermarksOf(config),
  });
  const secrets = new AesGcmSecretBox(secretKey);
  const allowedPorts = config.WEBHOOK_ALLOWED_PORTS ?? [];
  const transport = new UndiciWebhookTransport(secrets, config.WEBHOOK_ALLOW_PRIVATE_TARGETS, config.WEBHOOK_TIMEOUT_MS, {
    connectTimeoutMs: config.WEBHOOK_CONNECT_TIMEOUT_MS, allowedPorts,
  });
  const sandboxPayouts = overrides.provider ?? new SandboxPayoutProvider(clock, {
    acceptDelayMs: config.SANDBOX_ACCEPT_DELAY_MS,
    resultDelayMs: config.SANDBOX_RESULT_DELAY_MS,
  });
  const provider = new MeteredPayoutProvider(sandboxPayouts, observeCall);
  // Real payout rails (docs/providers.md): the providers the configuration turns on.
  const live = buildLivePayoutProviders(config.payoutProviders, clock, logger);
  const guarded = guardLivePayoutProviders(
    [...live.providers, ...(overrides.livePayoutProviders ?? [])], config, logger, (name, open) => metrics.providerCircuit(name, open), observeCall,
  );
  // Live KYC through Smile ID when configured (docs/providers.md § Smile ID); its callbacks only make a customer due now.
  const smileId = config.smileId ? buildSmileIdKyc(config.smileId, {
    customers, checks: new KycCheckRepository(em), events: new ProviderEventRepository(em),
    contentHash: (content) => personalData.keyedHash('provider-callback', content), clock, ids, logger,
    wakeKyc: () => kycWorker.wake(), onVerdict: (verdict) => metrics.providerCallback('smile_id', verdict),
  }) : undefined;
  if (config.smileId) logger.info({ kyc: { smile_id: config.smileId.baseUrl } }, 'live KYC provider configured');
  // The sandbox serves sandbox tenants only, real rails live ones (docs/decisions.md § Payout providers: routing and failover).
  const routingDeps = {
    routing: overrides.routing ?? new CatalogRouting(
      catalog, { payouts: provider, kyc: new SandboxKycProvider(clock, config.KYC_SANDBOX_DELAY_MS) }, guarded.providers, guarded.isHealthy,
      config.PROVIDER_BREAKER_HALF_OPEN_MS, smileId?.live,
    ),
    environments: tenantSettings,
  };

  const deliveryDeps: DeliveryDeps = {
    queue: new DeliveryMikroQueue(em),
    transport,
    clock,
    schedule: config.WEBHOOK_RETRY_SCHEDULE_MS?.split(',').map(Number) ?? DEFAULT_RETRY_SCHEDULE_MS,
    // The lease must outlast a delivery that waits for its lane's slot and then runs into its timeout (three timeouts at most).
    leaseMs: config.WEBHOOK_TIMEOUT_MS * 4,
    random: Math.random,
    perEndpoint: config.WEBHOOK_ENDPOINT_CONCURRENCY,
    maxInFlight: config.WEBHOOK_MAX_IN_FLIGHT,
    orderWaitMs: config.WEBHOOK_ORDER_WAIT_MS,
    onAttempt: (outcome) => metrics.deliveryAttempted(outcome),
    // A send that answered frees room in its lane: claim again at once rather than after the idle poll.
    onSettled: () => webhookWorker.wake(),
    onFault: (error, deliveryId) => logger.error({ err: error, deliveryId }, 'webhook attempt failed; its lease brings it back'),
  };
  const dispatcher = new DeliveryDispatcher(deliveryDeps);
  const webhookWorker = new PollingWorker('webhooks', (n) => dispatcher.pass(n), {
    pollIntervalMs: config.WEBHOOK_POLL_INTERVAL_MS,
    batchSize: config.WEBHOOK_BATCH_SIZE,
    drain: () => dispatcher.idle(),
    untilNextDueMs: untilNextDue('webhooks'),
    maxIdleMs: config.WORKER_MAX_IDLE_MS,
  }, logger);

  const reconciliationChecks = new ReconciliationCheckRepository(em);
  const routingDecisions = new RoutingDecisionRepository(em);
  const advanceDeps: AdvanceDeps = {
    // A pass's moves and reschedules share a transaction, each still applied once or not at all (docs/decisions.md § Performance).
    uow: new BatchingUnitOfWork(em, ids, clock, uow, undefined, undefined, commitNotifier), queue: new PaymentQueueRepository(em), payments, ...routingDeps, clock, ids, leaseMs: config.WORKER_LEASE_MS,
    onPaymentMoved: (payment) => {
      metrics.paymentMoved(payment);
      webhookWorker.wake();
    },
    onUnrouted: (payment, reason) => logger.warn({ paymentId: payment.id, tenantId: payment.tenantId, status: payment.status, reason }, 'no payout provider serves this payment; left as it is'),
    // Failovers (debug: the sandbox's accept delay answers retry too) and unknown submissions; reasons carry no personal data.
    onSubmitted: (payment, providerName, outcome) => {
      metrics.payoutSubmitted(providerName, outcome.kind);
      if (outcome.kind === 'retry') logger.debug({ paymentId: payment.id, provider: providerName, reason: outcome.reason }, 'payout not taken; next provider or later');
      if (outcome.kind === 'unknown') logger.warn({ paymentId: payment.id, provider: providerName, reason: outcome.reason }, 'payout submission outcome unknown; its status is asked next');
    },
    // Routing on measured success (docs/decisions.md § Payout providers: routing on measured success).
    scoring: {
      window: new ProviderOutcomeWindowRepository(em, { bucketMs: config.ROUTING_BUCKET_MS, keepMs: 2 * config.ROUTING_WINDOW_MS }),
      decisions: routingDecisions,
      settings: {
        windowMs: config.ROUTING_WINDOW_MS, minSamples: config.ROUTING_MIN_SAMPLES, hedgeShare: config.ROUTING_HEDGE_PERCENT / 100,
        bandPoints: config.ROUTING_BAND_POINTS, neutralSuccessRate: config.ROUTING_NEUTRAL_SUCCESS_PERCENT / 100,
      },
      random: overrides.routingRandom ?? Math.random,
      nowMs: () => performance.now(),
      onDecided: (corridor, decision) => metrics.routingDecided(
        decision.order[0] ?? 'none', `${corridor.country}/${corridor.paymentMethod}/${corridor.paymentCode}`, decision.strategy, decision.reason,
      ),
      onFault: (error) => logger.error({ err: error }, 'routing figures or decision not stored; routing goes on without them'),
    },
    // A provider status no adapter maps: a finding for operators (docs/decisions.md § Reconciliation), counted and logged.
    unknownStatuses: {
      async recordUnknownStatus(seen) {
        await reconciliationChecks.recordUnknownStatus(seen);
        metrics.reconciliationMismatch(seen.provider, 'unknown_provider_status');
        logger.warn({ ...seen }, 'provider answered a status we do not map: the payment waits, reported to operators');
      },
    },
  };
  // Provider callbacks (docs/decisions.md § Payout providers: callbacks), outside tenant auth.
  const callbacks = providerCallbacks(config.payoutProviders, {
    advance: advanceDeps, events: new ProviderEventRepository(em), contentHash: (content) => personalData.keyedHash('provider-callback', content),
    logger,
    onVerdict: (provider, verdict) => {
      metrics.providerCallback(provider, verdict);
      // An applied callback may have made its payment due now (MTN's word is confirmed by a status
      // query, an M-Pesa queue timeout asks for one): the payout worker looks at once, not after its idle wait.
      if (verdict === 'applied') payoutWorker.wake();
    },
  });
  const kycWorker = new PollingWorker('kyc', (n) => processDueKyc({
    customers, clock, ids, uow, ...routingDeps, leaseMs: config.WORKER_LEASE_MS,
    onUnrouted: (customerId, reason) => logger.warn({ customerId, reason }, 'no KYC provider serves this customer; left pending'),
    onDecided: (status) => {
      metrics.kycDecided(status);
      webhookWorker.wake();
    },
    onProviderError: (customerId, error) => logger.warn({ err: error, customerId }, 'KYC provider failed; asking again later'),
  }, n), {
    pollIntervalMs: config.WORKER_POLL_INTERVAL_MS, batchSize: config.WORKER_BATCH_SIZE,
    untilNextDueMs: untilNextDue('kyc'), maxIdleMs: config.WORKER_MAX_IDLE_MS,
  }, logger);
  const payoutWorker = new PollingWorker('payouts', (n) => processDuePayments(advanceDeps, n), {
    pollIntervalMs: config.WORKER_POLL_INTERVAL_MS,
    batchSize: config.WORKER_BATCH_SIZE,
    untilNextDueMs: untilNextDue('payouts'),
    maxIdleMs: config.WORKER_MAX_IDLE_MS,
  }, logger);
  const providerOfPayment = overrides.providerOfPayment ?? routedProviderOfPayment(routingDeps);
  const reconciliationWorker = new PollingWorker('reconciliation', (n) => resolveStuckPayments({
    ...advanceDeps, checks: reconciliationChecks, providers: providerOfPayment,
    stuckAfterSeconds: config.RECONCILIATION_STUCK_AFTER_SECONDS, recheckSeconds: config.RECONCILIATION_RECHECK_SECONDS,
    onChecked: (check) => {
      metrics.reconciliationChecked(check.provider ?? 'none', check.outcome);
      if (check.mismatch) {
        metrics.reconciliationMismatch(check.provider ?? 'none', check.mismatch);
        logger.warn({ ...check }, 'reconciliation mismatch: reported, not corrected');
      } else if (check.movedTo) logger.info({ ...check }, 'stuck payment resolved by a status query');
      else if (check.outcome === 'no_provider' || check.outcome === 'error') logger.warn({ ...check }, 'stuck payment could not be asked about; asking again later');
    },
  }, n), { pollIntervalMs: config.RECONCILIATION_POLL_INTERVAL_MS, batchSize: config.WORKER_BATCH_SIZE }, logger);

  // Sanctions screening (docs/decisions.md § Screening): in memory, reloaded in the background.
  const screening = buildScreening(config, em, {
    uow, payments, clock, ids, environments: tenantSettings, onPaymentMoved: advanceDeps.onPaymentMoved,
    // A cleared payment is due for the payout worker, a cleared customer for the KYC worker; a rejected customer or deposit has an event to deliver.
    onCleared: (kind) => (kind === 'payment' ? payoutWorker.wake() : kycWorker.wake()),
    onRejected: () => webhookWorker.wake(),
  }, logger);

  const ratePins = new RatePinRepository(em);
  const rateSpreads = new RateSpreadRepository(em);
  // Per-source rate metrics (docs/decisions.md § FX quotes: live rates): reads counted as they happen, ages and deviations read from the book on each scrape.
  const rates: RatesSetup = ratesSetup(config, catalog, tenantSettings, clock, logger, ratePins, rateSpreads, (read) => rateMetrics.sourceRead(read));
  const rateMetrics = new RateMetrics(metrics.registry, () => rates.book?.view(clock.now()) ?? [], () => clock.now());
  const application = createApplication({
    catalog,
    rates: rates.rates,
    quotes: new QuoteMikroRepository(em, true),
    payments,
    paymentList: new PaymentListRepository(em),
    keys: cachedKeys,
    hasher: sha256Hasher,
    ledger: new LedgerReadRepository(em),
    analytics: new AnalyticsRepository(em),
    operations: new OperationsRepository(em),
    customers,
    findTenant,
    ...routingDeps,
    transfers: new TransferRequestRepository(em),
    linkTokens: randomTransferLinkTokens,
    transferLinkTtlSeconds: config.TRANSFER_LINK_TTL_SECONDS,
    uuidFor,
    uow,
    oneTrip: new PgOneTripPaymentWriter(em, ids, commitNotifier),
    clock,
    ids,
    quoteTtlSeconds: config.QUOTE_TTL_SECONDS,
    idempotencyTtlHours: config.IDEMPOTENCY_TTL_HOURS,
    fingerprintOf: (canonical) => personalData.keyedHash('idempotency-fingerprint', canonical),
    screening: screening.moneyOut,
    customerScreening: screening.customers,
    onPaymentCreated: (_paymentId, corridor) => {
      metrics.paymentCreated(corridor);
      payoutWorker.wake();
    },
    webhooks: new WebhookMikroRepository(em),
    targets: new DnsTargetGuard(),
    secrets,
    allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    allowedPorts,
    maxRegistrationsPerTenant: config.WEBHOOK_MAX_REGISTRATIONS_PER_TENANT,
    onDeliveryScheduled: () => webhookWorker.wake(),
    accounts: overrides.accountDirectory ?? new SandboxAccountDirectory(),
    liveAccounts: liveAccountDirectory(live),
    issuers: overrides.issuerDirectory ?? new SandboxIssuerDirectory(),
    serviceName: config.SERVICE_NAME,
    deposits: depositReads,
    depositAddresses,
    depositChains: chains.setups,
    // A refund to one of our hot wallets would pay ourselves (docs/decisions.md § Refunds: refund addresses).
    refundAddresses: {
      eip55: eip55Checksum, depositAddresses: new CachedOwnAddresses(depositAddresses),
      hotWallets: refundSenders.filter((s): s is RefundSender => s !== undefined).map((s) => ({ blockchain: s.chain, address: s.wallet })),
    },
    tenantRefunds: new TenantRefundRepository(em),
  });
  const { operators, audit } = operatorServices(config, em, personalData, clock, ids);
  // Every admin write leaves its audit row, whoever calls it (docs/decisions.md § Operators: audit log).
  const admin = auditedAdmin(createAdminApplication({
    tenants, keys, keyFactory: { generate: generateApiKey }, hasher: sha256Hasher, clock, ids, uow, payments,
    onPaymentMoved: advanceDeps.onPaymentMoved,
    onKeyRevoked: (keyId) => cachedKeys.invalidate(keyId),
    onTenantUpdated: (tenantId) => tenantSettings.forget(tenantId),
    reconciliationChecks, routingDecisions, environments: tenantSettings, refunds, checkedChain: (chain) => chains.checked(chain), depositFindings: depositReads, rateBoard: rates.book, ratePins, rateSpreads, spreadsInForce: rates.spreads,
    quotes: new QuoteMikroRepository(em, true),
    screening: screening.admin,
    reconciliationReport: {
      sent: new SentPaymentsRepository(em), payments, providers: providerOfPayment, clock,
      records: reconciliationSources(
        [sandboxPayouts, ...live.providers, ...(overrides.livePayoutProviders ?? []), ...(overrides.reconciliationProviders ?? [])], observeCall,
      ),
      onMismatch: (name, kind) => metrics.reconciliationMismatch(name, kind),
    },
  }), { audit, clock, ids, context: currentAuditContext });
  // One process counts in memory; replicas share counts through Redis (docs/decisions.md § Rate limits and abuse limits).
  const counters = config.REDIS_URL ? redisCounterStore(config.REDIS_URL, config.REDIS_KEY_PREFIX, logger) : memoryCounterStore();
  const access = new BearerAccess({
    authenticate: application.authenticate,
    failures: new AuthFailures(counters, config.AUTH_FAILURES_PER_MINUTE),
    rateLimits: new RateLimits(counters, (tenantId) => tenantSettings.limitOf(tenantId)),
  });
  const trustProxy = compileProxyTrust(config.TRUST_PROXY);
  const operatorHttp: OperatorHttp = {
    operators, failures: new AuthFailures(counters, config.AUTH_FAILURES_PER_MINUTE), rateLimits: access.rateLimits,
    queues: () => queueCounts({ reader: new OperatorQueuesRepository(em), clock }, config.OPERATOR_STUCK_PAYMENT_MINUTES),
    secureCookies: config.NODE_ENV === 'production', trustProxy,
  };
  const graphql = new GraphqlGateway({
    app: application, paymentEvents: new PaymentEventRepository(em), depositChanges: depositReads, listener, nodeEnv: config.NODE_ENV,
    access, trustProxy, maxConnectionsPerKey: config.WS_MAX_CONNECTIONS_PER_KEY, logger,
  });
  // A revocation on any replica: forget the key and close its sockets here (docs/decisions.md § Authentication, tenants and keys).
  listener.on(API_KEY_REVOKED_CHANNEL, (keyId) => {
    cachedKeys.invalidate(keyId);
    graphql.closeSocketsOfKey(keyId);
  });
  // Revocations sent while the connection was down were missed: drop every cached key.
  listener.onReconnect(() => cachedKeys.invalidate());
  // Work committed by any replica wakes this one's workers (docs/decisions.md § Performance): after
  // its commit, a payment change that leaves the payment movable says `payouts`, an event with
  // webhook deliveries `webhooks`, a new customer `kyc` (commit-notices.ts).
  // A deposit event's deliveries are written with it (docs/decisions.md § Onchain deposits).
  listener.on(DEPOSIT_EVENTS_CHANNEL, () => webhookWorker.wake());
  listener.on(WORK_DUE_CHANNEL, (queue) => {
    if (queue === 'payouts') payoutWorker.wake();
    if (queue === 'webhooks') webhookWorker.wake();
    if (queue === 'kyc') kycWorker.wake();
  });
  // Notifications sent while the connection was down were missed: every worker looks once.
  listener.onReconnect(() => [payoutWorker, webhookWorker, kycWorker].forEach((w) => w.wake()));
  let shuttingDown = false;
  const database = databaseProbe(orm, '0.5.0');
  const http = createHttpApp({
    app: application, admin, probe: {
      ...database,
      ready: async () => (shuttingDown
        ? { ready: false, database: 'up', migrations: 'applied', detail: 'shutting down' }
        : database.ready()),
      screening: () => screening.readiness(),
      workers: () => [payoutWorker, webhookWorker, kycWorker, reconciliationWorker, ...watchers.map((w) => w.worker), ...refunders.map((w) => w.worker), ...(rates.worker ? [rates.worker] : [])]
        .map((w) => ({ name: w.name, running: w.isRunning, lastPassAt: w.lastPassAt?.toISOString() ?? null })),
      ...(chains.watched.length > 0 ? { chains: () => chainStatus(chains, chainWatch) } : {}),
    }, logger, bodyLimit: config.BODY_LIMIT, metrics,
    access, trustProxy,
    graphql: { gate: graphql.gate, http: graphql.http, dashboard: graphql.dashboard },
    callbacks: { endpoints: [...callbacks.endpoints, ...(smileId ? [smileId.callback] : [])], limits: new AddressRateLimits(counters, config.CALLBACK_RATE_LIMIT_PER_MINUTE) },
    operators: operatorHttp, browserRoutes: oidcRoutes(config, em, operatorHttp, clock),
  });
  return {
    application, admin, operators, audit, http, screening, payoutWorker, webhookWorker, reconciliationWorker, chainWatchers: watchers, refundWorkers: refunders, keys, tenants, advanceDeps, deliveryDeps, clock, ids, graphql, access, rates,
    async startWorkers() {
      // Before anything reads: rows written in clear by an earlier version are sealed first.
      const sealed = await sealClearPersonalData(em, personalData);
      if (sealed.customers + sealed.payments + sealed.idempotencyKeys > 0) logger.info({ sealed }, 'personal data written in clear sealed');
      await counters.start();
      logger.info({ store: counters.kind }, 'rate limits and failed-authentication counts ready');
      await listener.start();
      // The live feed's first cursor: a subscriber sees every payment change committed from here on.
      await graphql.start();
      // Every replica screens with the stored lists from its first request, then checks for new loads in the background.
      await screening.reload();
      screening.reloader.start();
      if (config.WORKER_ENABLED) {
        payoutWorker.start();
        kycWorker.start();
        reconciliationWorker.start();
      }
      if (config.WEBHOOK_WORKER_ENABLED) webhookWorker.start();
      if (config.CHAIN_WATCHER_ENABLED) watchers.forEach((w) => w.start());
      if (config.REFUND_WORKER_ENABLED) refunders.forEach((w) => w.start());
      // Live rates refresh on every replica, whatever the worker switches say: pricing needs them.
      await rates.start();
    },
    beginShutdown() {
      shuttingDown = true;
      // Not awaited: `stop` waits for the passes still running.
      for (const worker of [payoutWorker, webhookWorker, kycWorker, reconciliationWorker, screening.reloader, ...refunders.map((r) => r.worker)]) worker.stop().catch(() => undefined);
    },
    async cutOutboundCalls() {
      await Promise.all([live.abort(), transport.destroy(), smileId?.close()]);
    },
    async stop() {
      await Promise.all([payoutWorker.stop(), webhookWorker.stop(), kycWorker.stop(), reconciliationWorker.stop(), screening.reloader.stop(), ...watchers.map((w) => w.stop()), ...refunders.map((w) => w.stop())]);
      // Sends still running after the drain are aborted; each records a failed attempt, retried on schedule.
      await transport.destroy();
      await dispatcher.idle();
      await callbacks.drain();
      await listener.stop();
      await commitNotifier.stop();
      await graphql.stop();
      await counters.close();
      await live.close();
      await smileId?.close();
      await chains.close();
      await rates.stop();
    },
  };
}
