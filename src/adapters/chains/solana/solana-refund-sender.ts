import {
  address, appendTransactionMessageInstructions, compileTransaction, createTransactionMessage, getBase64Decoder, getBase64EncodedWireTransaction, getPublicKeyFromAddress,
  getSignatureFromTransaction, isAddress, isSolanaError, pipe, setTransactionMessageFeePayerSigner, setTransactionMessageLifetimeUsingBlockhash,
  signature as toSignature, signTransactionMessageWithSigners, verifySignature, type Rpc, type SignatureBytes, type SolanaRpcApi,
  type TransactionPartialSigner, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
} from '@solana/kit';
import { getCreateAssociatedTokenIdempotentInstruction, getTokenSize, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { ChainHeights, WatchedToken } from '../../../core/deposits/chain-ports';
import type { HotWalletBalances } from '../../../core/refunds/hot-wallet-balances';
import { tokenUnits } from '../../../core/deposits/deposit-amount';
import type { OnchainRefund } from '../../../core/refunds/onchain-refund';
import type { RefundRefusal } from '../../../core/refunds/refund-refusal';
import type {
  HotWalletSigner, RefundAttempt, RefundSender, RefundShortfall, SignedRefund, TransactionLookup,
} from '../../../core/refunds/refund-sender';
import type { Stablecoin } from '../../../core/shared/money';
import type { RpcEndpointMetrics } from '../rpc-endpoint-metrics';
import { associatedTokenAccount } from './solana-address-deriver';
import type { SolanaReaderConfig } from './solana-config';
import type { SolanaRefundConfig } from './solana-refund-config';
import { solanaRpc } from './solana-rpc';

/** Lamports of the base fee per signature (https://solana.com/docs/core/fees): the fallback when a node cannot price the message. */
const LAMPORTS_PER_SIGNATURE = 5_000n;

/**
 * The Solana RefundSender (docs/chains.md § Solana refunds, docs/decisions.md § Refunds): one
 * transaction per attempt from the hot wallet, which pays the fee and owns the source token
 * account: CreateAssociatedTokenIdempotent of the recipient's associated token account for the
 * mint (a no-op when it exists; else the hot wallet pays its rent), then TransferChecked of the
 * refund's whole amount from the hot wallet's associated token account to it. `refundAddress` is
 * the recipient's wallet (owner) address, never a token account. Signed through the
 * `HotWalletSigner` port and checked against the wallet's address before it is handed back.
 *
 * Heights: `heights()` and `lookup` speak in slots (getSlot, getSignatureStatuses), as the deposit
 * reader does; `expired` compares the finalized *block height* (getEpochInfo) with the attempt's
 * `lastValidHeight`, which is a block height (getLatestBlockhash). Slots and block heights differ
 * (skipped slots have no block) and are never compared with each other. Throws only for
 * infrastructure faults and refusals it does not map (an RPC down, a signer that signs with
 * another key, a refund it cannot build).
 */
export class SolanaRefundSender implements RefundSender {
  readonly chain = 'SOLANA' as const;
  readonly wallet: string;
  /** The highest finalized slot `heights()` or `expired` read (see `lookup`). */
  private lastFinalized = -1n;

  constructor(private readonly rpc: Rpc<SolanaRpcApi>, private readonly signer: HotWalletSigner, private readonly tokens: readonly WatchedToken[]) {
    if (signer.chain !== 'SOLANA') throw new Error(`a Solana refund sender needs a Solana signer, got ${signer.chain}`);
    if (!isAddress(signer.address)) throw new Error('the Solana hot wallet signer has no base58 address');
    this.wallet = signer.address;
  }

  /**
   * Builds the refund's transaction (see the class) on the newest blockhash at `confirmed`
   * (getLatestBlockhash, https://solana.com/docs/rpc/http/getlatestblockhash: the commitment
   * Solana recommends, about 13 s more lifetime than `finalized`; a blockhash of a fork that dies
   * only makes the attempt expire), signs it, and answers the base58 signature, the base64 wire
   * transaction, the blockhash and its `lastValidBlockHeight`. Solana never replaces: `replacing`
   * is refused. Throws for an unknown currency, a refundAddress that is not base58 of 32 bytes,
   * an amount that is not a positive decimal of at most 6 places, or a signature of another key.
   */
  async sign(refund: OnchainRefund, options: { lastNonce: bigint | null; replacing?: RefundAttempt }): Promise<SignedRefund> {
    if (options.replacing) throw new Error(`Solana refund attempts are never replaced (attempt ${options.replacing.id})`);
    const { message, latest } = await this.message(refund);
    const tx = await signTransactionMessageWithSigners(message);
    const signature = tx.signatures[this.wallet as keyof typeof tx.signatures];
    if (!signature || !(await verifySignature(await getPublicKeyFromAddress(address(this.wallet)), signature, tx.messageBytes))) {
      throw new Error('the Solana hot wallet signer signed with another key than its address');
    }
    return {
      txHash: getSignatureFromTransaction(tx), rawTransaction: getBase64EncodedWireTransaction(tx),
      nonce: null, blockhash: latest.blockhash, lastValidHeight: BigInt(latest.lastValidBlockHeight),
    };
  }

  /**
   * sendTransaction (base64) with `skipPreflight`: a node then forwards the transaction without
   * simulating it, and what becomes of it is read by `lookup` (landed or reverted) or judged by
   * `expired`. A preflight refusal would leave a stored attempt the worker could never move (it
   * sends a `signed` attempt again until a node takes it), where a transaction that fails onchain
   * ends its refund `failed` for an operator with the reason. A node that simulates anyway and
   * answers "already processed" (it has this very transaction) or "blockhash not found" (expired,
   * or not yet seen by that node: expiry is judged at finality) is not an error; any other refusal throws.
   */
  async broadcast(rawTransaction: string): Promise<void> {
    try {
      await this.rpc.sendTransaction(rawTransaction as Parameters<Rpc<SolanaRpcApi>['sendTransaction']>[0], { encoding: 'base64', skipPreflight: true }).send();
    } catch (error) {
      if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)) {
        const cause = (error as { cause?: unknown }).cause;
        if (isSolanaError(cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED) || isSolanaError(cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND)) return;
      }
      throw error;
    }
  }

  /**
   * getSignatureStatuses with `searchTransactionHistory`
   * (https://solana.com/docs/rpc/http/getsignaturestatuses): `err` null landed, else reverted with
   * the error's JSON as reason, at the status's slot; no status not_found. Endpoints fail over, so
   * the node answering may be behind the one `heights()` or `expired` read: a status not yet
   * `finalized` is reported no lower than one slot above the finalized slot the sender last read
   * (never taken for final early), and "no status" from a node whose answer's context slot is
   * below that finalized slot throws (it may not have the transaction yet: a not_found there could
   * make an attempt that landed look dropped); the next pass asks again.
   */
  async lookup(txHash: string): Promise<TransactionLookup> {
    const { context, value } = await this.rpc.getSignatureStatuses([toSignature(txHash)], { searchTransactionHistory: true }).send();
    const status = value[0];
    if (!status) {
      if (BigInt(context.slot) < this.lastFinalized) {
        throw new Error(`Solana getSignatureStatuses: the answering node (slot ${context.slot}) is behind the finalized slot ${this.lastFinalized} already read`);
      }
      return { status: 'not_found' };
    }
    const slot = BigInt(status.slot);
    const height = status.confirmationStatus === 'finalized' || slot > this.lastFinalized ? slot : this.lastFinalized + 1n;
    if (status.err === null) return { status: 'landed', height };
    return { status: 'reverted', height, reason: `transaction error ${JSON.stringify(status.err, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))}` };
  }

  /** getSlot at `confirmed` (head) and `finalized` (https://solana.com/docs/rpc/http/getslot); finalized is never reported above head. */
  async heights(): Promise<ChainHeights> {
    const head = BigInt(await this.rpc.getSlot({ commitment: 'confirmed' }).send());
    let finalized = BigInt(await this.rpc.getSlot({ commitment: 'finalized' }).send());
    if (finalized > head) finalized = head;
    this.noteFinalized(finalized);
    return { head, finalized };
  }

  /**
   * Whether the finalized block height is past the attempt's `lastValidHeight`: no block of the
   * chain can include its transaction any more (https://solana.com/docs/advanced/confirmation).
   * Read with getEpochInfo at `finalized` (https://solana.com/docs/rpc/http/getepochinfo) rather
   * than getBlockHeight: its `blockHeight` and `absoluteSlot` come from one node's one bank, so
   * the lookups that follow can require their node to have reached that slot (see `lookup`).
   */
  async expired(attempt: RefundAttempt): Promise<boolean> {
    if (attempt.lastValidHeight === null) throw new Error(`attempt ${attempt.id} has no last valid block height`);
    const info = await this.rpc.getEpochInfo({ commitment: 'finalized' }).send();
    this.noteFinalized(BigInt(info.absoluteSlot));
    return BigInt(info.blockHeight) > attempt.lastValidHeight;
  }

  /** Never: a Solana transaction is not replaced; its blockhash's expiry makes a new attempt (docs/decisions.md § Refunds). */
  stuck(): boolean {
    return false;
  }

  /**
   * `token` when the hot wallet's associated token account for the refund's mint holds less than
   * the refund in base units (getTokenAccountBalance; no account holds nothing); else `gas` when its
   * SOL (getBalance) is below the transaction's fee (getFeeForMessage of the refund's message, else
   * 5,000 lamports a signature) plus the rent of a token account (getMinimumBalanceForRentExemption
   * of 165 bytes) when the recipient has none (getAccountInfo), plus the rent-exempt minimum of the
   * wallet itself (of 0 bytes: a fee payer may not go below it); else undefined. All at `confirmed`.
   */
  async shortfall(refund: OnchainRefund): Promise<RefundShortfall | undefined> {
    const token = this.tokenOf(refund.currency);
    const units = baseUnits(refund, token.decimals);
    const source = address(await associatedTokenAccount(this.wallet, token.token));
    const held = await this.tokenBalance(source);
    if (held < units) return 'token';
    const destination = address(await associatedTokenAccount(refund.refundAddress, token.token));
    const [{ value: lamports }, { value: recipient }, walletRent] = await Promise.all([
      this.rpc.getBalance(address(this.wallet), { commitment: 'confirmed' }).send(),
      this.rpc.getAccountInfo(destination, { commitment: 'confirmed', encoding: 'base64', dataSlice: { offset: 0, length: 0 } }).send(),
      this.rpc.getMinimumBalanceForRentExemption(0n).send(),
    ]);
    const ataRent = recipient ? 0n : BigInt(await this.rpc.getMinimumBalanceForRentExemption(BigInt(getTokenSize())).send());
    const fee = await this.fee(refund);
    return BigInt(lamports) < fee + ataRent + BigInt(walletRent) ? 'gas' : undefined;
  }

  /**
   * The refusals (docs/decisions.md § Refunds: refusals): `invalid_address` unless `refundAddress`
   * is base58 of 32 bytes (@solana/kit `isAddress`); `own_address` for the hot wallet's own;
   * `amount_not_representable` unless the amount is positive, exact in the mint's base units and
   * within u64. A currency with no configured mint is no refusal: a configuration fault, `sign` throws.
   */
  refusal(refund: OnchainRefund): RefundRefusal | undefined {
    if (!isAddress(refund.refundAddress)) return 'invalid_address';
    if (refund.refundAddress === this.wallet) return 'own_address';
    const token = this.tokens.find((t) => t.chain === 'SOLANA' && t.currency === refund.currency);
    if (token && tokenUnits(refund.amount, token.decimals, MAX_U64) === undefined) return 'amount_not_representable';
    return undefined;
  }

  /**
   * The wallet's SOL (getBalance) and each configured mint's balance of its associated token
   * account (none holds nothing), at `confirmed`, in whole SOL and whole tokens: exact decimal strings.
   */
  async balances(): Promise<HotWalletBalances> {
    const [{ value: lamports }, ...held] = await Promise.all([
      this.rpc.getBalance(address(this.wallet), { commitment: 'confirmed' }).send(),
      ...this.tokens.map(async (t) => this.tokenBalance(address(await associatedTokenAccount(this.wallet, t.token)))),
    ]);
    return {
      gas: wholeUnits(BigInt(lamports), 9),
      tokens: this.tokens.map((t, i) => ({ currency: t.currency, amount: wholeUnits(held[i] as bigint, t.decimals) })),
    };
  }

  /** The refund's transaction message (see the class) on the newest blockhash at `confirmed`, unsigned. */
  private async message(refund: OnchainRefund) {
    const token = this.tokenOf(refund.currency);
    if (!isAddress(refund.refundAddress)) throw new Error(`refund ${refund.id}: refundAddress is not a Solana address`);
    const units = baseUnits(refund, token.decimals);
    const { value: latest } = await this.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const payer = this.transactionSigner();
    const mint = address(token.token);
    const owner = address(refund.refundAddress);
    const destination = address(await associatedTokenAccount(refund.refundAddress, token.token));
    const source = address(await associatedTokenAccount(this.wallet, token.token));
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
      (m) => appendTransactionMessageInstructions([
        getCreateAssociatedTokenIdempotentInstruction({ payer, ata: destination, owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }),
        getTransferCheckedInstruction({ source, mint, destination, authority: payer, amount: units, decimals: token.decimals }),
      ], m),
    );
    return { message, latest };
  }

  /** The fee of the refund's transaction: getFeeForMessage of its compiled message (https://solana.com/docs/rpc/http/getfeeformessage); nothing is signed. */
  private async fee(refund: OnchainRefund): Promise<bigint> {
    const { message } = await this.message(refund);
    const bytes = getBase64Decoder().decode(compileTransaction(message).messageBytes);
    const { value } = await this.rpc.getFeeForMessage(bytes as Parameters<Rpc<SolanaRpcApi>['getFeeForMessage']>[0], { commitment: 'confirmed' }).send();
    return value === null ? LAMPORTS_PER_SIGNATURE : BigInt(value);
  }

  /** The token account's balance in base units; 0 when it does not exist (the node's "could not find account"). */
  private async tokenBalance(account: ReturnType<typeof address>): Promise<bigint> {
    const { value: info } = await this.rpc.getAccountInfo(account, { commitment: 'confirmed', encoding: 'base64', dataSlice: { offset: 0, length: 0 } }).send();
    if (!info) return 0n;
    const { value } = await this.rpc.getTokenAccountBalance(account, { commitment: 'confirmed' }).send();
    return BigInt(value.amount);
  }

  private noteFinalized(slot: bigint): void {
    if (slot > this.lastFinalized) this.lastFinalized = slot;
  }

  /** The hot wallet as a kit transaction signer over the `HotWalletSigner` port. */
  private transactionSigner(): TransactionPartialSigner {
    const wallet = address(this.wallet);
    return {
      address: wallet,
      signTransactions: (transactions) => Promise.all(transactions.map(async (tx) => {
        const signature = await this.signer.sign(Uint8Array.from(tx.messageBytes));
        if (signature.length !== 64) throw new Error('the Solana hot wallet signer answered no 64-byte ed25519 signature');
        return { [wallet]: signature as SignatureBytes };
      })),
    };
  }

  private tokenOf(currency: Stablecoin): WatchedToken {
    const token = this.tokens.find((t) => t.chain === 'SOLANA' && t.currency === currency);
    if (!token) throw new Error(`no Solana mint is configured for ${currency}`);
    return token;
  }
}

