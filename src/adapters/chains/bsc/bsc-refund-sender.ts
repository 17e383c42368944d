import {
  BaseError, RpcRequestError, TransactionReceiptNotFoundError, bytesToHex, encodeFunctionData, erc20Abi, formatEther, formatUnits, hexToBytes, isAddress, keccak256,
  parseTransaction, recoverAddress, serializeTransaction, type Address, type Hex, type PublicClient,
  type TransactionSerializableLegacy,
} from 'viem';
import type { ChainHeights } from '../../../core/deposits/chain-ports';
import type { HotWalletBalances } from '../../../core/refunds/hot-wallet-balances';
import { tokenUnits } from '../../../core/deposits/deposit-amount';
import type { OnchainRefund } from '../../../core/refunds/onchain-refund';
import type {
  HotWalletSigner, RefundAttempt, RefundRefusal, RefundSender, RefundShortfall, SignedRefund, TransactionLookup,
} from '../../../core/refunds/refund-sender';
import type { Stablecoin } from '../../../core/shared/money';
import type { RpcEndpointMetrics } from '../rpc-endpoint-metrics';
import { bscRpc } from './bsc-chain';
import { BscChainReader } from './bsc-chain-reader';
import type { BscConfig, BscToken } from './bsc-config';
import { BSC_CHAIN_ID } from './bsc-endpoint-guard';
import type { BscRefundConfig } from './bsc-refund-config';

/**
 * Answers of `eth_sendRawTransaction` that are not errors for a refund (docs/chains.md § BSC
 * refunds: broadcast answers). Node texts: geth and BSC ("already known",
 * "replacement transaction underpriced" in core/txpool/errors.go, "nonce too low" in core/error.go
 * of https://github.com/bnb-chain/bsc), anvil ("transaction already imported"), older geth
 * ("known transaction: <hash>").
 * - already known: this very transaction is in the node's pool.
 * - nonce too low: a transaction under this nonce is in a block, this one or another; `lookup`
 *   finds ours, else the attempt expires at finality and the refund goes back to pending.
 * - replacement underpriced: the pool holds a transaction under this nonce paying at least as
 *   much, an earlier one of the same attempt (stored, looked up, may land) or another sender's
 *   (it uses the nonce, and the attempt expires); sending again cannot help, and at most one lands.
 */
const NOT_ERRORS: readonly RegExp[] = [/already known|already imported|^known transaction/i, /nonce too low/i, /replacement transaction underpriced/i];

/** What the sender needs besides its client and signer. */
export interface BscRefundSenderSettings extends Omit<BscRefundConfig, 'signer'> {
  /** The stablecoins' contracts (lower case) and decimals (bsc-config.ts). */
  readonly tokens: readonly BscToken[];
  /** The chain's head and finalized heights, as the deposit reader reads them (its `finalized` fallback included). */
  readonly reader: { heights(): Promise<ChainHeights> };
  /** Checked before each call: throws when an endpoint serves another chain (BscEndpointGuard). */
  readonly guard?: { check(): Promise<void> };
}

/**
 * The BSC RefundSender (docs/chains.md § BSC refunds, docs/decisions.md § Refunds): BEP-20
 * `transfer(refundAddress, units)` transactions of the refund's token from the hot wallet, as
 * legacy (type 0) EIP-155 transactions with a `gasPrice`, the fee model BSC nodes price by, signed
 * through the `HotWalletSigner` port. `wallet` is the signer's address in lower case (the form the
 * refund attempts are stored under). Throws only for infrastructure faults and refusals it does not
 * map (an RPC down, "insufficient funds for gas", a gas price above the configured maximum, a
 * signature from another key).
 */
export class BscRefundSender implements RefundSender {
  readonly chain = 'BSC' as const;
  readonly wallet: string;

  constructor(private readonly client: PublicClient, private readonly signer: HotWalletSigner, private readonly settings: BscRefundSenderSettings) {
    if (signer.chain !== 'BSC') throw new Error(`a BSC refund sender needs a BSC signer, got ${signer.chain}`);
    this.wallet = signer.address.toLowerCase();
  }

  /**
   * The refusals (docs/chains.md § BSC refunds: refusals): `invalid_address` unless `refundAddress`
   * is `0x` and 40 hex digits, all lower or all upper case or with a valid EIP-55 checksum (viem
   * `isAddress`); `own_address` for the hot wallet's own address; `amount_not_representable` unless
   * the amount is a positive decimal string with at most 6 decimals that fits a uint256 in the
   * token's base units. A currency with no configured contract is no refusal: a configuration
   * fault, `sign` throws until it is configured.
   */
  refusal(refund: OnchainRefund): RefundRefusal | undefined {
    if (!isBscAddress(refund.refundAddress)) return 'invalid_address';
    if (refund.refundAddress.toLowerCase() === this.wallet) return 'own_address';
    const token = this.settings.tokens.find((t) => t.currency === refund.currency);
    if (token && tokenUnits(refund.amount, token.decimals, MAX_UINT256) === undefined) return 'amount_not_representable';
    return undefined;
  }

