import { address } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { Blockchain } from '../../../core/catalog/catalog';
import type { DepositAddressDeriver, WatchedToken } from '../../../core/deposits/chain-ports';
import type { Stablecoin } from '../../../core/shared/money';
import type { SolanaKeyCustody } from './solana-key-custody';

/**
 * The associated token account of `owner` for `mint` under the SPL Token program: the program
 * address derived from [owner, token program, mint] by the Associated Token Account program
 * (https://www.solana-program.com/docs/associated-token-account). Base58; deterministic.
 */
export async function associatedTokenAccount(owner: string, mint: string): Promise<string> {
  const [account] = await findAssociatedTokenPda({ owner: address(owner), mint: address(mint), tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return account;
}

/**
 * Solana deposit addresses (the core's DepositAddressDeriver for SOLANA, docs/chains.md § Solana
 * deposit addresses): address `i` is the owner key `i` the key custody answers; a sender pays a
 * currency to the owner's associated token account of the currency's mint (`tokens`). Throws for
 * another chain (a wiring bug) and for a currency with no watched mint.
 */
export class SolanaAddressDeriver implements DepositAddressDeriver {
  constructor(private readonly custody: SolanaKeyCustody, private readonly tokens: readonly WatchedToken[]) {}

  addressAt(chain: Blockchain, index: number): string {
    if (chain !== 'SOLANA') throw new Error(`the Solana deriver cannot derive ${chain} addresses`);
    return this.custody.ownerAddress(index);
  }

  async paymentAddress(chain: Blockchain, currency: Stablecoin, owner: string): Promise<string> {
    if (chain !== 'SOLANA') throw new Error(`the Solana deriver cannot derive ${chain} addresses`);
    const mint = this.tokens.find((t) => t.chain === 'SOLANA' && t.currency === currency);
    if (!mint) throw new Error(`no ${currency} mint is watched on SOLANA`);
    return associatedTokenAccount(owner, mint.token);
  }
}