/** The largest amount a token account holds (u64). */
const MAX_U64 = 2n ** 64n - 1n;

/** The refund's amount in the mint's base units, exactly; throws for one `refusal` refuses. */
function baseUnits(refund: OnchainRefund, decimals: number): bigint {
  const units = tokenUnits(refund.amount, decimals, MAX_U64);
  if (units === undefined) throw new Error(`refund ${refund.id}: amount ${refund.amount} cannot be sent in ${decimals}-decimal units`);
  return units;
}


/** `units` of a `decimals`-decimal amount as a whole-unit decimal string (no trailing zeros), exactly. */
function wholeUnits(units: bigint, decimals: number): string {
  const text = units.toString().padStart(decimals + 1, '0');
  const fraction = text.slice(text.length - decimals).replace(/0+$/, '');
  return fraction ? `${text.slice(0, text.length - decimals)}.${fraction}` : text.slice(0, text.length - decimals);
}

/**
 * The Solana refund sender the composition root can use (docs/chains.md § Solana refunds): over its
 * own `solanaRpc` failover client on the deposit reader's endpoints, sending the SOLANA `tokens`.
 * Undefined when no hot wallet is configured (`refund` undefined) or SOLANA_RPC_URLS is unset (`reader` undefined).
 */
export function solanaRefundSenderFromConfig(
  reader: Pick<SolanaReaderConfig, 'rpcUrls' | 'rpcTimeoutMs'> | undefined, refund: SolanaRefundConfig | undefined, tokens: readonly WatchedToken[], metrics: RpcEndpointMetrics,
): SolanaRefundSender | undefined {
  if (!refund || !reader) return undefined;
  return new SolanaRefundSender(solanaRpc(reader, metrics), refund.signer, tokens.filter((t) => t.chain === 'SOLANA'));
}
