import { z } from 'zod';
import type { BankEntry, CountryCode } from '../../../core/catalog/catalog';
import type { DirectoryErrorCode } from '../../../core/resolution/resolution';
import type { AccountDirectory, BankAccountQuery, MerchantType } from '../../../core/resolution/resolution-ports';
import { err, ok, type Result } from '../../../core/shared/result';
import { paystackEnvelope, paystackErrorBody, paystackMessage, type PaystackClient } from './paystack-client';
import { PAYSTACK_BANK_RECIPIENTS } from './paystack-transfers';

const bankList = paystackEnvelope(z.array(z.object({
  name: z.string(),
  code: z.string(),
  active: z.boolean().optional(),
  is_deleted: z.boolean().nullish(),
  supports_transfer: z.boolean().optional(),
  type: z.string().nullish(),
})));
const resolved = paystackEnvelope(z.object({ account_number: z.string(), account_name: z.string().min(1) }));

/**
 * Currencies whose accounts Paystack resolves: "Resolve Account Number | Nigeria, Ghana"
 * (https://paystack.com/docs/identity-verification/verify-account-number/). Of the port's
 * currencies (NGN, KES) only NGN qualifies; South Africa has a different check (`/bank/validate`,
 * needing identity documents), Kenya none documented.
 */
const RESOLVABLE_CURRENCIES: readonly string[] = ['NGN', 'GHS'];
/** How long a bank list is reused, ms: banks change rarely and the list is large. */
const BANK_LIST_TTL_MS = 60 * 60_000;
/** Statuses of `GET /bank/resolve` meaning "no such account": the 404 of the OpenAPI, and 400/422 (undocumented, seen as validation refusals). */
const NOT_FOUND_STATUSES = new Set([400, 404, 422]);

/**
 * Paystack's bank list and account-name resolution for live tenants (docs/decisions.md § Corridor
 * catalog; OpenAPI listBanks, resolveBankAccount). `bankAccount` asks `GET /bank/resolve`;
 * `banks` lists `GET /bank?currency=` as `BankEntry`s. Paystack looks up no paybill, till or wallet,
 * so `merchant` and `mobileWallet` answer `upstream_unavailable` (compose another directory for
 * those). Transport faults, 5xx, 401 and 429 → `upstream_unavailable`; never throws.
 */
export class PaystackAccountDirectory implements AccountDirectory {
  private readonly banksByCurrency = new Map<string, { readonly at: number; readonly banks: readonly BankEntry[] }>();

  constructor(private readonly client: PaystackClient, private readonly now: () => number = Date.now) {}

  async merchant(type: MerchantType, _accountNumber: string): Promise<Result<{ accountName: string }, DirectoryErrorCode>> {
    return err('upstream_unavailable', `Paystack does not look up ${type} numbers`);
  }

  async mobileWallet(_country: CountryCode, _phoneNumber: string): Promise<Result<void, DirectoryErrorCode>> {
    return err('upstream_unavailable', 'Paystack does not look up mobile-money wallets');
  }

  /**
   * The holder of a bank account: `accountId` is the account number Paystack echoes, `accountName`
   * its `account_name`. 400, 404 or 422 with Paystack's error body → `account_not_found`.
   */
  async bankAccount(query: BankAccountQuery): Promise<Result<{ accountId: string; accountName: string }, DirectoryErrorCode>> {
    if (!RESOLVABLE_CURRENCIES.includes(query.currency)) {
      return err('upstream_unavailable', `Paystack does not resolve ${query.currency} bank accounts`);
    }
    const call = await this.client.send({
      method: 'GET', path: '/bank/resolve', query: { account_number: query.accountNumber, bank_code: query.bankCode },
    });
    if (call.kind !== 'answer') return err('upstream_unavailable', 'Paystack could not be reached');
    const found = resolved.safeParse(call.body);
    if (call.httpStatus === 200 && found.success) {
      return ok({ accountId: found.data.data.account_number, accountName: found.data.data.account_name });
    }
    if (NOT_FOUND_STATUSES.has(call.httpStatus) && paystackErrorBody.safeParse(call.body).success) {
      return err('account_not_found', `No account ${query.accountNumber} at bank ${query.bankCode}`);
    }
    return err('upstream_unavailable', `Paystack could not resolve the account (HTTP ${call.httpStatus})`);
  }

  /**
   * Banks Paystack pays in `country` (NG, GH, ZA, KE), in its order, from `GET /bank?currency=`
   * (official OpenAPI `bank_list`; asked as in Paystack's sample, without paging or `type`, whose
   * Ghana value the OpenAPI spells `ghipps`), keeping active ones not deleted nor marked
   * `supports_transfer: false`, and leaving out mobile-money entries; cached an hour. `upstream_unavailable` for a country Paystack does not serve or a fault.
   */
  async banks(country: CountryCode): Promise<Result<readonly BankEntry[], DirectoryErrorCode>> {
    const rail = PAYSTACK_BANK_RECIPIENTS[country];
    if (!rail) return err('upstream_unavailable', `Paystack lists no banks in ${country}`);
    const cached = this.banksByCurrency.get(rail.currency);
    if (cached && this.now() - cached.at < BANK_LIST_TTL_MS) return ok(cached.banks);
    const call = await this.client.send({ method: 'GET', path: '/bank', query: { currency: rail.currency } });
    if (call.kind !== 'answer') return err('upstream_unavailable', 'Paystack could not be reached');
    const parsed = bankList.safeParse(call.body);
    if (call.httpStatus !== 200 || !parsed.success) {
      return err('upstream_unavailable', `Paystack bank list failed: ${paystackMessage(call.httpStatus, call.body)}`);
    }
    const banks = parsed.data.data
      .filter((bank) => bank.active !== false && bank.is_deleted !== true && bank.supports_transfer !== false)
      .filter((bank) => !(bank.type ?? '').startsWith('mobile_money'))
      .map((bank) => ({ bankCode: bank.code, bankName: bank.name }));
    this.banksByCurrency.set(rail.currency, { at: this.now(), banks });
    return ok(banks);
  }

  /** Whether Paystack lists `bankCode` in `country` (for routing); false when the list cannot be read. */
  async coversBank(country: CountryCode, bankCode: string): Promise<boolean> {
    const banks = await this.banks(country);
    return banks.ok && banks.value.some((bank) => bank.bankCode === bankCode);
  }
}
