import type { Blockchain } from '../catalog/catalog';
import type { TenantEnvironment, TenantEnvironments } from '../routing/provider-routing';
import type { Clock } from '../shared/clock';
import type { Stablecoin } from '../shared/money';
import type { DepositAddressDeriver, WatchedToken } from './chain-ports';
import type { DepositAddress, DepositAddressRegistry } from './deposit-ports';

/** BIP-32 non-hardened children run from 0 to 2^31 − 1; the same bound serves Solana's owner indexes. */
const MAX_DERIVATION_INDEX = 2 ** 31 - 1;

/**
 * One chain's deposits as configured (docs/decisions.md § Onchain deposits: addresses): how its
 * addresses are derived, under which key, the tokens it credits, and which tenants get addresses
 * (every tenant under a configured key; sandbox tenants only under the development key).
 */
export interface ChainDepositSetup {
  readonly chain: Blockchain;
  readonly deriver: DepositAddressDeriver;
  /** Names the key behind `deriver` (stored with each address, so another key never reuses one). */
  readonly keyId: string;
  readonly tokens: readonly WatchedToken[];
  readonly serves: readonly TenantEnvironment[];
}

/** Where a tenant pays one stablecoin on one chain (OpenAPI listDepositAddresses). */
export interface DepositAddressView {
  blockchain: Blockchain;
  currency: Stablecoin;
  /** Where the sender pays: the address itself on BSC, the owner's associated token account on Solana. */
  address: string;
  /** The tenant's deposit address (the token accounts' owner on Solana). */
  ownerAddress: string;
  /** Token contract (BSC) or mint (Solana) to send; another token is never credited. */
  token: string;
}

/** Ports and settings of the deposit address use cases. */
export interface DepositAddressDeps {
  readonly addresses: DepositAddressRegistry;
  readonly chains: readonly ChainDepositSetup[];
  readonly environments: TenantEnvironments;
  readonly clock: Clock;
}

/**
 * The tenant's deposit addresses, one per chain it is served on and token that chain credits
 * (docs/decisions.md § Onchain deposits: addresses). An address is assigned on first read: a
 * derivation index no one had (allocated in the registry, never reused), the deriver's address for
 * it, stored; it never changes after. A tenant served nowhere (an unknown tenant, or a live
 * tenant while only the development key is configured) gets an empty list.
 */
export async function listDepositAddresses(deps: DepositAddressDeps, tenantId: string): Promise<DepositAddressView[]> {
  const environment = await deps.environments.environmentOf(tenantId);
  if (!environment) return [];
  const views: DepositAddressView[] = [];
  for (const setup of deps.chains.filter((c) => c.serves.includes(environment))) {
    const owner = await assignAddress(deps, setup, tenantId);
    for (const token of setup.tokens.filter((t) => t.chain === setup.chain)) {
      const address = await setup.deriver.paymentAddress(setup.chain, token.currency, owner.address);
      views.push({ blockchain: setup.chain, currency: token.currency, address, ownerAddress: owner.address, token: token.token });
    }
  }
  return views;
}

/**
 * The tenant's address on `setup.chain` under its key, assigned now if it has none. Two first
 * reads at once both derive, one stores; the other reads the stored one back (its index is burnt,
 * never reused). Throws when the registry's indexes run past BIP-32's non-hardened range.
 */
export async function assignAddress(deps: Omit<DepositAddressDeps, 'chains' | 'environments'>, setup: ChainDepositSetup, tenantId: string): Promise<DepositAddress> {
  const stored = await deps.addresses.find(tenantId, setup.chain, setup.keyId);
  if (stored) return stored;
  const index = await deps.addresses.allocateIndex(setup.chain);
  if (!Number.isInteger(index) || index < 0 || index > MAX_DERIVATION_INDEX) throw new Error(`${setup.chain} deposit address index ${index} is out of range`);
  const address: DepositAddress = {
    tenantId, blockchain: setup.chain, keyId: setup.keyId, index, address: await setup.deriver.addressAt(setup.chain, index), createdAt: deps.clock.now(),
  };
  if ((await deps.addresses.insert(address)) === 'inserted') return address;
  const winner = await deps.addresses.find(tenantId, setup.chain, setup.keyId);
  if (!winner) throw new Error(`${setup.chain} deposit address of ${tenantId} was neither stored nor found`);
  return winner;
}
