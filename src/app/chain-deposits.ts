import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type * as BscAdapterModule from '../adapters/chains/bsc/bsc-chain-adapter';
import type * as DevelopmentDeriverModule from '../adapters/chains/development-address-deriver';
import { DEVELOPMENT_KEY_ID } from '../adapters/chains/development-key';
import type * as SolanaAdapterModule from '../adapters/chains/solana/solana-chain';
import type { ChainMetrics, ChainWatchGauges } from '../adapters/http/chain-metrics';
import type { ChainWatchRepository } from '../adapters/persistence/chain-watch.repository';
import { ChainWatcher } from '../adapters/workers/chain-watcher';
import { BLOCKCHAINS, type Blockchain } from '../core/catalog/catalog';
import type { ChainReader, DepositAddressDeriver, WatchedToken } from '../core/deposits/chain-ports';
import type { Stablecoin } from '../core/shared/money';
import type { ChainDepositSetup } from '../core/deposits/deposit-addresses';
import type { CheckedChain, TransactionReader } from '../core/refunds/hand-sent-check';
import { scanChain, type ScanChainDeps } from '../core/deposits/scan-chain';
import { ConfigError, namedProblem, type Config, type ConfigProblem } from './config';

/** What the composition root hands a chain adapter (src/adapters/chains/<chain>). */
export interface ChainAdapterContext {
  /** Every BSC_* and SOLANA_* variable as set (the adapter parses its own and names problems, never values). */
  readonly variables: Readonly<Record<string, string>>;
  readonly production: boolean;
  /** The tokens credited on the adapter's chain. */
  readonly tokens: readonly WatchedToken[];
  readonly logger: Logger;
  /** Counts a failed call to one RPC endpoint (`endpoint`: its configured name, never a URL carrying a key). */
  readonly onRpcError: (chain: Blockchain, endpoint: string) => void;
}

/** One chain as its adapter supplies it (docs/decisions.md § Onchain deposits). */
export interface ChainSupply {
  readonly chain: Blockchain;
  /** The chain's reader over its RPC endpoints; absent, addresses are handed out and nobody watches. */
  readonly reader?: ChainReader;
  readonly deriver: DepositAddressDeriver;
  /** Names the key behind `deriver` (a fingerprint of the xpub or seed, never the key itself). */
  readonly keyId: string;
  /** True for the documented development key: served to sandbox tenants only, refused in production. */
  readonly developmentKey: boolean;
  /** Releases the adapter's connections at stop. */
  close?(): Promise<void>;
}

/** A chain adapter's entry: its chain's supply when its variables are set, else undefined (the chain is off). */
export type ChainAdapter = (context: ChainAdapterContext) => ChainSupply | undefined;

/** A chain adapter behind the variable prefix that switches it on. */
export interface ChainAdapterEntry {
  /** `BSC_` or `SOLANA_`: with no variable of this prefix set, the chain is off and its adapter is never loaded. */
  readonly prefix: string;
  /** Loads the adapter's module (its chain libraries with it) and answers its entry. */
  readonly load: () => ChainAdapter;
}

/**
 * The chain adapters, one entry per chain (docs/architecture.md): an adapter that reads its own
 * variables and answers a ChainSupply is added here and nowhere else. A chain without one gets the
 * development key's addresses outside production, and no watcher. An adapter's module, and the
 * chain library it imports (viem, @solana/kit), is loaded only when one of its variables is set:
 * a process that watches no chain does not pay for loading them (docs/decisions.md § Tests).
 */
export const CHAIN_ADAPTERS: readonly ChainAdapterEntry[] = [
  { prefix: 'BSC_', load: () => (require('../adapters/chains/bsc/bsc-chain-adapter') as typeof BscAdapterModule).bscChainAdapter },
  { prefix: 'SOLANA_', load: () => (require('../adapters/chains/solana/solana-chain') as typeof SolanaAdapterModule).solanaChainAdapter },
];

/**
 * The development key's deriver (DepositAddressDeriver port), its module loaded at the first
 * address asked for: most processes never hand out a development address.
 */
class LazyDevelopmentDeriver implements DepositAddressDeriver {
  private deriver: DepositAddressDeriver | undefined;