  /**
   * Signs `transfer(refundAddress, amount × 10^(decimals − 6))` of the refund's token. Nonce: the
   * replaced attempt's, else the higher of `lastNonce + 1` and the wallet's `pending` nonce
   * (`eth_getTransactionCount`). Gas price: the node's (`eth_gasPrice`); a replacement pays at
   * least `feeBumpPercent` more than the replaced raw transaction (rounded up), or the node's price
   * when higher. Throws when that price is above `maxGasPriceWei`, when the signature does not
   * recover the wallet, for a currency with no configured contract, and for a refund `refusal` refuses.
   */
  async sign(refund: OnchainRefund, options: { lastNonce: bigint | null; replacing?: RefundAttempt }): Promise<SignedRefund> {
    await this.settings.guard?.check();
    const token = this.tokenOf(refund.currency);
    const refused = this.refusal(refund);
    if (refused) throw new Error(`refund ${refund.id} is refused (${refused}): it is failed, never signed`);
    const units = baseUnits(refund, token.decimals);
    const nodePrice = await this.client.getGasPrice();
    let nonce: bigint;
    let gasPrice: bigint;
    if (options.replacing) {
      if (options.replacing.nonce === null) throw new Error(`attempt ${options.replacing.id} has no nonce to replace`);
      nonce = options.replacing.nonce;
      const parsed = parseTransaction(options.replacing.rawTransaction as Hex);
      if (parsed.type !== 'legacy' || parsed.gasPrice === undefined) throw new Error(`attempt ${options.replacing.id} is no legacy BSC transaction`);
      const replaced = parsed.gasPrice;
      const bumped = (replaced * BigInt(100 + this.settings.feeBumpPercent) + 99n) / 100n;
      gasPrice = bumped > nodePrice ? bumped : nodePrice;
    } else {
      const pending = BigInt(await this.client.getTransactionCount({ address: this.wallet as Address, blockTag: 'pending' }));
      nonce = options.lastNonce === null || pending > options.lastNonce + 1n ? pending : options.lastNonce + 1n;
      gasPrice = nodePrice;
    }
    if (gasPrice > this.settings.maxGasPriceWei) {
      throw new Error(`BSC refund ${refund.id}: gas price ${gasPrice} wei is above BSC_REFUND_MAX_GAS_PRICE_GWEI; it waits`);
    }
    const tx: TransactionSerializableLegacy = {
      type: 'legacy', chainId: BSC_CHAIN_ID, nonce: Number(nonce), gasPrice, gas: this.settings.gasLimit, to: token.contract as Address, value: 0n,
      // Lower case: viem's encoder checks a checksum on any upper-case letter, and an all-upper-case address has none to check.
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [refund.refundAddress.toLowerCase() as Address, units] }),
    };
    const digest = keccak256(serializeTransaction(tx));
    const signature = await this.signer.sign(hexToBytes(digest));
    if (signature.length !== 65 || signature[64]! > 1) throw new Error('the BSC hot wallet signer answered no r ‖ s ‖ recovery id (65 bytes)');
    const rsv = { r: bytesToHex(signature.subarray(0, 32)), s: bytesToHex(signature.subarray(32, 64)), v: 27n + BigInt(signature[64]!) };
    const signer = await recoverAddress({ hash: digest, signature: rsv });
    if (signer.toLowerCase() !== this.wallet) throw new Error('the BSC hot wallet signer signed with another key than its address');
    const rawTransaction = serializeTransaction(tx, rsv);
    return { txHash: keccak256(rawTransaction).toLowerCase(), rawTransaction, nonce, blockhash: null, lastValidHeight: null };
  }

  /** `eth_sendRawTransaction`; the answers in NOT_ERRORS resolve, any other refusal throws with the node's text. */
  async broadcast(rawTransaction: string): Promise<void> {
    await this.settings.guard?.check();
    try {
      await this.client.request({ method: 'eth_sendRawTransaction', params: [rawTransaction as Hex] });
    } catch (error) {
      const answer = nodeAnswer(error);
      if (answer === undefined) throw error;
      if (NOT_ERRORS.some((known) => known.test(answer))) return;
      throw new Error(`BSC refused the refund transaction: ${answer}`);
    }
  }

  /** `eth_getTransactionReceipt`: status 0x1 landed, 0x0 reverted, at its block number; no receipt (unknown or pending) not_found. */
  async lookup(txHash: string): Promise<TransactionLookup> {
    await this.settings.guard?.check();
    try {
      const receipt = await this.client.getTransactionReceipt({ hash: txHash as Hex });
      if (receipt.status === 'success') return { status: 'landed', height: receipt.blockNumber };
      return { status: 'reverted', height: receipt.blockNumber, reason: 'execution reverted (receipt status 0x0)' };
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return { status: 'not_found' };
      throw error;
    }
  }

  /** `eth_blockNumber` and the `finalized` block, as the deposit reader reads them. */
  heights(): Promise<ChainHeights> {
    return this.settings.reader.heights();
  }

  /** Whether the wallet's nonce at the finalized block (`eth_getTransactionCount(wallet, finalized)`) is past the attempt's nonce. */
  async expired(attempt: RefundAttempt): Promise<boolean> {
    if (attempt.nonce === null) throw new Error(`attempt ${attempt.id} has no nonce`);
    const { finalized } = await this.heights();
    await this.settings.guard?.check();
    const used = await this.client.getTransactionCount({ address: this.wallet as Address, blockNumber: finalized });
    return BigInt(used) > attempt.nonce;
  }

  /** Whether `replaceAfterMs` has passed since the attempt's current transaction was signed. */
  stuck(attempt: RefundAttempt, now: Date): boolean {
    return now.getTime() - attempt.signedAt.getTime() >= this.settings.replaceAfterMs;
  }

  /**
   * `token` when the wallet's `balanceOf` of the refund's token is below the refund in base units;
   * else `gas` when its BNB balance is below gasLimit × the node's gas price; else undefined.
   */
  async shortfall(refund: OnchainRefund): Promise<RefundShortfall | undefined> {
    await this.settings.guard?.check();
    const token = this.tokenOf(refund.currency);
    const held = await this.client.readContract({ address: token.contract as Address, abi: erc20Abi, functionName: 'balanceOf', args: [this.wallet as Address] });
    if (held < baseUnits(refund, token.decimals)) return 'token';
    const [native, price] = await Promise.all([this.client.getBalance({ address: this.wallet as Address }), this.client.getGasPrice()]);
    return native < this.settings.gasLimit * price ? 'gas' : undefined;
  }

  /**
   * `eth_getBalance(wallet)` in BNB and `balanceOf(wallet)` of each configured token in whole
   * tokens (viem `formatEther`, `formatUnits`: exact decimal strings).
   */
  async balances(): Promise<HotWalletBalances> {
    await this.settings.guard?.check();
    const wallet = this.wallet as Address;
    const [gas, ...held] = await Promise.all([
      this.client.getBalance({ address: wallet }),
      ...this.settings.tokens.map((t) => this.client.readContract({ address: t.contract as Address, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] })),
    ]);
    return { gas: formatEther(gas!), tokens: this.settings.tokens.map((t, i) => ({ currency: t.currency, amount: formatUnits(held[i]!, t.decimals) })) };
  }

  private tokenOf(currency: Stablecoin): BscToken {
    const token = this.settings.tokens.find((t) => t.currency === currency);
    if (!token) throw new Error(`no BSC contract is configured for ${currency}`);
    return token;
  }
}

