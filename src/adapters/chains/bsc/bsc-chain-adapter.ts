import { createHash } from 'node:crypto';
import type { Blockchain } from '../../../core/catalog/catalog';
import type { ChainReader, DepositAddressDeriver } from '../../../core/deposits/chain-ports';
import type { Stablecoin } from '../../../core/shared/money';
import { DEVELOPMENT_KEY_ID } from '../development-key';
import type { RpcEndpointMetrics } from '../rpc-endpoint-metrics';
import { BSC_DEVELOPMENT_XPUB, BscAddressDeriver } from './bsc-address-deriver';
import { bscAddressDeriverFromConfig, bscChainReaderFromConfig } from './bsc-chain';
import { parseBscConfig } from './bsc-config';

/**
 * What the composition root hands the BSC adapter (structurally its ChainAdapterContext: adapters
 * never import the app, docs/architecture.md).
 */
export interface BscAdapterContext {
  /** Every BSC_* (and SOLANA_*) variable as set; only BSC_* ones are read. */
  readonly variables: Readonly<Record<string, string>>;
  readonly production: boolean;
  /** Counts a failed call to one RPC endpoint (`endpoint`: the URL's host label, never the URL). */
  readonly onRpcError: (chain: Blockchain, endpoint: string) => void;
}

/** The BSC chain as the adapter supplies it (structurally the app's ChainSupply). */
export interface BscChainSupply {
  readonly chain: 'BSC';
  /** The reader over BSC_RPC_URLS; absent when only the key is known (nothing watched). */
  readonly reader?: ChainReader;
  readonly deriver: DepositAddressDeriver;
  /** `development` for the development key (the id its sandbox addresses already carry), else `bscKeyId(xpub)`. */
  readonly keyId: string;
  /** True for the documented development key (sandbox tenants only; production refuses it). */
  readonly developmentKey: boolean;
}

/**
 * Names an extended public key without revealing it: `bsc-xpub-` and the first 16 hex digits of
 * the SHA-256 of its text. Stored with every address derived from it, so a key change never reuses
 * an address (docs/chains.md § Deposit addresses). Pure.
 */
export function bscKeyId(xpub: string): string {
  return `bsc-xpub-${createHash('sha256').update(xpub).digest('hex').slice(0, 16)}`;
}

/** BscAddressDeriver behind the core's DepositAddressDeriver port (BSC only). */
class BscDepositAddresses implements DepositAddressDeriver {
  constructor(private readonly deriver: BscAddressDeriver) {}

  addressAt(chain: Blockchain, index: number): string {
    if (chain !== 'BSC') throw new Error(`the BSC deriver cannot derive ${chain} addresses`);
    return this.deriver.addressAt(index);
  }

  paymentAddress(_chain: Blockchain, _currency: Stablecoin, address: string): string {
    return this.deriver.paymentAddress(address);
  }
}

/**
 * The BSC entry of the composition root's chain adapters (docs/chains.md § Configuration): reads
 * the BSC_* variables with `parseBscConfig`. Undefined when no BSC_* variable is set (the chain is
 * off: the root then gives sandbox tenants development addresses and watches nothing). Otherwise
 * the deriver from BSC_DEPOSIT_XPUB (the development key outside production when unset), its key
 * id, and the reader over BSC_RPC_URLS whose failed requests are counted through `onRpcError`.
 * Throws `BscConfigError` naming the variables at fault, never their values, for a partial or
 * malformed configuration, and in production for the development key or a single endpoint.
 */
export function bscChainAdapter(context: BscAdapterContext): BscChainSupply | undefined {
  const variables = Object.fromEntries(Object.entries(context.variables).filter(([name]) => name.startsWith('BSC_')));
  if (Object.keys(variables).length === 0) return undefined;
  const config = parseBscConfig({ ...variables, NODE_ENV: context.production ? 'production' : undefined });
  const deriver = bscAddressDeriverFromConfig(config.depositKey);
  if (!config.depositKey || !deriver) return undefined;
  // Every request is observed; the service's metrics count the failures per endpoint label.
  const metrics: RpcEndpointMetrics = {
    requested: (_chain, endpoint, _method, ok) => {
      if (!ok) context.onRpcError('BSC', endpoint);
    },
  };
  const reader = bscChainReaderFromConfig(config, metrics);
  const { xpub, development } = config.depositKey;
  return {
    chain: 'BSC',
    ...(reader ? { reader } : {}),
    deriver: new BscDepositAddresses(deriver),
    // The development key's sandbox addresses were handed out under this id before BSC was watched: they stay the tenants'.
    keyId: xpub === BSC_DEVELOPMENT_XPUB ? DEVELOPMENT_KEY_ID : bscKeyId(xpub),
    developmentKey: development,
  };
}
