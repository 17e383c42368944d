import { address, signature as toSignature, type Rpc, type SolanaRpcApi } from '@solana/kit';
import type { ChainHeights, ChainReader, ChainTransfer, TransferPresence } from '../../../core/deposits/chain-ports';
import type { TransactionReader, TransactionTransfers } from '../../../core/refunds/hand-sent-check';
import { associatedTokenAccount } from './solana-address-deriver';
import { holdsTransferAt, tokenTransfersOf, type JsonTransaction } from './solana-token-transfers';

/** How the Solana reader scans; see docs/chains.md § Solana reader. */
export interface SolanaReaderSettings {
  /** The watched mints (base58): each owner's associated token account of each is read. */
  readonly mints: readonly string[];
  /** Transactions in slots below this one are never read; undefined: an account's whole history. */
  readonly startSlot?: bigint;
  /** `limit` of each getSignaturesForAddress page (1 … 1000, default 1000). */
  readonly signaturesPerPage?: number;
}

/** The cursor: per token account, the newest signature at or below the finalized slot read (resume with `until`). */
interface Cursor {
  readonly v: 1;
  readonly accounts: Record<string, string>;
}

/** Owners whose associated token accounts are remembered; past this the memory starts again. */
const ATA_CACHE_LIMIT = 50_000;
/** Slot blockhashes remembered (only final ones: a confirmed slot's block could still be replaced). */
const BLOCKHASH_CACHE_LIMIT = 10_000;
/** The SPL Token program (https://spl.solana.com/token): every account it owns is a candidate deposit account. */
const TOKEN_PROGRAM = address('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');

/**
 * The Solana ChainReader (docs/chains.md § Solana reader) over a @solana/kit RPC whose transport
 * fails over between endpoints. For each watched owner it reads the signatures of the owner's
 * associated token account of each watched mint and of every other SPL Token account the owner
 * holds (getTokenAccountsByOwner; getSignaturesForAddress, `confirmed`), then each
 * new successful transaction (getTransaction, `json`), and hands every SPL Token transfer or
 * transferChecked to an account of one of the owners to the core as a transfer to the owner.
 * Heights are the `confirmed` (head) and `finalized` slots. Throws for infrastructure faults (every
 * endpoint failing): the watcher retries the pass from the same cursor.
 *
 * The cursor is JSON: per token account, the newest signature at or below the finalized slot known
 * at the scan. Each scan therefore reads again the account's signatures above the finalized slot,
 * so a transaction a fork moved to another slot comes back at its new place; the same transfer
 * may come back in several scans (the core keys transfers by (chain, signature, index)).
 */
export class SolanaChainReader implements ChainReader, TransactionReader {
  readonly chain = 'SOLANA' as const;
  private lastFinalized?: bigint;
  private readonly atas = new Map<string, string[]>();
  private readonly blockhashes = new Map<bigint, string>();

  constructor(private readonly rpc: Rpc<SolanaRpcApi>, private readonly settings: SolanaReaderSettings) {}

  /** getSlot at `confirmed` (head) and `finalized` (https://solana.com/docs/rpc/http/getslot); finalized is never reported above head. */
  async heights(): Promise<ChainHeights> {
    const head = BigInt(await this.rpc.getSlot({ commitment: 'confirmed' }).send());
    let finalized = BigInt(await this.rpc.getSlot({ commitment: 'finalized' }).send());
    if (finalized > head) finalized = head;
    this.lastFinalized = finalized;
    return { head, finalized };
  }

