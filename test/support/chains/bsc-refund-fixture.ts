/**
 * A local BSC with USDT and USDC deployed and hot wallets on demand, each a fresh key whose
 * BscRefundSender is built the way the service builds it (parseBscConfig, parseBscRefundConfig,
 * bscRefundSenderFromConfig), for the BSC refund tests.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createWalletClient, http, parseTransaction, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { parseBscConfig } from '../../../src/adapters/chains/bsc/bsc-config';
import { parseBscRefundConfig } from '../../../src/adapters/chains/bsc/bsc-refund-config';
import { bscRpc } from '../../../src/adapters/chains/bsc/bsc-chain';
import { BscChainReader } from '../../../src/adapters/chains/bsc/bsc-chain-reader';
import { BscHotWalletSigner } from '../../../src/adapters/chains/bsc/bsc-hot-wallet-signer';
import { BscRefundSender, bscRefundSenderFromConfig, type BscRefundSenderSettings } from '../../../src/adapters/chains/bsc/bsc-refund-sender';
import { ChainRpcMetrics } from '../../../src/adapters/chains/rpc-endpoint-metrics';
import type { OnchainRefund } from '../../../src/core/refunds/onchain-refund';
import type { HotWalletSigner, RefundAttempt, SignedRefund } from '../../../src/core/refunds/refund-sender';
import { Registry } from 'prom-client';
import { LocalBsc } from './local-bsc';

/** 1 token with 18 decimals, in base units. */
export const ONE = 10n ** 18n;
/** 1 BNB in wei. */
export const BNB = 10n ** 18n;

/** A hot wallet: its sender, its address (lower case) and its key (the test's own, to act as "an operator" with it). */
export interface HotWallet {
  readonly sender: BscRefundSender;
  readonly address: Address;
  readonly key: Hex;
}

export interface BscRefundFixture {
  readonly bsc: LocalBsc;
  readonly usdt: Address;
  readonly usdc: Address;
  /** The variables the service would read for this chain and `key` (BSC_HOT_WALLET_KEY: development form). */
  env(key: Hex, extra?: Record<string, string>): Record<string, string>;
  /** A new hot wallet holding `bnb` wei and `usdt` base units of USDT (defaults: 1 BNB, 1,000 USDT). */
  wallet(funds?: { bnb?: bigint; usdt?: bigint }, extra?: Record<string, string>): Promise<HotWallet>;
  /**
   * A sender for `key` built by hand with `settings` over the configured ones (values the
   * configuration refuses included), signing through `signer` when given.
   */
  senderWith(key: Hex, settings: Partial<BscRefundSenderSettings>, signer?: HotWalletSigner): BscRefundSender;
  /** A pending refund of `amount` (decimal string, scale 6) of `currency` to a fresh address. */
  refund(amount: string, currency?: OnchainRefund['currency']): OnchainRefund & { refundAddress: Address };
  /** The attempt the core would store for `signed` (status broadcast, signed at `signedAt`). */
  attemptOf(refund: OnchainRefund, wallet: string, signed: SignedRefund, signedAt?: Date): RefundAttempt;
  /** The gas price written in a raw legacy transaction, wei. */
  gasPriceOf(raw: string): bigint;
  /** Turns anvil's automine off for `work` (transactions wait in the pool until `mine`), then on again. */
  withoutAutomine<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Sends 1 wei from the hot wallet `key` to itself, outside any refund (an operator's own
   * transaction), under `nonce` and `gasPrice` when given (else the wallet's next and the node's).
   */
  outsideTransaction(key: Hex, options?: { nonce?: number; gasPrice?: bigint }): Promise<Hex>;
  stop(): Promise<void>;
}

export async function startBscRefundFixture(): Promise<BscRefundFixture> {
  const bsc = await LocalBsc.start();
  try {
    const usdt = await bsc.deployToken('Tether USD', 'USDT');
    const usdc = await bsc.deployToken('USD Coin', 'USDC');
    const env = (key: Hex, extra: Record<string, string> = {}) => ({
      BSC_RPC_URLS: bsc.url, BSC_USDT_CONTRACT: usdt, BSC_USDC_CONTRACT: usdc, BSC_HOT_WALLET_KEY: key, ...extra,
    });
    const fixture: BscRefundFixture = {
      bsc, usdt, usdc, env,
      async wallet(funds = {}, extra = {}) {
        const key = generatePrivateKey();
        const vars = env(key, extra);
        const sender = bscRefundSenderFromConfig(parseBscConfig(vars), parseBscRefundConfig(vars), new ChainRpcMetrics(new Registry()))!;
        const address = sender.wallet as Address;
        await bsc.anvil.rpc('anvil_setBalance', [address, `0x${(funds.bnb ?? BNB).toString(16)}`]);
        const units = funds.usdt ?? 1_000n * ONE;
        if (units > 0n) await bsc.mint(usdt, address, units);
        return { sender, address, key };
      },
      senderWith(key, settings, signer) {
        const config = parseBscConfig(env(key));
        const refundConfig = parseBscRefundConfig(env(key))!;
        const { client, guard } = bscRpc(config.reader!, new ChainRpcMetrics(new Registry()));
        const reader = new BscChainReader(client, { guard, confirmations: 120, scanRange: 2000, knownDecimals: new Map() });
        const { signer: _signer, ...defaults } = refundConfig;
        return new BscRefundSender(client, signer ?? new BscHotWalletSigner(key, 'test key'), { ...defaults, tokens: config.tokens, reader, guard, ...settings });
      },
      refund(amount, currency = 'USDT') {
        const ulid = () => randomBytes(13).toString('hex').toUpperCase().slice(0, 26);
        return {
          id: `rfd_${ulid()}`, paymentId: `pay_${ulid()}`, tenantId: `ten_${randomUUID()}`, amount, currency, blockchain: 'BSC',
          refundAddress: `0x${randomBytes(20).toString('hex')}` as Address, status: 'pending', txHash: null, createdAt: new Date(), sentAt: null, failureReason: null,
        };
      },
      attemptOf(refund, wallet, signed, signedAt = new Date()) {
        return {
          id: `rfa_${randomBytes(13).toString('hex').toUpperCase().slice(0, 26)}`, refundId: refund.id, blockchain: 'BSC', wallet,
          txHashes: [signed.txHash], rawTransaction: signed.rawTransaction, nonce: signed.nonce, blockhash: null, lastValidHeight: null,
          status: 'broadcast', attempts: 1, landedHash: null, landedHeight: null, createdAt: signedAt, signedAt,
        };
      },
      gasPriceOf(raw) {
        const parsed = parseTransaction(raw as Hex);
        if (parsed.type !== 'legacy') throw new Error(`not a legacy transaction: ${parsed.type}`);
        return parsed.gasPrice!;
      },
      async withoutAutomine(work) {
        await bsc.anvil.rpc('evm_setAutomine', [false]);
        try {
          return await work();
        } finally {
          await bsc.anvil.rpc('evm_setAutomine', [true]);
        }
      },
      async outsideTransaction(key, options = {}) {
        const account = privateKeyToAccount(key);
        const client = createWalletClient({ account, chain: bsc.chain, transport: http(bsc.url) });
        return client.sendTransaction({ to: account.address, value: 1n, type: 'legacy', ...options });
      },
      stop: () => bsc.stop(),
    };
    return fixture;
  } catch (error) {
    await bsc.stop();
    throw error;
  }
}
