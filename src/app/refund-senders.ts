import type { Logger } from 'pino';
import type * as BscConfigModule from '../adapters/chains/bsc/bsc-config';
import type * as BscRefundConfigModule from '../adapters/chains/bsc/bsc-refund-config';
import type * as BscRefundSenderModule from '../adapters/chains/bsc/bsc-refund-sender';
import type * as SolanaConfigModule from '../adapters/chains/solana/solana-config';
import type * as SolanaRefundConfigModule from '../adapters/chains/solana/solana-refund-config';
import type * as SolanaRefundSenderModule from '../adapters/chains/solana/solana-refund-sender';
import type { RpcEndpointMetrics } from '../adapters/chains/rpc-endpoint-metrics';
import type { Blockchain } from '../core/catalog/catalog';
import type { RefundMetrics } from '../adapters/http/refund-metrics';
import type { RefundSenderRepository } from '../adapters/persistence/refund-sender.repository';
import { RefundBalanceMonitor } from '../adapters/workers/refund-balance-monitor';
import { RefundWorker } from '../adapters/workers/refund-worker';
import type { LowWatermarks } from '../core/refunds/hot-wallet-balances';
import type { RefundSender } from '../core/refunds/refund-sender';
import type { ShortfallChange } from '../core/refunds/refund-funds';
import { sendRefundsPass } from '../core/refunds/send-refund';
import type { Clock, IdGenerator } from '../core/shared/clock';
import type { UnitOfWork } from '../core/shared/unit-of-work';
import { watchedTokens } from './chain-deposits';
import { ConfigError, namedProblem, type Config } from './config';

/**
 * The hot wallets' senders the configuration sets (docs/decisions.md § Refunds: key custody;
 * docs/chains.md § BSC refunds, § Solana refunds), in the order [BSC, Solana]: BSC's when
 * BSC_HOT_WALLET_KEY_FILE (or, outside production, BSC_HOT_WALLET_KEY) and BSC_RPC_URLS are set,
 * Solana's when SOLANA_HOT_WALLET_KEY_FILE (or, outside production, SOLANA_HOT_WALLET_KEY) and
 * SOLANA_RPC_URLS are set; an entry is undefined otherwise, and then nothing changes for that
 * chain. Failed RPC requests are counted through `onRpcError` (an endpoint's host label, never its
 * URL). Throws a ConfigError naming the variables at fault, never a key.
 */
export function configuredRefundSenders(config: Config, onRpcError: (chain: Blockchain, endpoint: string) => void): (RefundSender | undefined)[] {
  const bsc = Object.fromEntries(Object.entries(config.chainVariables).filter(([name]) => name.startsWith('BSC_')));
  const env = { ...bsc, NODE_ENV: config.NODE_ENV, REFUND_REPLACE_AFTER_MS: String(config.REFUND_REPLACE_AFTER_MS) };
  const metrics: RpcEndpointMetrics = {
    requested: (_chain, endpoint, _method, ok) => {
      if (!ok) onRpcError('BSC', endpoint);
    },
  };
  try {
    // A chain with none of its variables set has no hot wallet: its modules (and viem) are not loaded.
    const refund = Object.keys(bsc).length === 0 ? undefined : (require('../adapters/chains/bsc/bsc-refund-config') as typeof BscRefundConfigModule).parseBscRefundConfig(env);
    const sender = refund
      ? (require('../adapters/chains/bsc/bsc-refund-sender') as typeof BscRefundSenderModule)
        .bscRefundSenderFromConfig((require('../adapters/chains/bsc/bsc-config') as typeof BscConfigModule).parseBscConfig(env), refund, metrics)
      : undefined;
    return [sender, solanaRefundSender(config, onRpcError)];
  } catch (error) {
    // The adapters' messages name the variables at fault, never their values.
    throw new ConfigError([namedProblem(error instanceof Error ? error.message : String(error))]);
  }
}

/** The Solana hot wallet's sender, over the deposit reader's SOLANA_RPC_URLS and the configured SOLANA mints; undefined without a key. Throws the adapters' errors. */
function solanaRefundSender(config: Config, onRpcError: (chain: Blockchain, endpoint: string) => void): RefundSender | undefined {
  const solana = Object.fromEntries(Object.entries(config.chainVariables).filter(([name]) => name.startsWith('SOLANA_')));
  if (Object.keys(solana).length === 0) return undefined;
  const env = { ...solana, NODE_ENV: config.NODE_ENV };
  const refund = (require('../adapters/chains/solana/solana-refund-config') as typeof SolanaRefundConfigModule).parseSolanaRefundConfig(env);
  if (!refund) return undefined;
  const metrics: RpcEndpointMetrics = {
    requested: (_chain, endpoint, _method, ok) => {
      if (!ok) onRpcError('SOLANA', endpoint);
    },
  };
  const { parseSolanaConfig } = require('../adapters/chains/solana/solana-config') as typeof SolanaConfigModule;
  return (require('../adapters/chains/solana/solana-refund-sender') as typeof SolanaRefundSenderModule).solanaRefundSenderFromConfig(parseSolanaConfig(env)?.reader, refund, watchedTokens(config), metrics);
}

