import type { BankEntry, CountryCode } from '../catalog/catalog';
import type { Result } from '../shared/result';
import type { BankResolutionCurrency, DirectoryErrorCode, WalletNetwork } from './resolution';

/** Merchant account kinds a directory looks up (OpenAPI resolveMomo). */
export type MerchantType = 'paybill' | 'till';

/** A bank account to look up (OpenAPI resolveBankAccount), already validated. */
export interface BankAccountQuery {
  /** 10 to 16 digits. */
  readonly accountNumber: string;
  readonly currency: BankResolutionCurrency;
  /** One of the catalog's `resolutionBankCodes` (docs/decisions.md § Corridor catalog). */
  readonly bankCode: string;
}

/**
 * Port: who knows account holders (docs/architecture.md; docs/decisions.md § Sandbox values): mobile-money networks, merchant registries,
 * banks. Every call answers `account_not_found` when the account does not exist and
 * `upstream_unavailable` when the directory cannot be reached; an adapter catches its own
 * transport faults and returns the latter (a throw is a bug, answered 500).
 */
export interface AccountDirectory {
  /** Registered name of a paybill or till number (6 digits). */
  merchant(type: MerchantType, accountNumber: string): Promise<Result<{ accountName: string }, DirectoryErrorCode>>;
  /** Whether `phoneNumber` (digits with country code, no `+`) holds a mobile-money wallet in `country`. */
  mobileWallet(country: CountryCode, phoneNumber: string): Promise<Result<void, DirectoryErrorCode>>;
  /** The holder of a bank account. */
  bankAccount(query: BankAccountQuery): Promise<Result<{ accountId: string; accountName: string }, DirectoryErrorCode>>;
}

/**
 * Port: a live account directory that also lists the banks it covers (docs/decisions.md § Payout
 * providers: routing and failover): it serves live tenants' bank list and resolution; sandbox
 * tenants keep the sandbox directories. `banks` answers `upstream_unavailable` for a country it
 * does not cover or when it cannot be reached.
 */
export interface LiveAccountDirectory extends AccountDirectory {
  banks(country: CountryCode): Promise<Result<readonly BankEntry[], DirectoryErrorCode>>;
}

/** A recipient identifier to look up at a wallet issuer (OpenAPI resolveIdentifier), already validated. */
export interface IssuerLookup {
  /** Key of a catalog wallet issuer, e.g. `issuer_a`. */
  readonly issuer: string;
  /** Username or wallet id at that issuer, as supplied. */
  readonly username: string;
  readonly network: WalletNetwork;
}

/**
 * Port: the wallet issuers' directories (docs/architecture.md; docs/decisions.md § Corridor catalog). Answers the stablecoin address of a
 * user on a network: base58 for Solana, `0x` + 40 hex for Base. Same error contract as
 * AccountDirectory.
 */
export interface IssuerDirectory {
  walletAddress(lookup: IssuerLookup): Promise<Result<{ walletAddress: string }, DirectoryErrorCode>>;
}
