/**
 * In-memory stand-ins at the edge of the deposit core (docs/architecture.md): a scripted chain
 * behind the ChainReader port (blocks, finality, reorganisations, repeated answers), a
 * deterministic address deriver, and the deposit reads and address registry over a MemoryStore.
 * The e2e tests use FakeChain and TestDeriver too: the ChainReader and DepositAddressDeriver ports
 * are where the service meets a chain; our own storage is always the real PostgreSQL there.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Blockchain } from '../../src/core/catalog/catalog';
import type { ChainHeights, ChainReader, ChainTransfer, DepositAddressDeriver, TransferPresence } from '../../src/core/deposits/chain-ports';
import type { Deposit } from '../../src/core/deposits/deposit';
import type { ChainCursor, DepositAddress, DepositAddressRegistry, DepositListFilter, DepositReader } from '../../src/core/deposits/deposit-ports';
import type { KeysetPage } from '../../src/core/shared/keyset-page';
import type { Stablecoin } from '../../src/core/shared/money';
import type { MemoryStore } from './fakes';
import { base58Encode } from './tx-hashes';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** A transfer as a test sends it: where it goes and how much; the chain fills in the rest. */
export interface SentTransfer {
  readonly to: string;
  readonly token: string;
  readonly units: bigint;
  readonly decimals?: number;
  readonly from?: string;
  /** Transfers with the same `tx` share a transaction (their indexes follow each other). */
  readonly tx?: string;
}

interface Block {
  readonly hash: string;
  readonly transfers: ChainTransfer[];
}

/**
 * A chain the test drives: `mine` appends a block, `finalize` moves the finalized height, `reorg`
 * replaces blocks from a height with empty ones (new hashes). `scan` reads the canonical blocks
 * after its cursor (the last height scanned, as text), at most `maxRange` blocks per call; every
 * call is counted. `repeatAnswers` answers every transfer twice, as a misbehaving RPC might.
 */
export class FakeChain implements ChainReader {
  private readonly blocks = new Map<bigint, Block>();
  private head = 0n;
  private final = 0n;
  private forks = 0;
  private txCount = 0;
  repeatAnswers = false;
  maxRange = 1_000_000n;
  /** Throws from the next calls while set (an RPC outage). */
  failure?: Error;
  readonly calls = { heights: 0, scan: 0, presence: 0 };

  /** `name` seeds its hashes: distinct chains (the default) never share a transaction hash, even across test files on one database. */
  constructor(readonly chain: Blockchain, readonly name: string = randomUUID()) {}

  /** Appends one block holding `transfers` and returns it (height, hash, the transfers as read). */
  mine(...transfers: SentTransfer[]): { height: bigint; hash: string; transfers: ChainTransfer[] } {
    const height = ++this.head;
    const hash = this.blockHash(height);
    const hashes = new Map<string, string>();
    const counters = new Map<string, number>();
    const read = transfers.map((t, position): ChainTransfer => {
      const tag = t.tx ?? `solo-${position}`;
      if (!hashes.has(tag)) hashes.set(tag, this.txHash(`${this.name}-${++this.txCount}`));
      const txHash = hashes.get(tag)!;
      // BSC's logIndex counts logs in the block; Solana's index counts instructions in the transaction.
      const index = this.chain === 'BSC' ? position : (counters.get(tag) ?? 0);
      counters.set(tag, index + 1);
      return {
        chain: this.chain, txHash, index, height, blockHash: hash, token: t.token, from: t.from ?? this.sender(), to: t.to,
        units: t.units, decimals: t.decimals ?? (this.chain === 'BSC' ? 18 : 6),
      };
    });
    this.blocks.set(height, { hash, transfers: read });
    return { height, hash, transfers: read };
  }

  /** Empty blocks up to `height`. */
  mineTo(height: bigint): void {
    while (this.head < height) this.mine();
  }

  /** Finalizes up to `height` (at most the head). */
  finalize(height: bigint = this.head): void {
    this.final = height < this.head ? height : this.head;
  }

