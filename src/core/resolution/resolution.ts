import type { CountryCode } from '../catalog/catalog';

/** Kinds of account `POST /momo/resolve` validates (OpenAPI resolveMomo). */
export const MOMO_RESOLUTION_TYPES = ['paybill', 'till', 'momo'] as const;
export type MomoResolutionType = (typeof MOMO_RESOLUTION_TYPES)[number];

/** Currencies `POST /account/resolve` resolves bank accounts in (OpenAPI resolveBankAccount). */
export const BANK_RESOLUTION_CURRENCIES = ['NGN', 'KES'] as const;
export type BankResolutionCurrency = (typeof BANK_RESOLUTION_CURRENCIES)[number];

/** Payment types of `POST /account/resolve` (OpenAPI resolveBankAccount): bank only. */
export const BANK_RESOLUTION_PAYMENT_TYPES = ['bank'] as const;
export type BankResolutionPaymentType = (typeof BANK_RESOLUTION_PAYMENT_TYPES)[number];

/** Countries `GET /v1/account/banks` lists banks for (OpenAPI listBanks). */
export const BANK_LIST_COUNTRIES = ['NG', 'ZA'] as const satisfies readonly CountryCode[];
export type BankListCountry = (typeof BANK_LIST_COUNTRIES)[number];

/** Networks a wallet address is resolved on (OpenAPI resolveIdentifier). */
export const WALLET_NETWORKS = ['Solana', 'Base'] as const;
export type WalletNetwork = (typeof WALLET_NETWORKS)[number];

/** Statuses of a resolved identifier (OpenAPI resolveIdentifier). A 200 answer is always `Successful`. */
export const IDENTIFIER_STATUSES = ['Successful', 'Unsuccessful'] as const;

/** Paybill or till number: exactly 6 digits (OpenAPI resolveMomo). */
export const MERCHANT_NUMBER_PATTERN = /^\d{6}$/;

/**
 * Phone number with country code, with or without a leading `+` (OpenAPI resolveMomo): E.164, so 7 to
 * 15 digits, the first not 0. Same rule as a money-out MOMO account number.
 */
export const PHONE_NUMBER_PATTERN = /^\+?[1-9]\d{6,14}$/;

/**
 * Bank account number: 10 to 16 digits. The interface sets no rule for OpenAPI
 * resolveBankAccount; this is the bank rule of OpenAPI legacyPayout, so a resolved account can be paid with the same number.
 */
export const BANK_ACCOUNT_NUMBER_PATTERN = /^\d{10,16}$/;

/** Longest username or wallet id accepted by `POST /id/resolve` (interface silent; generous). */
export const USERNAME_MAX_LENGTH = 64;

/**
 * Failures a directory (account or issuer) reports: the account does not exist, or the directory
 * could not answer. Shared by every resolution use case (docs/decisions.md § Errors: shapes per route family, shape C).
 */
export type DirectoryErrorCode = 'account_not_found' | 'upstream_unavailable';

/** Closed set of expected failures of `POST /momo/resolve`; a number that does not resolve is `valid: false`, not an error. */
export type MomoResolveErrorCode = 'validation_error' | 'upstream_unavailable';

/** Closed set of expected failures of `POST /account/resolve` and `POST /id/resolve` (docs/decisions.md § Errors: shapes per route family). */
export type ResolveErrorCode = 'validation_error' | DirectoryErrorCode;

/** Resolved mobile-money or merchant account (OpenAPI resolveMomo). Fields that do not apply are '' or []. */
export interface MomoResolution {
  readonly valid: boolean;
  readonly type: MomoResolutionType;
  /** Registered name for paybill or till; '' for momo and when not valid. */
  readonly accountName: string;
  /** The 6-digit paybill or till number as supplied; '' for momo. */
  readonly accountNumber: string;
  /** For momo: the phone number, digits only with country code and no `+`; '' for paybill and till. */
  readonly phoneNumber: string;
  /** For a valid momo: the country's mobile-money operator codes (catalog); otherwise []. */
  readonly operators: readonly string[];
  /** Human-readable outcome; says why when not valid. */
  readonly message: string;
}

/** Resolved bank account (OpenAPI resolveBankAccount). */
export interface BankAccountResolution {
  /** The account's id at its bank (the sandbox returns the account number). */
  readonly accountId: string;
  readonly accountName: string;
}

/** Resolved recipient identifier (OpenAPI resolveIdentifier). */
export interface IdentifierResolution {
  readonly status: 'Successful';
  readonly username: string;
  readonly issuer: string;
  /** What the address receives: a fiat it auto-converts to (NGN, ZAR, KES) or a stablecoin. */
  readonly currency: string;
  readonly wallet_address: string;
  readonly wallet_network: WalletNetwork;
  /** Country name in full. */
  readonly country: string;
  /** Memo to attach to a Solana transaction: `<SERVICE>-FIAT`. */
  readonly reference: string;
}