  /**
   * Transfers to `owners` (base58 owner addresses) in transactions at slots up to `upTo` that are
   * newer than the cursor's signature for each of their token accounts (all of an account's
   * history, from the start slot, when it has none). Reads every account in one scan: any fault
   * throws, and the pass is retried from the cursor given. `scannedTo` is `upTo`. A cursor this
   * reader did not write counts as none.
   */
  async scan(owners: readonly string[], cursor: string | undefined, upTo: bigint): Promise<{ transfers: ChainTransfer[]; cursor: string; scannedTo: bigint }> {
    const previous = parseCursor(cursor);
    const finalized = this.lastFinalized ?? (await this.heights()).finalized;
    const wanted = new Set(owners);
    const next: Record<string, string> = {};
    const signatures = new Map<string, bigint>();
    for (const owner of wanted) {
      for (const account of await this.accountsOf(owner)) {
        const until = previous.accounts[account];
        const found = await this.signaturesSince(account, until);
        const newestFinal = found.find((s) => s.slot <= finalized);
        const resume = newestFinal?.signature ?? until;
        if (resume !== undefined) next[account] = resume;
        for (const s of found) if (s.ok && s.slot <= upTo) signatures.set(s.signature, s.slot);
      }
    }
    const transfers: ChainTransfer[] = [];
    for (const [sig, slot] of [...signatures].sort((a, b) => (a[1] === b[1] ? 0 : a[1] < b[1] ? -1 : 1))) {
      const tx = await this.transaction(sig, 'confirmed');
      if (!tx) throw new Error(`Solana getTransaction: no transaction ${sig} at confirmed although its signature was listed at slot ${slot}`);
      transfers.push(...tokenTransfersOf(tx, wanted, await this.blockhashAt(BigInt(tx.slot), finalized)));
    }
    const seen = new Map(transfers.map((t) => [`${t.txHash}:${t.index}`, t]));
    return { transfers: [...seen.values()], cursor: JSON.stringify({ v: 1, accounts: next } satisfies Cursor), scannedTo: upTo };
  }

  /**
   * Present when getTransaction at `finalized` finds the signature at the same slot, successful,
   * with a token transfer at `index`; absent when it is at another slot, failed or holds none
   * there, or when the node knows no such transaction and its finalized slot has passed `height`.
   * Throws when the node's finalized slot is still below `height` (it is behind). The slot's block
   * hash is not compared: a slot has one finalized block, and the transaction is in it.
   * Source: https://solana.com/docs/rpc/http/gettransaction
   */
  async presence(transfer: Pick<ChainTransfer, 'txHash' | 'index' | 'height' | 'blockHash'>): Promise<TransferPresence> {
    const tx = await this.transaction(transfer.txHash, 'finalized');
    if (tx) return BigInt(tx.slot) === transfer.height && holdsTransferAt(tx, transfer.index) ? 'present' : 'absent';
    const finalized = BigInt(await this.rpc.getSlot({ commitment: 'finalized' }).send());
    if (finalized < transfer.height) throw new Error(`Solana presence: the node's finalized slot ${finalized} is below ${transfer.height}`);
    return 'absent';
  }

  /**
   * The SPL Token transfers to token accounts `owner` holds in transaction `signature`, read with
   * getTransaction at `confirmed` (https://solana.com/docs/rpc/http/gettransaction): none is
   * `not_found`, an error in its meta is `failed`, else `landed` at its slot with those transfers
   * (as the scan reads them; their `blockHash` is not read here and left empty).
   */
  async transfersIn(signature: string, owner: string): Promise<TransactionTransfers> {
    const tx = await this.transaction(signature, 'confirmed');
    if (!tx) return { status: 'not_found' };
    const height = BigInt(tx.slot);
    if (!tx.meta || (tx.meta.err !== null && tx.meta.err !== undefined)) return { status: 'failed', height };
    return { status: 'landed', height, transfers: tokenTransfersOf(tx, new Set([owner]), '') };
  }