/** What the refunds workers need besides their senders. */
export interface RefundWorkersDeps {
  readonly uow: UnitOfWork;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The hot wallets' leases and shortfall findings (`refund_senders`). */
  readonly wallets: RefundSenderRepository;
  /** This replica's lease holder id (the chain watchers' one). */
  readonly holder: string;
  readonly leaseMs: number;
  readonly intervalMs: number;
  readonly metrics: Pick<RefundMetrics, 'passed' | 'walletBalances' | 'forgetWallet'>;
  /** Least time between two balance reads of a wallet, ms (REFUND_BALANCE_INTERVAL_MS). */
  readonly balanceEveryMs: number;
  /** The balances' low watermarks (`watermarksOf(config)`). */
  readonly watermarks: LowWatermarks;
  readonly logger: Logger;
}

/** The low watermarks the configuration sets (docs/operations.md § Refunds: balances and thresholds); unset ones are absent. */
export function watermarksOf(config: Config): LowWatermarks {
  const set = <T extends string>(entries: [T, string | undefined][]) => Object.fromEntries(entries.filter(([, v]) => v !== undefined)) as Partial<Record<T, string>>;
  return {
    gas: set([['BNB', config.REFUND_GAS_LOW_WATERMARK_BNB], ['SOL', config.REFUND_GAS_LOW_WATERMARK_SOL]]),
    tokens: set([['USDT', config.REFUND_TOKEN_LOW_WATERMARK_USDT], ['USDC', config.REFUND_TOKEN_LOW_WATERMARK_USDC]]),
  };
}

/**
 * One refunds worker per hot wallet (docs/decisions.md § Refunds; docs/operations.md § Refunds).
 * `senders` are the configured hot wallets' senders, an entry undefined for a chain whose hot
 * wallet is not configured (a factory's answer then): no worker for it, and with none at all
 * nothing changes (refunds stay pending for an operator). Throws a ConfigError for a wallet given twice.
 */
export function refundWorkers(senders: readonly (RefundSender | undefined)[], deps: RefundWorkersDeps): RefundWorker[] {
  const configured = senders.filter((s): s is RefundSender => s !== undefined);
  const keys = configured.map((s) => `${s.chain}:${s.wallet.toLowerCase()}`);
  const twice = keys.filter((k, i) => keys.indexOf(k) !== i);
  if (twice.length > 0) throw new ConfigError(twice.map((k) => ({ variables: [], message: `refund hot wallet ${k} configured twice` })));
  const { uow, clock, ids, wallets, holder, leaseMs, intervalMs, metrics, logger } = deps;
  return configured.map((sender) => new RefundWorker({
    chain: sender.chain, wallet: sender.wallet, lease: wallets, holder, leaseMs, intervalMs, logger,
    balances: new RefundBalanceMonitor({
      chain: sender.chain, wallet: sender.wallet, read: () => sender.balances(), watermarks: deps.watermarks, everyMs: deps.balanceEveryMs,
      now: () => clock.now().getTime(), gauges: metrics, logger,
    }),
    pass: () => sendRefundsPass({
      uow, sender, clock, findings: wallets, newAttemptId: () => ids.next('rfa'), newEventId: () => ids.uuid(),
      onShortfall: (change) => logShortfall(logger, change),
    }),
    onOutcome: (outcome) => metrics.passed(sender.chain, outcome),
  }));
}

/** The finding's lines (docs/operations.md § Refunds): one warn when raised or changed, one info when cleared. */
function logShortfall(logger: Logger, { change, finding }: ShortfallChange): void {
  const fields = { chain: finding.chain, wallet: finding.wallet, lacks: finding.lacks, refundId: finding.refundId, currency: finding.currency, amount: finding.amount };
  if (change === 'cleared') logger.info(fields, 'refund hot wallet can send again: refunds resume');
  else logger.warn(fields, `refund hot wallet lacks ${finding.lacks === 'gas' ? 'gas (BNB or SOL for fees)' : 'the token'}: refunds wait pending until it is topped up`);
}