  constructor(private readonly tokens: readonly WatchedToken[]) {}

  private loaded(): DepositAddressDeriver {
    this.deriver ??= new (require('../adapters/chains/development-address-deriver') as typeof DevelopmentDeriverModule).DevelopmentAddressDeriver(this.tokens);
    return this.deriver;
  }

  addressAt(chain: Blockchain, index: number): string | Promise<string> {
    return this.loaded().addressAt(chain, index);
  }

  paymentAddress(chain: Blockchain, currency: Stablecoin, address: string): string | Promise<string> {
    return this.loaded().paymentAddress(chain, currency, address);
  }
}

/** The tokens credited per chain, from the configuration (the real contracts and mints by default). */
export function watchedTokens(config: Config): WatchedToken[] {
  return [
    { chain: 'BSC', currency: 'USDT', token: config.BSC_USDT_CONTRACT.toLowerCase(), decimals: config.BSC_TOKEN_DECIMALS },
    { chain: 'BSC', currency: 'USDC', token: config.BSC_USDC_CONTRACT.toLowerCase(), decimals: config.BSC_TOKEN_DECIMALS },
    { chain: 'SOLANA', currency: 'USDC', token: config.SOLANA_USDC_MINT, decimals: config.SOLANA_TOKEN_DECIMALS },
    { chain: 'SOLANA', currency: 'USDT', token: config.SOLANA_USDT_MINT, decimals: config.SOLANA_TOKEN_DECIMALS },
  ];
}

/** The chains as configured: address setups for the use cases, and the readers to watch. */
export interface ChainDeposits {
  readonly setups: readonly ChainDepositSetup[];
  readonly watched: ReadonlyArray<{ readonly reader: ChainReader; readonly keyId: string; readonly tokens: readonly WatchedToken[] }>;
  /** A watched chain whose reader also reads single transactions (hand-sent refunds are checked on it); undefined otherwise. */
  checked(chain: Blockchain): CheckedChain | undefined;
  close(): Promise<void>;
}

/**
 * Asks every chain adapter (and `extra`, a test's fake chains) for its supply and turns them into
 * address setups and watchers (docs/decisions.md § Onchain deposits: sandbox addresses). Throws a
 * ConfigError for an adapter that refuses its variables, two supplies of one chain, or the
 * development key in production.
 */
export function chainDeposits(config: Config, logger: Logger, metrics: Pick<ChainMetrics, 'rpcError'>, extra: readonly ChainSupply[] = []): ChainDeposits {
  const tokens = watchedTokens(config);
  const production = config.NODE_ENV === 'production';
  // An adapter refuses its variables by throwing; its message names them, never their values.
  const refused: ConfigProblem[] = [];
  const supplies = [
    ...CHAIN_ADAPTERS.filter(({ prefix }) => Object.keys(config.chainVariables).some((name) => name.startsWith(prefix))).map(({ load }) => {
      try {
        return load()({ variables: config.chainVariables, production, tokens, logger, onRpcError: (chain, endpoint) => metrics.rpcError(chain, endpoint) });
      } catch (error) {
        refused.push(namedProblem(error instanceof Error ? error.message : String(error)));
        return undefined;
      }
    }).filter((s): s is ChainSupply => s !== undefined),
    ...extra,
  ];
  const problems = BLOCKCHAINS.filter((chain) => supplies.filter((s) => s.chain === chain).length > 1).map((chain) => `${chain}: configured twice`);
  if (production) problems.push(...supplies.filter((s) => s.developmentKey).map((s) => `${s.chain}: the development deposit key is refused in production`));
  if (refused.length + problems.length > 0) throw new ConfigError([...refused, ...problems.map((message) => ({ variables: [], message }))]);
  const development = new LazyDevelopmentDeriver(tokens);
  const setups = BLOCKCHAINS.flatMap((chain): ChainDepositSetup[] => {
    const supply = supplies.find((s) => s.chain === chain);
    const chainTokens = tokens.filter((t) => t.chain === chain);
    if (supply) return [{ chain, deriver: supply.deriver, keyId: supply.keyId, tokens: chainTokens, serves: supply.developmentKey ? ['sandbox'] : ['sandbox', 'live'] }];
    return production ? [] : [{ chain, deriver: development, keyId: DEVELOPMENT_KEY_ID, tokens: chainTokens, serves: ['sandbox'] }];
  });
  return {
    setups,
    watched: supplies.flatMap((s) => (s.reader ? [{ reader: s.reader, keyId: s.keyId, tokens: tokens.filter((t) => t.chain === s.chain) }] : [])),
    checked: (chain) => {
      const reader = supplies.find((s) => s.chain === chain)?.reader;
      return reader && readsTransactions(reader) ? { reader, tokens: tokens.filter((t) => t.chain === chain) } : undefined;
    },
    close: async () => {
      await Promise.all(supplies.map((s) => s.close?.()));
    },
  };
}