  /**
   * The owner's associated token accounts of every watched mint (derived, remembered per process),
   * then every other SPL Token account the owner holds, of any mint, found on each call with
   * getTokenAccountsByOwner at `confirmed` (https://solana.com/docs/rpc/http/gettokenaccountsbyowner;
   * no data is fetched: `dataSlice` of length 0), so a foreign mint sent to the owner is read too
   * and becomes a finding (docs/chains.md § Solana reader).
   */
  private async accountsOf(owner: string): Promise<string[]> {
    let watched = this.atas.get(owner);
    if (!watched) {
      watched = await Promise.all(this.settings.mints.map((mint) => associatedTokenAccount(owner, mint)));
      if (this.atas.size >= ATA_CACHE_LIMIT) this.atas.clear();
      this.atas.set(owner, watched);
    }
    const held = await this.rpc.getTokenAccountsByOwner(address(owner), { programId: TOKEN_PROGRAM }, {
      commitment: 'confirmed', encoding: 'base64', dataSlice: { offset: 0, length: 0 },
    }).send();
    return [...new Set([...watched, ...held.value.map((entry) => String(entry.pubkey))])];
  }

  /**
   * getSignaturesForAddress at `confirmed`, newest first, paged with `before` down to `until`
   * (excluded) or the start slot (https://solana.com/docs/rpc/http/getsignaturesforaddress).
   * `ok` is false for a failed transaction (`err` set).
   */
  private async signaturesSince(account: string, until: string | undefined): Promise<Array<{ signature: string; slot: bigint; ok: boolean }>> {
    const limit = this.settings.signaturesPerPage ?? 1000;
    const start = this.settings.startSlot;
    const all: Array<{ signature: string; slot: bigint; ok: boolean }> = [];
    let before: string | undefined;
    for (;;) {
      const page = await this.rpc.getSignaturesForAddress(address(account), {
        commitment: 'confirmed', limit, ...(until ? { until: toSignature(until) } : {}), ...(before ? { before: toSignature(before) } : {}),
      }).send();
      for (const entry of page) {
        const slot = BigInt(entry.slot);
        if (start !== undefined && slot < start) return all;
        all.push({ signature: entry.signature, slot, ok: entry.err === null });
      }
      if (page.length < limit) return all;
      before = page[page.length - 1]!.signature;
    }
  }

  private async transaction(sig: string, commitment: 'confirmed' | 'finalized'): Promise<JsonTransaction | null> {
    const tx = await this.rpc.getTransaction(toSignature(sig), { commitment, encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
    return tx as unknown as JsonTransaction | null;
  }

  /** The blockhash of the block at `slot` (getBlock without transactions); remembered once the slot is final. */
  private async blockhashAt(slot: bigint, finalized: bigint): Promise<string> {
    const known = this.blockhashes.get(slot);
    if (known) return known;
    const block = await this.rpc.getBlock(slot, { commitment: 'confirmed', transactionDetails: 'none', rewards: false, maxSupportedTransactionVersion: 0 }).send();
    if (!block) throw new Error(`Solana getBlock: no block at slot ${slot}`);
    if (slot <= finalized) {
      if (this.blockhashes.size >= BLOCKHASH_CACHE_LIMIT) this.blockhashes.clear();
      this.blockhashes.set(slot, block.blockhash);
    }
    return block.blockhash;
  }
}

/**
 * The per-account signatures of a cursor this reader wrote. Any other text (another reader's, a
 * fake chain's, a damaged row) reads as no cursor: every account is read from its history again,
 * which costs calls but loses nothing (the core keys transfers), where refusing would stop the
 * watcher for good.
 */
function parseCursor(cursor: string | undefined): Cursor {
  let parsed: Partial<Cursor> | undefined;
  try {
    parsed = cursor === undefined ? undefined : (JSON.parse(cursor) as Partial<Cursor>);
  } catch {
    parsed = undefined;
  }
  const accounts = parsed?.v === 1 && typeof parsed.accounts === 'object' && parsed.accounts !== null ? parsed.accounts : {};
  return { v: 1, accounts: Object.fromEntries(Object.entries(accounts).filter(([, s]) => typeof s === 'string')) };
}
