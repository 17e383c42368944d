/**
 * The real service watching a local BSC (docs/chains.md § Local chains): anvil with USDT, USDC and
 * a foreign token deployed, a funded sender, a deposit key of this run's own (a random xpub, so no
 * transaction of this run repeats one stored by an earlier run on the same database), and the
 * variables that point the service at the node. Helpers read what a tenant sees over REST.
 */
import { HDKey } from '@scure/bip32';
import { randomBytes } from 'node:crypto';
import type { Address } from 'viem';
import { eventually, type TestService } from '../test-service';
import { LocalBsc } from './local-bsc';

/** 1 token with 18 decimals, in base units. */
export const ONE = 10n ** 18n;

/** A deposit as GET /v1/deposits shows it (the fields the tests read). */
export interface DepositSeen {
  id: string;
  status: 'detected' | 'credited' | 'dropped';
  amount: string;
  remainderUnits: string;
  currency: string;
  token: string;
  txHash: string;
  index: number;
  height: number;
  sender: string;
  depositAddress: string;
  ledgerTransactionId: string | null;
}

export interface BscServiceFixture {
  readonly bsc: LocalBsc;
  readonly usdt: Address;
  readonly usdc: Address;
  /** A token that is not ours (18 decimals). */
  readonly other: Address;
  /** Anvil account 1, holding 1,000,000 of each token. */
  readonly senderIndex: 1;
  readonly sender: Address;
  /** This run's deposit key. */
  readonly xpub: string;
  /** The service's BSC variables with BSC_RPC_URLS = `urls` (default: the node), scanning from the block the fixture started at. */
  env(urls?: readonly string[], extra?: Record<string, string>): Record<string, string>;
  stop(): Promise<void>;
}

/** An xpub nobody else uses: m/44'/60'/0'/0 of a random seed. */
export function randomXpub(): string {
  return HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/60'/0'/0").publicExtendedKey;
}

export async function startBscServiceFixture(): Promise<BscServiceFixture> {
  const bsc = await LocalBsc.start();
  try {
    const usdt = await bsc.deployToken('Tether USD', 'USDT');
    const usdc = await bsc.deployToken('USD Coin', 'USDC');
    const other = await bsc.deployToken('Other Token', 'OTH');
    const sender = bsc.account(1).address.toLowerCase() as Address;
    for (const token of [usdt, usdc, other]) await bsc.mint(token, sender, 1_000_000n * ONE);
    const start = (await bsc.heights()).head;
    const xpub = randomXpub();
    return {
      bsc, usdt, usdc, other, senderIndex: 1, sender, xpub,
      env: (urls = [bsc.url], extra = {}) => ({
        BSC_RPC_URLS: urls.join(','), BSC_DEPOSIT_XPUB: xpub, BSC_USDT_CONTRACT: usdt, BSC_USDC_CONTRACT: usdc,
        BSC_START_BLOCK: String(start), BSC_RPC_TIMEOUT_MS: '2000',
        CHAIN_WATCH_INTERVAL_MS: '50', CHAIN_WATCH_LEASE_MS: '1000', ...extra,
      }),
      stop: () => bsc.stop(),
    };
  } catch (error) {
    await bsc.stop();
    throw error;
  }
}

/** SQL on the service's database. */
export async function sql<T = Record<string, unknown>>(service: TestService, text: string, params: unknown[] = []): Promise<T[]> {
  return (await service.database.orm.em.fork().getConnection().execute(text, params)) as T[];
}

/** Forgets the stored BSC cursor and lease (an earlier file's chain): the watcher starts at BSC_START_BLOCK. */
export async function forgetBscCursor(service: TestService): Promise<void> {
  await sql(service, "delete from chain_watchers where blockchain = 'BSC'");
}

/** The tenant's BSC deposit address for USDT, as GET /v1/deposit-addresses shows it. */
export async function bscAddressOf(service: TestService, apiKey: string): Promise<Address> {
  const res = await service.call('GET', '/v1/deposit-addresses', { apiKey });
  if (res.status !== 200) throw new Error(`deposit addresses: ${res.status} ${res.text}`);
  const row = (res.body as Array<{ blockchain: string; currency: string; address: string }>).find((a) => a.blockchain === 'BSC' && a.currency === 'USDT');
  if (!row) throw new Error('no BSC deposit address');
  return row.address.toLowerCase() as Address;
}

/** The tenant's deposits (every page of 100 is enough for these tests). */
export async function depositsOf(service: TestService, apiKey: string): Promise<DepositSeen[]> {
  const res = await service.call('GET', '/v1/deposits?limit=100', { apiKey });
  if (res.status !== 200) throw new Error(`deposits: ${res.status} ${res.text}`);
  return res.body as DepositSeen[];
}

/** Waits until the tenant has `count` deposits all in `status` (or one of the statuses listed). */
export async function depositsIn(service: TestService, apiKey: string, count: number, status: string, timeoutMs = 20_000): Promise<DepositSeen[]> {
  return eventually(async () => {
    const all = await depositsOf(service, apiKey);
    return all.length === count && all.every((d) => status.split(',').includes(d.status)) ? all : undefined;
  }, timeoutMs);
}

/** The tenant's available balance in `currency`. */
export async function available(service: TestService, apiKey: string, currency: 'USDT' | 'USDC'): Promise<string> {
  const res = await service.call('GET', '/v1/balances', { apiKey });
  return (res.body as Array<{ currency: string; available: string }>).find((b) => b.currency === currency)!.available;
}

/** The tenant's ledger transactions of kind `deposit`. */
export async function depositLedger(service: TestService, tenantId: string): Promise<Array<{ id: string; amount: string; currency: string }>> {
  return sql(service, "select id, amount::text as amount, currency from ledger_transactions where tenant_id = ? and kind = 'deposit' order by id", [tenantId]);
}
