/**
 * A local BSC with USDT, USDC and a foreign token deployed, a funded sender, deposit addresses from
 * the development key, and readers built the way the service builds them (parseBscConfig →
 * bscChainReaderFromConfig), for the BSC adapter tests.
 */
import { Registry } from 'prom-client';
import type { Address } from 'viem';
import { BscAddressDeriver, BSC_DEVELOPMENT_XPUB } from '../../../src/adapters/chains/bsc/bsc-address-deriver';
import { bscChainReaderFromConfig, bscRpc } from '../../../src/adapters/chains/bsc/bsc-chain';
import { BscChainReader, type BscReaderSettings } from '../../../src/adapters/chains/bsc/bsc-chain-reader';
import { parseBscConfig } from '../../../src/adapters/chains/bsc/bsc-config';
import { ChainRpcMetrics } from '../../../src/adapters/chains/rpc-endpoint-metrics';
import { LocalBsc } from './local-bsc';

/** 1 token with 18 decimals, in base units. */
export const ONE = 10n ** 18n;

export interface BscReaderFixture {
  readonly bsc: LocalBsc;
  readonly usdt: Address;
  readonly usdc: Address;
  /** A token that is not ours (18 decimals). */
  readonly other: Address;
  /** Anvil account 1, holding 1,000,000 of each token. */
  readonly senderIndex: 1;
  readonly sender: Address;
  /** Deposit address `i` of the development key (lower case). */
  depositAddress(i: number): Address;
  /** A fresh registry with the RPC counters, per reader. */
  metrics(): { registry: Registry; metrics: ChainRpcMetrics };
  /** A reader from the variables the service reads, BSC_RPC_URLS = `urls`, tokens = the local ones. */
  reader(urls: readonly string[], env?: Record<string, string>, metrics?: ChainRpcMetrics): BscChainReader;
  /** A reader with explicit settings (address chunking, ranges per scan). */
  readerWith(urls: readonly string[], settings: Partial<BscReaderSettings>, metrics?: ChainRpcMetrics): BscChainReader;
  stop(): Promise<void>;
}

export async function startBscReaderFixture(): Promise<BscReaderFixture> {
  const bsc = await LocalBsc.start();
  try {
    const usdt = await bsc.deployToken('Tether USD', 'USDT');
    const usdc = await bsc.deployToken('USD Coin', 'USDC');
    const other = await bsc.deployToken('Other Token', 'OTH');
    const sender = bsc.account(1).address.toLowerCase() as Address;
    for (const token of [usdt, usdc, other]) await bsc.mint(token, sender, 1_000_000n * ONE);
    const deriver = new BscAddressDeriver(BSC_DEVELOPMENT_XPUB);
    const envFor = (urls: readonly string[], env: Record<string, string> = {}) => ({
      BSC_RPC_URLS: urls.join(','), BSC_USDT_CONTRACT: usdt, BSC_USDC_CONTRACT: usdc, BSC_START_BLOCK: '0', ...env,
    });
    const metrics = () => {
      const registry = new Registry();
      return { registry, metrics: new ChainRpcMetrics(registry) };
    };
    return {
      bsc, usdt, usdc, other, senderIndex: 1, sender,
      depositAddress: (i) => deriver.addressAt(i) as Address,
      metrics,
      reader: (urls, env, m) => bscChainReaderFromConfig(parseBscConfig(envFor(urls, env)), m ?? metrics().metrics)!,
      readerWith: (urls, settings, m) => {
        const config = parseBscConfig(envFor(urls)).reader!;
        const { client, guard } = bscRpc(config, m ?? metrics().metrics);
        return new BscChainReader(client, {
          guard, confirmations: config.confirmations, startBlock: 0n, scanRange: config.scanRange,
          knownDecimals: new Map([[usdt, 18], [usdc, 18]]), ...settings,
        });
      },
      stop: () => bsc.stop(),
    };
  } catch (error) {
    await bsc.stop();
    throw error;
  }
}

/** A counter's value for exactly these labels (0 when never counted). */
export async function counterValue(registry: Registry, name: string, labels: Record<string, string>): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  const match = values.find((v) => Object.entries(labels).every(([k, val]) => v.labels[k] === val)
    && Object.keys(v.labels).length === Object.keys(labels).length);
  return match?.value ?? 0;
}