  /** Replaces the blocks from `height` to the head by blocks of new hashes holding `keep` of their transfers, moved by `shift` blocks. */
  reorg(height: bigint, keep: (t: ChainTransfer) => boolean = () => false, shift = 0n): void {
    if (height <= this.final) throw new Error('a finalized block cannot be reorganised');
    this.forks++;
    const moved: ChainTransfer[] = [];
    for (let h = height; h <= this.head; h++) moved.push(...(this.blocks.get(h)?.transfers ?? []).filter(keep));
    const top = this.head + shift;
    for (let h = height; h <= top; h++) this.blocks.set(h, { hash: this.blockHash(h), transfers: [] });
    this.head = top;
    for (const t of moved) {
      const at = t.height + shift;
      const block = this.blocks.get(at)!;
      block.transfers.push({ ...t, height: at, blockHash: block.hash });
    }
  }

  /** Includes `transfer` again (same hash and index) in the canonical block at `height`, mining up to it first. */
  reinclude(transfer: ChainTransfer, height: bigint): void {
    this.mineTo(height);
    const block = this.blocks.get(height)!;
    block.transfers.push({ ...transfer, height, blockHash: block.hash });
  }

  async heights(): Promise<ChainHeights> {
    this.calls.heights++;
    this.fault();
    return { head: this.head, finalized: this.final };
  }

  async scan(addresses: readonly string[], cursor: string | undefined, upTo: bigint): Promise<{ transfers: ChainTransfer[]; cursor: string; scannedTo: bigint }> {
    this.calls.scan++;
    this.fault();
    const from = cursor === undefined ? 1n : BigInt(cursor) + 1n;
    const last = upTo < from + this.maxRange - 1n ? upTo : from + this.maxRange - 1n;
    const ours = new Set(addresses.map((a) => this.key(a)));
    const transfers: ChainTransfer[] = [];
    for (let h = from; h <= last; h++) {
      for (const t of this.blocks.get(h)?.transfers ?? []) if (ours.has(this.key(t.to))) transfers.push(...(this.repeatAnswers ? [t, t] : [t]));
    }
    const scannedTo = last < from ? from - 1n : last;
    return { transfers, cursor: String(scannedTo), scannedTo };
  }

  async presence(transfer: Pick<ChainTransfer, 'txHash' | 'index' | 'height' | 'blockHash'>): Promise<TransferPresence> {
    this.calls.presence++;
    this.fault();
    const block = this.blocks.get(transfer.height);
    const there = block?.hash === transfer.blockHash && block.transfers.some((t) => t.txHash === transfer.txHash && t.index === transfer.index);
    return there ? 'present' : 'absent';
  }

  private fault(): void {
    if (this.failure) throw this.failure;
  }

  private key(address: string): string {
    return this.chain === 'BSC' ? address.toLowerCase() : address;
  }

  private blockHash(height: bigint): string {
    const bytes = digest(`${this.name}-${this.chain}-block-${height}-fork-${this.forks}`);
    return this.chain === 'BSC' ? `0x${bytes.toString('hex')}` : base58Encode(bytes);
  }

  private txHash(seed: string): string {
    return this.chain === 'BSC'
      ? `0x${digest(seed).toString('hex')}`
      : base58Encode(Buffer.concat([digest(`${seed}-a`), digest(`${seed}-b`)]));
  }

  private sender(): string {
    return this.chain === 'BSC' ? '0x00000000000000000000000000000000000051e4' : base58Encode(digest('sender'));
  }
}

/**
 * Deterministic addresses for tests: BSC a mixed-case hex address from a hash of (seed, index),
 * Solana base58 of such a hash; Solana's token account per currency is another hash.
 */
export class TestDeriver implements DepositAddressDeriver {
  constructor(private readonly seed = 'test') {}

  addressAt(chain: Blockchain, index: number): string {
    const bytes = digest(`${this.seed}-${chain}-${index}`);
    if (chain === 'SOLANA') return base58Encode(bytes);
    const hex = bytes.subarray(0, 20).toString('hex');
    return `0x${[...hex].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('')}`;
  }