/** The largest amount an ERC-20 `transfer` carries (uint256). */
const MAX_UINT256 = 2n ** 256n - 1n;

/** The refund's amount (decimal string, at most 6 decimals) in the token's base units, exactly. */
function baseUnits(refund: OnchainRefund, decimals: number): bigint {
  const units = tokenUnits(refund.amount, decimals, MAX_UINT256);
  if (units === undefined) throw new Error(`refund ${refund.id}: amount ${refund.amount} cannot be sent in ${decimals}-decimal units`);
  return units;
}


/**
 * Whether `address` is an EVM address as EIP-55 reads one: `0x` and 40 hex digits, all lower case,
 * all upper case (no checksum) or mixed case with a valid checksum.
 */
function isBscAddress(address: string): boolean {
  if (!isAddress(address, { strict: false })) return false;
  const digits = address.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return true;
  return isAddress(address, { strict: true });
}

/** The node's error text of a refused JSON-RPC call (a JSON-RPC error object); undefined for a transport fault (no answer, HTTP error without one, timeout). */
function nodeAnswer(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const rpc = error.walk((e) => e instanceof RpcRequestError) as RpcRequestError | null;
  return rpc?.details;
}

/**
 * The BSC refund sender the composition root can use (docs/chains.md § BSC refunds): over its own
 * `bscRpc` failover client and chain id guard, with heights read as the deposit reader reads them.
 * Undefined when no hot wallet is configured (`refund` undefined) or BSC_RPC_URLS is unset.
 */
export function bscRefundSenderFromConfig(config: BscConfig, refund: BscRefundConfig | undefined, metrics: RpcEndpointMetrics): BscRefundSender | undefined {
  if (!refund || !config.reader) return undefined;
  const { client, guard } = bscRpc(config.reader, metrics);
  const reader = new BscChainReader(client, { guard, confirmations: config.reader.confirmations, scanRange: config.reader.scanRange, knownDecimals: new Map() });
  const { signer, ...settings } = refund;
  return new BscRefundSender(client, signer, { ...settings, tokens: config.tokens, reader, guard });
}
