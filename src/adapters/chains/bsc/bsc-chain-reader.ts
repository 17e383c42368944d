import {
  BaseError, BlockNotFoundError, HttpRequestError, TimeoutError, TransactionReceiptNotFoundError, erc20Abi,
  type Hex, type PublicClient, type RpcLog,
} from 'viem';
import type { ChainHeights, ChainReader, ChainTransfer, TransferPresence } from '../../../core/deposits/chain-ports';
import type { TransactionReader, TransactionTransfers } from '../../../core/refunds/hand-sent-check';
import { TRANSFER_TOPIC, addressTopic, decodeTransferLog, isRangeRefusal, type DecodedTransfer } from './bsc-transfer-logs';

/** How the reader scans; see docs/chains.md § BSC reader. */
export interface BscReaderSettings {
  /** Blocks behind the head counted final when the node has no `finalized` tag. */
  readonly confirmations: number;
  /** First block when no cursor is given; undefined: the block after the finalized one. */
  readonly startBlock?: bigint;
  /** Widest `eth_getLogs` block range; ranges start here, halve on refusal, grow back to it. */
  readonly scanRange: number;
  /** Decimals of the tokens we know (lower-case contract → decimals): no call is made for them. */
  readonly knownDecimals: ReadonlyMap<string, number>;
  /** Recipient addresses per `eth_getLogs` topic filter (default 500). */
  readonly addressesPerRequest?: number;
  /** Block ranges one `scan` call reads at most before it returns its progress (default 50). */
  readonly rangesPerScan?: number;
  /** Checked before each call: throws when an endpoint serves another chain (see BscEndpointGuard). */
  readonly guard?: { check(): Promise<void> };
}

/** The fields of a raw `eth_getTransactionReceipt` answer this reader reads. */
interface RpcReceipt {
  readonly blockNumber: Hex;
  /** `0x1` success, `0x0` reverted (post-Byzantium receipts). */
  readonly status: Hex;
  readonly logs: RpcLog[];
}

/** Successful ranges in a row after which a halved range doubles again (up to `scanRange`). */
const GROW_AFTER = 4;
/** Foreign tokens whose decimals are remembered; past this the memory starts again. */
const DECIMALS_CACHE_LIMIT = 10_000;

/**
 * The BSC ChainReader (docs/chains.md § BSC reader) over a viem public client whose transport
 * fails over between RPC endpoints. Reads ERC-20 `Transfer` logs of every contract to our
 * addresses (so foreign tokens are seen), the head and the `finalized` block, and answers whether
 * a transfer is still where it was seen. Throws only for infrastructure faults (every endpoint
 * failing, a node without the block asked for); the watcher retries from the same cursor.
 *
 * The cursor is the last block fully scanned, as decimal text. Each scan also reads again the
 * blocks above the newest finalized height it knows (from `heights()`), so a transfer that a
 * reorganisation moved to another block or log index below the cursor is returned at its new
 * place; the same transfer may therefore come back in several scans (the core keys transfers by
 * (chain, txHash, index)).
 */
export class BscChainReader implements ChainReader, TransactionReader {
  readonly chain = 'BSC' as const;
  private range: number;
  private successes = 0;
  private lastFinalized?: bigint;
  private readonly foreignDecimals = new Map<string, number>();

  constructor(private readonly client: PublicClient, private readonly settings: BscReaderSettings) {
    this.range = settings.scanRange;
  }

  /** The current `eth_getLogs` block range (for tests and logs): halves on refusal, grows back after successes. */
  get currentRange(): number {
    return this.range;
  }

  /**
   * `eth_blockNumber`, and `eth_getBlockByNumber("finalized")` (BSC fast finality, BEP-126:
   * https://docs.bnbchain.org/bnb-smart-chain/developers/json_rpc/bsc-api-list/). When the node
   * answers the finalized tag with an error or no block, finalized = head − confirmations (at
   * least 0). Finalized is never reported above head (two endpoints may answer the two calls).
   */
  async heights(): Promise<ChainHeights> {
    await this.settings.guard?.check();
    const head = await this.client.getBlockNumber({ cacheTime: 0 });
    let finalized: bigint;
    try {
      finalized = (await this.client.getBlock({ blockTag: 'finalized' })).number;
    } catch (error) {
      if (!noFinalizedTag(error)) throw error;
      const confirmations = BigInt(this.settings.confirmations);
      finalized = head > confirmations ? head - confirmations : 0n;
    }
    if (finalized > head) finalized = head;
    this.lastFinalized = finalized;
    return { head, finalized };
  }

