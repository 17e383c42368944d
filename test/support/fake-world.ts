/**
 * The use cases' dependencies built on the in-memory fakes (test/support/fakes.ts) and the
 * service's own corridor catalog, for unit tests of createMoneyOut and the payout worker.
 */
import path from 'node:path';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { CatalogRateSource } from '../../src/adapters/providers/catalog-rate-source';
import type { AdvanceDeps } from '../../src/core/payments/advance-payment';
import type { MoneyOutDeps } from '../../src/core/payments/create-money-out';
import { eip55Checksum } from '../../src/adapters/chains/eip55-checksum';
import type { MoneyOutCommand } from '../../src/core/payments/money-out-rules';
import type { Payment } from '../../src/core/payments/payment';
import type { UnknownStatusSeen } from '../../src/core/payments/payout-provider';
import { err } from '../../src/core/shared/result';
import { FakeRouting, FixedClock, MemoryStore, ScriptedProvider, SequentialIds } from './fakes';

export const catalog = loadCatalog(path.resolve(__dirname, '../../data/corridors.json'));

export const TENANT = 'ten_A';
export const OTHER_TENANT = 'ten_B';
export const LIVE_TENANT = 'ten_LIVE';

/** A KES 1,500 M-Pesa money-out in USDC on Solana: 12.115416 USDC at the catalog's rate and fees. */
export const KES_1500_USDC = '12.115416';

/** A valid KES mobile-money command (the interface example); `overrides` replace fields. */
export function command(overrides: Partial<MoneyOutCommand> = {}): MoneyOutCommand {
  return {
    fiatAmount: 1500, sourceCurrency: 'USDC', destinationCurrency: 'KES', country: 'KE', blockchain: 'SOLANA',
    paymentMethod: 'MOMO', accountName: 'Jane Wanjiku', accountNumber: '254712345678', paymentCode: 'MPESA',
    reference: 'order-1', refundAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', optionalIssuerFee: 'NO',
    ...overrides,
  };
}

/** The fakes wired together; tenants TENANT and OTHER_TENANT are sandbox, LIVE_TENANT live. */
export interface FakeWorld {
  readonly clock: FixedClock;
  readonly ids: SequentialIds;
  readonly store: MemoryStore;
  readonly provider: ScriptedProvider;
  readonly routing: FakeRouting;
  /** Payment ids passed to onPaymentCreated, in order. */
  readonly created: string[];
  /** Payments passed to onPaymentMoved, in order. */
  readonly moved: Payment[];
  /** Provider statuses recorded as unknown (AdvanceDeps.unknownStatuses), in order. */
  readonly unknownStatuses: UnknownStatusSeen[];
  readonly moneyOut: MoneyOutDeps;
  readonly advance: AdvanceDeps;
}

/** A fresh world. The fingerprint is the canonical request itself, so tests can read what was fingerprinted. */
export function fakeWorld(settings: { idempotencyTtlHours?: number; leaseMs?: number } = {}): FakeWorld {
  const clock = new FixedClock();
  const ids = new SequentialIds();
  const store = new MemoryStore(clock, ids);
  const provider = new ScriptedProvider();
  const routing = new FakeRouting(provider).add(TENANT).add(OTHER_TENANT).add(LIVE_TENANT, 'live');
  const created: string[] = [];
  const moved: Payment[] = [];
  const unknownStatuses: UnknownStatusSeen[] = [];
  const moneyOut: MoneyOutDeps = {
    catalog, rates: new CatalogRateSource(catalog), uow: store, oneTrip: store.oneTrip, clock, ids, routing, environments: routing,
    idempotencyTtlHours: settings.idempotencyTtlHours ?? 24,
    fingerprintOf: (canonical) => canonical,
    onPaymentCreated: (id) => created.push(id),
    refundAddresses: { eip55: eip55Checksum, depositAddresses: { isDepositAddress: async () => false }, hotWallets: [] },
  };
  const advance: AdvanceDeps = {
    uow: store, queue: store.queue, payments: store.reader, clock, ids, routing, environments: routing,
    leaseMs: settings.leaseMs ?? 30_000,
    onPaymentMoved: (payment) => moved.push(payment),
    unknownStatuses: { recordUnknownStatus: async (seen) => void unknownStatuses.push(seen) },
  };
  return { clock, ids, store, provider, routing, created, moved, unknownStatuses, moneyOut, advance };
}

/**
 * Holds the idempotency lock of (tenantId, key) in an open transaction of `store`, as a first
 * request still in flight does; `release` rolls that transaction back (nothing written) and waits for it.
 */
export async function holdIdempotencyKey(store: MemoryStore, tenantId: string, key: string): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const holding = store.transact(async (tx) => {
    await tx.idempotency.lock(tenantId, key);
    await new Promise<void>((resolve) => (release = resolve));
    return err('validation_error', 'rolled back');
  });
  await new Promise((r) => setImmediate(r));
  return { release: async () => { release(); await holding; } };
}