  paymentAddress(chain: Blockchain, currency: Stablecoin, address: string): string {
    return chain === 'BSC' ? address : base58Encode(digest(`${address}-${currency}`));
  }
}

/** DepositReader over a MemoryStore's deposits and cursors; `heads` are the cursors' heads. */
export function memoryDepositReader(store: MemoryStore): DepositReader {
  const newestFirst = (a: Deposit, b: Deposit) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1);
  return {
    findForTenant: async (tenantId, id) => store.deposits.find((d) => d.id === id && d.tenantId === tenantId),
    listForTenant: async (tenantId, limit, filter: DepositListFilter, cursor): Promise<KeysetPage<Deposit> | 'bad_cursor'> => {
      const rows = store.deposits.filter((d) => d.tenantId === tenantId
        && (!filter.blockchain?.length || filter.blockchain.includes(d.blockchain))
        && (!filter.currency?.length || filter.currency.includes(d.currency))
        && (!filter.status?.length || filter.status.includes(d.status))
        && (!filter.createdFrom || d.createdAt >= filter.createdFrom)
        && (!filter.createdTo || d.createdAt < filter.createdTo)).sort(newestFirst);
      const start = cursor === undefined ? 0 : rows.findIndex((d) => d.id === cursor) + 1;
      if (start === 0 && cursor !== undefined) return 'bad_cursor';
      const entries = rows.slice(start, start + limit);
      const more = rows.length > start + limit;
      return { entries, cursors: entries.map((d) => d.id), ...(more ? { nextCursor: entries[entries.length - 1]!.id } : {}) };
    },
    findByKeys: async (chain, keys) => store.deposits.filter((d) => d.blockchain === chain && keys.some((k) => k.txHash === d.txHash && k.index === d.index)),
    detectedUpTo: async (chain, height, limit, after) => store.deposits
      .filter((d) => d.blockchain === chain && d.status === 'detected' && d.height !== null && d.height <= height
        && (!after || d.height > after.height || (d.height === after.height && d.id > after.id)))
      .sort((a, b) => (a.height! < b.height! ? -1 : a.height! > b.height! ? 1 : a.id < b.id ? -1 : 1))
      .slice(0, limit),
    cursorOf: async (chain): Promise<ChainCursor | undefined> => store.cursors.get(chain),
    heads: async () => new Map([...store.cursors.values()].map((c) => [c.chain, c.head])),
  };
}

/** The address registry in memory, with the PostgreSQL rules: one address per tenant, chain and key; a sequence per chain. */
export class MemoryAddressRegistry implements DepositAddressRegistry {
  readonly rows: DepositAddress[] = [];
  private readonly next = new Map<Blockchain, number>();

  async find(tenantId: string, chain: Blockchain, keyId: string): Promise<DepositAddress | undefined> {
    return this.rows.find((r) => r.tenantId === tenantId && r.blockchain === chain && r.keyId === keyId);
  }

  async allocateIndex(chain: Blockchain): Promise<number> {
    const index = this.next.get(chain) ?? 0;
    this.next.set(chain, index + 1);
    return index;
  }

  async insert(address: DepositAddress): Promise<'inserted' | 'exists'> {
    // Checked and written without yielding, as the unique index decides it in one statement.
    if (this.rows.some((r) => r.tenantId === address.tenantId && r.blockchain === address.blockchain && r.keyId === address.keyId)) return 'exists';
    if (this.rows.some((r) => r.blockchain === address.blockchain && (r.index === address.index || r.address.toLowerCase() === address.address.toLowerCase()))) {
      throw new Error(`address or index of ${address.blockchain} already serves someone`);
    }
    this.rows.push(address);
    return 'inserted';
  }

  async onChain(chain: Blockchain, keyId: string): Promise<DepositAddress[]> {
    return this.rows.filter((r) => r.blockchain === chain && r.keyId === keyId);
  }
}