  /**
   * Transfers to `addresses` (lower- or mixed-case `0x` addresses) in the blocks after `cursor`
   * up to `upTo`, plus the blocks above the last known finalized height (see the class comment).
   * Reads at most `rangesPerScan` ranges, then returns: `cursor` and `scannedTo` are the last
   * block read in full (never below the cursor given). A range an RPC refuses is halved and asked
   * again; a range refused at one block, or any other fault, ends the scan with the progress made
   * so far, or throws when nothing was read. Throws for a malformed cursor or address (a bug).
   */
  async scan(addresses: readonly string[], cursor: string | undefined, upTo: bigint): Promise<{ transfers: ChainTransfer[]; cursor: string; scannedTo: bigint }> {
    for (const address of addresses) {
      if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error('BSC scan: an address is not 0x and 40 hexadecimal digits');
    }
    if (cursor !== undefined && !/^\d+$/.test(cursor)) throw new Error(`BSC scan: cursor must be a block number, got "${cursor}"`);
    await this.settings.guard?.check();
    const given = cursor === undefined ? undefined : BigInt(cursor);
    const from = given === undefined ? await this.firstBlock() : this.rescanFrom(given);
    const wanted = new Set(addresses.map((a) => a.toLowerCase()));
    const chunks = chunk([...wanted], this.settings.addressesPerRequest ?? 500);
    const found = new Map<string, ChainTransfer>();
    let scannedTo = from - 1n;
    // Nobody to watch: nothing to ask the node, the range is read.
    if (wanted.size === 0 && upTo > scannedTo) scannedTo = upTo;
    let ranges = 0;
    while (scannedTo < upTo && ranges < (this.settings.rangesPerScan ?? 50)) {
      const lo = scannedTo + 1n;
      const hi = lo + BigInt(this.range) - 1n < upTo ? lo + BigInt(this.range) - 1n : upTo;
      let decoded: DecodedTransfer[];
      try {
        decoded = await this.transfersBetween(lo, hi, chunks, wanted);
      } catch (error) {
        if (isRangeRefusal(error) && this.range > 1) {
          this.range = Math.max(1, Math.floor(this.range / 2));
          this.successes = 0;
          continue;
        }
        if (scannedTo >= from) break;
        throw error;
      }
      let complete: ChainTransfer[];
      try {
        complete = await Promise.all(decoded.map(async (t) => ({ ...t, decimals: await this.decimalsOf(t.token) })));
      } catch (error) {
        if (scannedTo >= from) break;
        throw error;
      }
      for (const transfer of complete) found.set(`${transfer.txHash}:${transfer.index}`, transfer);
      scannedTo = hi;
      ranges++;
      if (++this.successes >= GROW_AFTER && this.range < this.settings.scanRange) {
        this.range = Math.min(this.settings.scanRange, this.range * 2);
        this.successes = 0;
      }
    }
    const reached = given !== undefined && given > scannedTo ? given : scannedTo;
    const transfers = [...found.values()].sort((a, b) => (a.height === b.height ? a.index - b.index : a.height < b.height ? -1 : 1));
    return { transfers, cursor: reached.toString(), scannedTo: reached };
  }

  /**
   * `eth_getTransactionReceipt`: present when the receipt is in the block `blockHash` at `height`
   * and holds a log at `index`; absent when the receipt is in another block, or there is none and
   * the node's block at `height` is another one. Throws when there is no receipt and the node has
   * no block at `height` yet (it is behind), or still has `blockHash` there (it cannot answer).
   * Source: https://ethereum.org/en/developers/docs/apis/json-rpc/#eth_gettransactionreceipt
   */
  async presence(transfer: Pick<ChainTransfer, 'txHash' | 'index' | 'height' | 'blockHash'>): Promise<TransferPresence> {
    await this.settings.guard?.check();
    const blockHash = transfer.blockHash.toLowerCase();
    let receipt;
    try {
      receipt = await this.client.getTransactionReceipt({ hash: transfer.txHash as Hex });
    } catch (error) {
      if (!(error instanceof BaseError && error.walk((e) => e instanceof TransactionReceiptNotFoundError))) throw error;
    }
    if (receipt) {
      if (receipt.blockHash.toLowerCase() !== blockHash || receipt.blockNumber !== transfer.height) return 'absent';
      return receipt.logs.some((log) => log.logIndex === transfer.index && !log.removed) ? 'present' : 'absent';
    }
    let block;
    try {
      block = await this.client.getBlock({ blockNumber: transfer.height });
    } catch (error) {
      if (!(error instanceof BaseError && error.walk((e) => e instanceof BlockNotFoundError))) throw error;
    }
    if (!block) throw new Error(`BSC presence: the node has no block ${transfer.height} yet`);
    if (block.hash.toLowerCase() === blockHash) {
      throw new Error(`BSC presence: block ${transfer.height} is unchanged but the node has no receipt for the transaction`);
    }
    return 'absent';
  }

