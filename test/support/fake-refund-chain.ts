import type { Blockchain } from '../../src/core/catalog/catalog';
import type { ChainHeights } from '../../src/core/deposits/chain-ports';
import type { HotWalletBalances } from '../../src/core/refunds/hot-wallet-balances';
import type { OnchainRefund } from '../../src/core/refunds/onchain-refund';
import type {
  RefundAttempt, RefundRefusal, RefundSender, RefundShortfall, SignedRefund, TransactionLookup,
} from '../../src/core/refunds/refund-sender';

/** A signed transaction of the fake chain: what its raw bytes say. */
interface FakeTx { hash: string; nonce: bigint; fee: number; to: string; amount: string }

/**
 * An account-nonce chain in memory (BSC-like) behind the RefundSender port, for the core's unit
 * tests: a mempool keyed by nonce (a higher fee replaces), blocks mined on demand, a finalized
 * height `lag` blocks behind the head, and faults to inject between the steps of a send.
 */
export class FakeRefundChain implements RefundSender {
  /** The chain it answers for: the rules are the same on either, so tests pick the payment's. */
  constructor(readonly chain: Blockchain = 'SOLANA') {}

  /** The hot wallet's address; a test may set it to a refund's address to see `own_address`. */
  wallet = '0x00000000000000000000000000000000000000aa';
  readonly mempool = new Map<bigint, FakeTx>();
  /** Mined transactions, with their block and whether they reverted. */
  readonly mined: (FakeTx & { height: bigint; reverted: boolean })[] = [];
  head = 100n;
  lag = 2n;
  /** Transactions below this fee stay in the mempool. */
  minFee = 1;
  /** The next broadcast throws: `before` it reaches the chain, or `after` it did. */
  crash: 'before' | 'after' | undefined;
  /** Whether the next mined transaction reverts. */
  revertNext = false;
  isStuck = false;
  /** What the wallet lacks, as `shortfall` answers it (undefined: funded). */
  short: RefundShortfall | undefined;
  readonly calls: string[] = [];
  private count = 0;

  /** Onchain transfers that reached `to` (reverted ones move nothing). */
  transfersTo(to: string): FakeTx[] {
    return this.mined.filter((t) => t.to === to && !t.reverted);
  }

  /** The wallet's nonce after the blocks up to `height`. */
  nonceAt(height: bigint): bigint {
    return BigInt(this.mined.filter((t) => t.height <= height).length);
  }

  /** Mines one block holding the mempool's transaction of the next nonce when its fee is enough. */
  mine(): void {
    this.head += 1n;
    const tx = this.mempool.get(this.nonceAt(this.head));
    if (!tx || tx.fee < this.minFee) return;
    this.mempool.delete(tx.nonce);
    this.mined.push({ ...tx, height: this.head, reverted: this.revertNext });
    this.revertNext = false;
  }

  /** Another sender (an operator's wallet app) uses the wallet's next nonce. */
  foreignTransaction(): void {
    const nonce = this.nonceAt(this.head);
    this.mempool.delete(nonce);
    this.head += 1n;
    this.mined.push({ hash: `0xforeign${nonce}`, nonce, fee: 1, to: '0xelsewhere', amount: '1', height: this.head, reverted: false });
  }

  finalizeAll(): void {
    for (let i = 0n; i < this.lag; i++) this.head += 1n;
  }

  /**
   * As a real sender's rules, on the fake's terms: `invalid_address` for an address that is not
   * one of the fake's chain (BSC `0x` and 40 hex digits; Solana base58 of 32 to 44 characters),
   * `own_address` for the wallet's, `amount_not_representable` for an amount with more than 6
   * decimals or not above zero.
   */
  refusal(refund: OnchainRefund): RefundRefusal | undefined {
    const shape = this.chain === 'BSC' ? /^0x[0-9a-fA-F]{40}$/ : /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
    if (!shape.test(refund.refundAddress)) return 'invalid_address';
    if (refund.refundAddress.toLowerCase() === this.wallet.toLowerCase()) return 'own_address';
    if (!/^\d+(\.\d{1,6})?$/.test(refund.amount) || !/[1-9]/.test(refund.amount)) return 'amount_not_representable';
    return undefined;
  }

  async sign(refund: OnchainRefund, options: { lastNonce: bigint | null; replacing?: RefundAttempt }): Promise<SignedRefund> {
    this.calls.push('sign');
    if (this.refusal(refund)) throw new Error(`refund ${refund.id} is refused: it must never be signed`);
    const fromChain = this.nonceAt(this.head);
    const next = options.lastNonce === null ? fromChain : options.lastNonce + 1n > fromChain ? options.lastNonce + 1n : fromChain;
    const nonce = options.replacing ? options.replacing.nonce! : next;
    const fee = options.replacing ? (JSON.parse(options.replacing.rawTransaction) as { fee: number }).fee * 2 : 1;
    const tx = { hash: `0x${(++this.count).toString(16).padStart(64, '0')}`, nonce: nonce.toString(), fee, to: refund.refundAddress, amount: refund.amount };
    return { txHash: tx.hash, rawTransaction: JSON.stringify(tx), nonce, blockhash: null, lastValidHeight: null };
  }

  async broadcast(rawTransaction: string): Promise<void> {
    this.calls.push('broadcast');
    const parsed = JSON.parse(rawTransaction) as { hash: string; nonce: string; fee: number; to: string; amount: string };
    const tx: FakeTx = { ...parsed, nonce: BigInt(parsed.nonce) };
    const crash = this.crash;
    this.crash = undefined;
    if (crash === 'before') throw new Error('killed before the broadcast');
    const known = this.mempool.get(tx.nonce);
    // Like a node: a used nonce is refused, a replacement needs a higher fee.
    if (tx.nonce >= this.nonceAt(this.head) && (!known || known.fee < tx.fee)) this.mempool.set(tx.nonce, tx);
    if (crash === 'after') throw new Error('killed after the broadcast');
  }

  async lookup(txHash: string): Promise<TransactionLookup> {
    this.calls.push(`lookup ${txHash}`);
    const tx = this.mined.find((t) => t.hash === txHash);
    if (!tx) return { status: 'not_found' };
    return tx.reverted ? { status: 'reverted', height: tx.height, reason: 'execution reverted' } : { status: 'landed', height: tx.height };
  }

  async heights(): Promise<ChainHeights> {
    return { head: this.head, finalized: this.head - this.lag };
  }

  async expired(attempt: RefundAttempt): Promise<boolean> {
    return this.nonceAt(this.head - this.lag) > attempt.nonce!;
  }

  stuck(): boolean {
    return this.isStuck;
  }

  async shortfall(): Promise<RefundShortfall | undefined> {
    return this.short;
  }

  /** What `balances` answers; a test sets it. */
  held: HotWalletBalances = { gas: '1', tokens: [{ currency: 'USDC', amount: '1000' }, { currency: 'USDT', amount: '1000' }] };

  async balances(): Promise<HotWalletBalances> {
    this.calls.push('balances');
    return this.held;
  }
}
