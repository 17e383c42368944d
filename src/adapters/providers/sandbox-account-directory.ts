import { createHash } from 'node:crypto';
import type { CountryCode } from '../../core/catalog/catalog';
import type { AccountDirectory, BankAccountQuery, MerchantType } from '../../core/resolution/resolution-ports';
import { err, ok } from '../../core/shared/result';

/** Names the sandbox gives bank account holders. */
const PEOPLE = [
  'Jane Wanjiku', 'Chinedu Okafor', 'Amina Bello', 'Brian Otieno', 'Ngozi Adeyemi',
  'Peter Kamau', 'Funmilayo Ojo', 'Grace Achieng', 'Emeka Nwosu', 'Halima Yusuf',
] as const;

/** Names the sandbox gives paybill and till merchants. */
const MERCHANTS = [
  'Mama Mboga Groceries', 'Savanna Hardware Ltd', 'Kilele Pharmacy', 'Baraka Electronics', 'Jua Kali Motors',
  'Tumaini Bookshop', 'Nyota Cafe', 'Upendo Salon', 'Duka La Wote', 'Simba Logistics',
] as const;

/** A number ending in this does not resolve (docs/decisions.md § Sandbox values). */
const UNRESOLVABLE_SUFFIX = '0000';

/**
 * The sandbox account directory (docs/decisions.md § Sandbox values): deterministic like a payment network's test mode.
 * A number ending 0000 is not found; any other resolves, bank accounts and merchants to a name
 * picked by a SHA-256 of the number, so the same number always has the same holder. Never
 * `upstream_unavailable`.
 */
export class SandboxAccountDirectory implements AccountDirectory {
  async merchant(type: MerchantType, accountNumber: string) {
    if (accountNumber.endsWith(UNRESOLVABLE_SUFFIX)) return err('account_not_found' as const, `No ${type} ${accountNumber}`);
    return ok({ accountName: pick(MERCHANTS, accountNumber) });
  }

  async mobileWallet(_country: CountryCode, phoneNumber: string) {
    if (phoneNumber.endsWith(UNRESOLVABLE_SUFFIX)) return err('account_not_found' as const, `No wallet for ${phoneNumber}`);
    return ok(undefined);
  }

  async bankAccount(query: BankAccountQuery) {
    if (query.accountNumber.endsWith(UNRESOLVABLE_SUFFIX)) return err('account_not_found' as const, `No account ${query.accountNumber}`);
    return ok({ accountId: query.accountNumber, accountName: pick(PEOPLE, query.accountNumber) });
  }
}

/** The entry of `names` that the SHA-256 of `key` selects. */
function pick(names: readonly string[], key: string): string {
  const index = createHash('sha256').update(key).digest().readUInt32BE(0) % names.length;
  return names[index] ?? names[0]!;
}
