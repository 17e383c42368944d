import type { Blockchain } from '../catalog/catalog';
import type { KeysetPage } from '../shared/keyset-page';
import type { Stablecoin } from '../shared/money';
import type { Deposit, DepositFinding, DepositStatus } from './deposit';

/**
 * Ports of the deposit use cases (docs/decisions.md § Onchain deposits): the register written
 * inside a transaction, reads, the deposit address registry and the chain watchers' cursors.
 */

/** What a guarded move changes on a deposit row; absent members stay as they are. */
export interface DepositPatch {
  readonly status?: DepositStatus;
  readonly height?: bigint;
  readonly blockHash?: string;
  readonly ledgerTransactionId?: string | null;
  readonly creditedAt?: Date | null;
  readonly droppedAt?: Date | null;
}

/** Where a watcher stands on one chain, as the last pass stored it. */
export interface ChainCursor {
  readonly chain: Blockchain;
  /** The chain reader's own resume point (opaque to the core); null before the first scan. */
  readonly cursor: string | null;
  /** Highest block or slot scanned; null before the first scan. */
  readonly scannedTo: bigint | null;
  /** Head and finalized heights the last pass read. */
  readonly head: bigint;
  readonly finalized: bigint;
  /** When the last pass read those heights. */
  readonly heightsAt: Date;
  /** When a pass last ended with everything up to the head scanned; null until one did. */
  readonly caughtUpAt: Date | null;
}

/** Port: the deposit register inside the caller's transaction (TransactionContext.deposits). */
export interface DepositStore {
  /**
   * Records `deposit` unless its (blockchain, txHash, index) is already recorded, for any tenant:
   * `duplicate` then, and nothing is written. A concurrent insert of the same key waits for the
   * first to commit or roll back, so exactly one of them is `inserted`.
   */
  insert(deposit: Deposit): Promise<'inserted' | 'duplicate'>;
  /**
   * Applies `patch` to deposit `id` if it is still in status `from` (and, when `at` is given, still
   * at that height and block hash): the guard that makes a credit happen once whatever runs
   * concurrently. Returns the deposit as changed, or undefined when the guard did not hold.
   */
  move(id: string, from: DepositStatus, patch: DepositPatch, at?: { height: bigint; blockHash: string }): Promise<Deposit | undefined>;
  /** Records a finding unless one with its (blockchain, txHash, index) exists. */
  recordFinding(finding: DepositFinding): Promise<'inserted' | 'duplicate'>;
  /**
   * Stores where the watcher of `cursor.chain` stands, if `holder` still holds that chain's lease
   * (docs/decisions.md § Onchain deposits: watchers); `lease_lost` otherwise, and nothing is written.
   */
  saveCursor(cursor: ChainCursor, holder: string): Promise<'saved' | 'lease_lost'>;
}

/** Filters of a deposit list; they combine with AND, list members match any of their values. */
export interface DepositListFilter {
  readonly blockchain?: readonly Blockchain[];
  readonly currency?: readonly Stablecoin[];
  readonly status?: readonly DepositStatus[];
  /** Detected (or, for a correction, recorded) at or after this instant. */
  readonly createdFrom?: Date;
  /** Detected before this instant. */
  readonly createdTo?: Date;
}

/** Port: deposit reads outside transactions. */
export interface DepositReader {
  /** One deposit of the tenant; undefined when the tenant has none with that id. */
  findForTenant(tenantId: string, depositId: string): Promise<Deposit | undefined>;
  /** The tenant's deposits, newest first by (createdAt, id); `bad_cursor` for a cursor this store did not issue. */
  listForTenant(tenantId: string, limit: number, filter: DepositListFilter, cursor?: string): Promise<KeysetPage<Deposit> | 'bad_cursor'>;
  /** The deposits of `chain` with one of these (txHash, index) keys. */
  findByKeys(chain: Blockchain, keys: ReadonlyArray<{ txHash: string; index: number }>): Promise<Deposit[]>;
  /**
   * Detected deposits of `chain` at or below `height`, lowest (height, id) first, after `after`
   * when given, at most `limit`: the ones whose finality has come.
   */
  detectedUpTo(chain: Blockchain, height: bigint, limit: number, after?: { height: bigint; id: string }): Promise<Deposit[]>;
  /** The stored position of the watcher of `chain`; undefined before its first pass. */
  cursorOf(chain: Blockchain): Promise<ChainCursor | undefined>;
  /** The newest head each chain's watcher has seen (for confirmations). */
  heads(): Promise<ReadonlyMap<Blockchain, bigint>>;
}

/** Port: findings for operators (GET /v1/admin/deposit-findings), newest first. */
export interface DepositFindingReader {
  listFindings(limit: number): Promise<DepositFinding[]>;
}

/**
 * A tenant's deposit address on a chain: BIP-32 child (BSC) or owner key (Solana) `index` of the
 * key `keyId` (docs/decisions.md § Onchain deposits: addresses). Never changes, never serves two
 * tenants, and its index is never used again on that chain.
 */
export interface DepositAddress {
  readonly tenantId: string;
  readonly blockchain: Blockchain;
  /** Which key derived it: a chain's configured key, or the development key. */
  readonly keyId: string;
  readonly index: number;
  /** As the deriver wrote it (BSC's mixed-case checksum form, Solana base58). */
  readonly address: string;
  readonly createdAt: Date;
}

/** Port: the deposit address registry (PostgreSQL: unique per tenant, chain and key; per chain and address; per chain and index). */
export interface DepositAddressRegistry {
  /** The tenant's address on `chain` under `keyId`, if it has one. */
  find(tenantId: string, chain: Blockchain, keyId: string): Promise<DepositAddress | undefined>;
  /** A derivation index of `chain` nobody got before and nobody will get again (a sequence, never reused). */
  allocateIndex(chain: Blockchain): Promise<number>;
  /**
   * Stores `address` unless the tenant already has one on that chain under that key (a
   * concurrent first read): `exists` then, and nothing is written. Throws when the address or
   * the index already serves someone (a deriver or sequence fault: never hand out a shared address).
   */
  insert(address: DepositAddress): Promise<'inserted' | 'exists'>;
  /** Every address of `chain` under `keyId`: what the watcher looks for. */
  onChain(chain: Blockchain, keyId: string): Promise<DepositAddress[]>;
}
