import { createPublicClient, fallback, http, type PublicClient } from 'viem';
import type { WatchedToken } from '../../../core/deposits/chain-ports';
import { endpointLabels, type RpcEndpointMetrics } from '../rpc-endpoint-metrics';
import { BscAddressDeriver } from './bsc-address-deriver';
import { BscChainReader } from './bsc-chain-reader';
import { BscEndpointGuard } from './bsc-endpoint-guard';
import type { BscConfig, BscDepositKey, BscReaderConfig } from './bsc-config';

/**
 * A viem public client over every URL of `config.rpcUrls`, in order, with viem's `fallback`
 * transport: a request goes to the first endpoint and, when it fails (no answer, HTTP error,
 * timeout, an error answer other than a revert), to the next (https://viem.sh/docs/clients/transports/fallback).
 * Neither the endpoints nor the fallback retry on their own: the reader decides (a refused range
 * is halved, anything else waits for the watcher's next pass). Every attempt is counted per
 * endpoint in `metrics` under the endpoint's host (`endpointLabels`). With it, the guard that
 * checks each endpoint's chain id (its `eth_chainId` requests are counted too).
 */
export function bscRpc(config: BscReaderConfig, metrics: RpcEndpointMetrics): { client: PublicClient; guard: BscEndpointGuard } {
  const labels = endpointLabels(config.rpcUrls);
  const transports = config.rpcUrls.map((url, i) => http(url, { key: labels[i], name: labels[i], retryCount: 0, timeout: config.rpcTimeoutMs }));
  const client = createPublicClient({ transport: fallback(transports, { retryCount: 0 }), cacheTime: 0 });
  client.transport.onResponse(({ method, transport, status }) => {
    metrics.requested('BSC', transport.config.key, method, status === 'success');
  });
  const guard = new BscEndpointGuard(client.transport.transports.map((transport, i) => ({
    label: labels[i]!,
    async chainId() {
      try {
        const id = await transport.request({ method: 'eth_chainId' }) as string;
        metrics.requested('BSC', labels[i]!, 'eth_chainId', true);
        return Number(BigInt(id));
      } catch (error) {
        metrics.requested('BSC', labels[i]!, 'eth_chainId', false);
        throw error;
      }
    },
  })));
  return { client: client as PublicClient, guard };
}

/**
 * The BSC ChainReader that bscChainAdapter supplies (docs/chains.md § BSC reader): the reader over
 * `bscRpc` (failover client and chain id guard), knowing the configured tokens' decimals. Undefined when BSC_RPC_URLS is unset.
 */
export function bscChainReaderFromConfig(config: BscConfig, metrics: RpcEndpointMetrics): BscChainReader | undefined {
  const reader = config.reader;
  if (!reader) return undefined;
  const { client, guard } = bscRpc(reader, metrics);
  return new BscChainReader(client, {
    guard,
    confirmations: reader.confirmations,
    ...(reader.startBlock !== undefined ? { startBlock: reader.startBlock } : {}),
    scanRange: reader.scanRange,
    knownDecimals: new Map(config.tokens.map((t) => [t.contract, t.decimals])),
  });
}

/** The BSC deposit address deriver from the configured key; undefined when there is none (production without BSC). */
export function bscAddressDeriverFromConfig(key: BscDepositKey | undefined): BscAddressDeriver | undefined {
  return key ? new BscAddressDeriver(key.xpub) : undefined;
}

/** The tokens credited on BSC (USDT and USDC, lower-case contracts, 18 decimals) as the core's WatchedToken. */
export function bscWatchedTokens(config: BscConfig): WatchedToken[] {
  return config.tokens.map((t) => ({ chain: 'BSC', currency: t.currency, token: t.contract, decimals: t.decimals }));
}