/** Whether a chain's reader also implements the TransactionReader port (the real chains' readers do; a test's fake may not). */
function readsTransactions(reader: ChainReader): reader is ChainReader & TransactionReader {
  return typeof (reader as Partial<TransactionReader>).transfersIn === 'function';
}

/** This process's lease holder id: host, process and a random part (a restarted process is another holder). */
export function watcherHolderId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** What the watchers need besides their chains. */
export type WatcherDeps = Omit<ScanChainDeps, 'tokens' | 'keyId'> & {
  readonly lease: ChainWatchRepository;
  readonly leaseMs: number;
  readonly intervalMs: number;
  readonly metrics: Pick<ChainMetrics, 'passed'>;
  readonly logger: Logger;
};

/** One watcher per watched chain, each running scanChain under the chain's lease. */
export function chainWatchers(chains: ChainDeposits, deps: WatcherDeps): ChainWatcher[] {
  const { lease, leaseMs, intervalMs, metrics, logger, ...scan } = deps;
  return chains.watched.map(({ reader, keyId, tokens }) => new ChainWatcher({
    reader, lease, holder: deps.holder, leaseMs, intervalMs, logger,
    pass: (r) => scanChain({
      ...scan, tokens, keyId,
      onLedgerRefused: (d) => logger.error({ depositId: d.id, chain: d.blockchain, tenantId: d.tenantId }, 'final deposit not credited: its ledger reference is already posted; left detected for an operator'),
      // The list entry only: the sender address itself is on the deposit, for operators (docs/decisions.md § Screening: deposits).
      onHeld: (d, hits) => logger.warn({
        depositId: d.id, chain: d.blockchain, tenantId: d.tenantId, screening: hits.map((h) => ({ kind: h.kind, source: h.source, entryId: h.entryId })),
      }, 'deposit held for compliance review: its sender is a listed address'),
    }, r),
    onReport: (report) => {
      metrics.passed(report);
      if (report.credited.length + report.dropped.length + report.held.length + report.findings.length > 0) {
        logger.info({
          chain: report.chain, credited: report.credited.length, dropped: report.dropped.length, held: report.held.length, findings: report.findings.map((f) => f.kind),
        }, 'chain watcher pass');
      }
    },
  }));
}

/**
 * Each watched chain's position for /readyz details and the metrics (docs/decisions.md § Onchain
 * deposits: watchers): lag in blocks (head − scanned) and seconds (since a pass last reached the
 * head, by PostgreSQL's clock), and whether a live lease means some replica watches it.
 */
export async function chainStatus(chains: ChainDeposits, repository: ChainWatchRepository): Promise<Array<ChainWatchGauges & { watching: boolean; scannedTo: bigint | null }>> {
  const watched = new Set(chains.watched.map((w) => w.reader.chain));
  return (await repository.statuses()).filter((s) => watched.has(s.chain)).map((s) => ({
    chain: s.chain, head: s.head, finalized: s.finalized, scannedTo: s.scannedTo,
    lagBlocks: s.scannedTo === null ? 0 : Math.max(0, Number(s.head - s.scannedTo)),
    lagSeconds: s.caughtUpAt ? Math.max(0, Math.round((s.readAt.getTime() - s.caughtUpAt.getTime()) / 1000)) : null,
    watching: s.leaseUntil !== null && s.leaseUntil.getTime() > s.readAt.getTime(),
  }));
}