  /**
   * The ERC-20 `Transfer` logs to `address` in transaction `txHash`, from its receipt
   * (`eth_getTransactionReceipt`, raw): none is `not_found` (unknown, dropped or pending), status
   * `0x0` is `failed`, else `landed` at its block with those transfers (decoded as the scan decodes
   * them, each with its token's decimals). Source:
   * https://ethereum.org/en/developers/docs/apis/json-rpc/#eth_gettransactionreceipt
   */
  async transfersIn(txHash: string, address: string): Promise<TransactionTransfers> {
    await this.settings.guard?.check();
    const receipt = await this.client.request({ method: 'eth_getTransactionReceipt', params: [txHash as Hex] }) as RpcReceipt | null;
    if (!receipt) return { status: 'not_found' };
    const height = BigInt(receipt.blockNumber);
    if (receipt.status !== '0x1') return { status: 'failed', height };
    const wanted = new Set([address.toLowerCase()]);
    const decoded = receipt.logs.flatMap((log) => decodeTransferLog(log, wanted, height, height) ?? []);
    const transfers = await Promise.all(decoded.map(async (t) => ({ ...t, decimals: await this.decimalsOf(t.token) })));
    return { status: 'landed', height, transfers };
  }

  /** Where a scan without cursor starts: the configured block, else the one after the finalized height. */
  private async firstBlock(): Promise<bigint> {
    if (this.settings.startBlock !== undefined) return this.settings.startBlock;
    const finalized = this.lastFinalized ?? (await this.heights()).finalized;
    return finalized + 1n;
  }

  /** The block after `cursor`, or after the last known finalized height if lower (never below the start block). */
  private rescanFrom(cursor: bigint): bigint {
    let from = cursor + 1n;
    if (this.lastFinalized !== undefined && this.lastFinalized + 1n < from) from = this.lastFinalized + 1n;
    const start = this.settings.startBlock;
    return start !== undefined && from < start ? start : from;
  }

  /** One `eth_getLogs` per address chunk over `lo`…`hi`: ERC-20 `Transfer` of any contract to those addresses. */
  private async transfersBetween(lo: bigint, hi: bigint, chunks: readonly string[][], wanted: ReadonlySet<string>): Promise<DecodedTransfer[]> {
    const transfers: DecodedTransfer[] = [];
    for (const addresses of chunks) {
      const logs = await this.client.request({
        method: 'eth_getLogs',
        params: [{ fromBlock: `0x${lo.toString(16)}`, toBlock: `0x${hi.toString(16)}`, topics: [TRANSFER_TOPIC, null, addresses.map(addressTopic)] }],
      }) as RpcLog[];
      if (!Array.isArray(logs)) throw new Error('BSC eth_getLogs answered something other than a list');
      for (const log of logs) {
        const transfer = decodeTransferLog(log, wanted, lo, hi);
        if (transfer) transfers.push(transfer);
      }
    }
    return transfers;
  }

  /**
   * The token's decimals: configured ones without a call; a foreign token's from its `decimals()`
   * (remembered), or 0 when the contract does not answer one (not an ERC-20 with decimals: its
   * units are then shown as they are). Transport faults throw.
   */
  private async decimalsOf(token: string): Promise<number> {
    const known = this.settings.knownDecimals.get(token) ?? this.foreignDecimals.get(token);
    if (known !== undefined) return known;
    let decimals: number;
    try {
      decimals = await this.client.readContract({ address: token as Hex, abi: erc20Abi, functionName: 'decimals' });
    } catch (error) {
      if (error instanceof BaseError && error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError)) throw error;
      decimals = 0;
    }
    if (this.foreignDecimals.size >= DECIMALS_CACHE_LIMIT) this.foreignDecimals.clear();
    this.foreignDecimals.set(token, decimals);
    return decimals;
  }
}

/**
 * Whether the `finalized` block request failed because the node has no such tag (an error answer,
 * e.g. geth's "finalized block not found" or an older node's invalid-argument error, or no block)
 * rather than because no endpoint answered (transport fault, timeout).
 */
function noFinalizedTag(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  if (error.walk((e) => e instanceof BlockNotFoundError)) return true;
  if (error.walk((e) => e instanceof TimeoutError)) return false;
  const http = error.walk((e) => e instanceof HttpRequestError) as HttpRequestError | null;
  if (http) return false;
  return error.walk((e) => typeof (e as { code?: unknown } | null)?.code === 'number') !== null;
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
