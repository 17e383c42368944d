import { defineConfig, type Options } from '@mikro-orm/postgresql';
import path from 'node:path';
import type { Logger } from 'pino';
import { PinoOrmLogger } from './orm-logger';
import { PaymentSchema } from './schemas/payment.schema';
import { QuoteSchema } from './schemas/quote.schema';
import { ApiKeySchema, TenantSchema } from './schemas/tenant.schema';
import { IdempotencyKeySchema, OutboxEventSchema } from './schemas/outbox.schema';
import { WebhookDeliverySchema, WebhookRegistrationSchema } from './schemas/webhook.schema';
import { LedgerAccountSchema, LedgerEntrySchema, LedgerTransactionSchema } from './schemas/ledger.schema';
import { TransferRequestSchema } from './schemas/transfer-request.schema';
import { CustomerSchema } from './schemas/customer.schema';
import { DepositSchema } from './schemas/deposit.schema';
import { ChainWatcherSchema, DepositAddressSchema, DepositFindingSchema } from './schemas/chain-deposit.schema';
import { ReconciliationCheckSchema } from './schemas/reconciliation-check.schema';
import { OnchainRefundSchema } from './schemas/onchain-refund.schema';
import { ProviderEventSchema } from './schemas/provider-event.schema';
import { KycCheckSchema } from './schemas/kyc-check.schema';

/** Every mapped table; the migrations snapshot is diffed against these. */
export const ENTITIES = [PaymentSchema, QuoteSchema, TenantSchema, ApiKeySchema, OutboxEventSchema, IdempotencyKeySchema,
  WebhookRegistrationSchema, WebhookDeliverySchema, LedgerAccountSchema, LedgerTransactionSchema, LedgerEntrySchema,
  TransferRequestSchema, CustomerSchema, DepositSchema, ReconciliationCheckSchema, ProviderEventSchema, OnchainRefundSchema,
  DepositAddressSchema, ChainWatcherSchema, DepositFindingSchema, KycCheckSchema];

const ROOT = path.resolve(__dirname, '../../..');

/**
 * MikroORM options for `clientUrl` (docs/decisions.md § Running it). `poolMax` caps pooled connections.
 * Migrations live in `migrations/` at the repository root and run in code at start; MikroORM loads
 * its migrator (`@mikro-orm/migrations`) at the first `orm.getMigrator()`, so a process that finds
 * nothing to migrate never loads it (migration-status.ts). With `logger`,
 * MikroORM's own output (the migrator's lines) goes through it as JSON; without, MikroORM prints
 * its coloured text (the MikroORM CLI and tests). `snapshot`: keep migrations/.snapshot-payout.json
 * current (the CLI only).
 */
export function ormOptions(clientUrl: string, poolMax = 10, logger?: Logger, snapshot = false): Options {
  return defineConfig({
    clientUrl,
    ...(logger ? { loggerFactory: (options) => new PinoOrmLogger(options, logger) } : {}),
    entities: ENTITIES,
    pool: { min: 0, max: poolMax },
    // No JIT compilation: every statement here is short, and PostgreSQL compiles whenever a plan's
    // estimated cost passes jit_above_cost, which the webhook claim's per-lane plan does while it
    // runs in a few ms (docs/decisions.md § Performance).
    driverOptions: { connection: { options: '-c jit=off' } },
    discovery: { warnWhenNoEntities: false },
    preferTs: __filename.endsWith('.ts'),
    allowGlobalContext: false,
    debug: false,
    migrations: {
      path: path.join(ROOT, 'migrations'),
      pathTs: path.join(ROOT, 'migrations'),
      glob: '!(*.d).{js,ts}',
      emit: 'ts',
      transactional: true,
      allOrNothing: true,
      // Only the CLI's migration:create needs the snapshot: written on every migrator run it would
      // be rewritten by each start and test, with partial schemas by the migration tests.
      snapshot,
      snapshotName: '.snapshot-payout',
    },
  });
}

// The MikroORM CLI (`npm run migration:create`) reads this default export.
export default ormOptions(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/payout_dev', 10, undefined, true);
