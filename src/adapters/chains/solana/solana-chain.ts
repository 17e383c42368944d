import type { Blockchain } from '../../../core/catalog/catalog';
import type { ChainReader, DepositAddressDeriver, WatchedToken } from '../../../core/deposits/chain-ports';
import { DEVELOPMENT_KEY_ID } from '../development-key';
import type { RpcEndpointMetrics } from '../rpc-endpoint-metrics';
import { SolanaAddressDeriver } from './solana-address-deriver';
import { SolanaChainReader } from './solana-chain-reader';
import { parseSolanaConfig, SolanaConfigError } from './solana-config';
import { SeedKeyCustody } from './solana-key-custody';
import { solanaRpc } from './solana-rpc';

/** What the composition root hands the adapter (its ChainAdapterContext, src/app/chain-deposits.ts). */
export interface SolanaAdapterContext {
  /** Every BSC_* and SOLANA_* variable as set. */
  readonly variables: Readonly<Record<string, string>>;
  readonly production: boolean;
  /** The tokens credited; the SOLANA ones are watched. */
  readonly tokens: readonly WatchedToken[];
  /** Counts a failed call to one RPC endpoint (`endpoint`: its host label, never its URL). */
  readonly onRpcError: (chain: Blockchain, endpoint: string) => void;
}

/** Solana as the adapter supplies it (the composition root's ChainSupply). */
export interface SolanaSupply {
  readonly chain: 'SOLANA';
  readonly reader: ChainReader;
  readonly deriver: DepositAddressDeriver;
  /** `development` for the development seed, else the custody's fingerprint (`solana:` + 16 hex digits). */
  readonly keyId: string;
  readonly developmentKey: boolean;
}

/**
 * The Solana chain adapter (docs/chains.md § Solana): undefined while no SOLANA_ deposit variable
 * is set (the chain is off); else the reader over SOLANA_RPC_URLS with failover, the deriver over
 * the seed's key custody, and the key's id: the development seed keeps the development key's id
 * (its owners are the ones the development deriver hands out) and is marked so that production
 * refuses it; another seed is named by its fingerprint, never by itself. RPC errors are counted
 * per endpoint through `context.onRpcError`. Throws SolanaConfigError for a bad configuration.
 */
export function solanaChainAdapter(context: SolanaAdapterContext): SolanaSupply | undefined {
  const config = parseSolanaConfig({ ...context.variables, NODE_ENV: context.production ? 'production' : 'development' });
  if (!config) return undefined;
  const tokens = context.tokens.filter((t) => t.chain === 'SOLANA');
  if (tokens.length === 0) throw new SolanaConfigError('Invalid Solana configuration: no Solana mint is watched');
  const custody = new SeedKeyCustody(config.seed);
  const metrics: RpcEndpointMetrics = {
    requested: (_chain, endpoint, _method, ok) => {
      if (!ok) context.onRpcError('SOLANA', endpoint);
    },
  };
  const reader = new SolanaChainReader(solanaRpc(config.reader, metrics), {
    mints: tokens.map((t) => t.token),
    ...(config.reader.startSlot !== undefined ? { startSlot: config.reader.startSlot } : {}),
  });
  return {
    chain: 'SOLANA', reader, deriver: new SolanaAddressDeriver(custody, tokens),
    keyId: config.development ? DEVELOPMENT_KEY_ID : custody.fingerprint, developmentKey: config.development,
  };
}
