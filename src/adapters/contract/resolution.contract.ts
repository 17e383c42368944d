import { z } from 'zod';
import 'zod-openapi';
import type { Catalog } from '../../core/catalog/catalog';
import {
  BANK_ACCOUNT_NUMBER_PATTERN, BANK_LIST_COUNTRIES, BANK_RESOLUTION_CURRENCIES, BANK_RESOLUTION_PAYMENT_TYPES,
  MERCHANT_NUMBER_PATTERN, MOMO_RESOLUTION_TYPES, PHONE_NUMBER_PATTERN, USERNAME_MAX_LENGTH, WALLET_NETWORKS,
  type MomoResolveErrorCode, type ResolveErrorCode,
} from '../../core/resolution/resolution';
import type { BankAccountResolveQuery } from '../../core/resolution/resolve-bank-account';
import type { IdentifierResolveQuery } from '../../core/resolution/resolve-identifier';
import type { MomoResolveQuery } from '../../core/resolution/resolve-momo';
import type { ShapeACode, ShapeCCode } from './error-codes';
import type { KeyDrift, NoDrift } from './schema-ties';

/** Query of GET /v1/account/banks (OpenAPI listBanks; the parameter's name is ours). */
export const BankListQuery = z.strictObject({
  country: z.enum(BANK_LIST_COUNTRIES).meta({ description: 'Recipient country code' }),
});

/** Body of POST /momo/resolve (OpenAPI resolveMomo). Which number a type needs is checked by the core (400 when missing). */
export const MomoResolveBody = z
  .strictObject({
    type: z.enum(MOMO_RESOLUTION_TYPES).meta({ description: 'momo: a mobile-money number (phoneNumber); paybill or till: a 6-digit merchant number (accountNumber)' }),
    accountNumber: z.string().regex(MERCHANT_NUMBER_PATTERN, 'must be exactly 6 digits').optional()
      .meta({ description: 'Paybill or till number, exactly 6 digits. Required for paybill and till; ignored for momo.' }),
    phoneNumber: z.string().regex(PHONE_NUMBER_PATTERN, 'must be a phone number with country code, e.g. 254712345678').optional()
      .meta({ description: 'Phone number with country code, "+" optional (e.g. "+254712345678" or "254712345678"). Required for momo; ignored for paybill and till.' }),
  })
  .meta({ id: 'MomoResolveRequest', example: { type: 'momo', phoneNumber: '254712345678' } });

/** The fields of POST /account/resolve but the bank code, whose values come from the catalog. */
const accountResolveFields = {
  accountNumber: z.string().regex(BANK_ACCOUNT_NUMBER_PATTERN, 'must be 10 to 16 digits').meta({ description: 'Bank account number in Kenya or Nigeria, 10 to 16 digits' }),
  currency: z.enum(BANK_RESOLUTION_CURRENCIES).meta({ description: 'Currency of the account: decides the country whose banks are searched' }),
  paymentType: z.enum(BANK_RESOLUTION_PAYMENT_TYPES).meta({ description: 'Kind of account looked up' }),
};
const BANK_CODE = { description: 'Bank code, one of the corridor catalog\'s resolution banks' };

/**
 * POST /account/resolve's fields with the bank code any string: the form known before the catalog
 * is loaded, by which GraphQL types and describes `accountResolve`'s arguments.
 */
export const AccountResolveFields = z.strictObject({ ...accountResolveFields, bankCode: z.string().meta(BANK_CODE) });

/** Body of POST /account/resolve (OpenAPI resolveBankAccount; `bankCode` names the bank-code field). Bank codes come from the catalog. */
export function accountResolveBody(catalog: Catalog) {
  return z
    .strictObject({
      ...accountResolveFields,
      // z.literal keeps the interface's order; z.enum would put integer-like codes first.
      bankCode: z.literal([...catalog.resolutionBankCodes]).meta(BANK_CODE),
    })
    .meta({ id: 'AccountResolveRequest', example: { accountNumber: '0123456789', currency: 'NGN', paymentType: 'bank', bankCode: '058' } });
}

/** The fields of POST /id/resolve but the issuer, whose values come from the catalog. */
const idResolveFields = {
  username: z.string().min(1).max(USERNAME_MAX_LENGTH).meta({ description: 'Username or wallet id at the issuer' }),
};
const ISSUER = { description: 'Wallet issuer' };
const walletNetwork = z.enum(WALLET_NETWORKS).meta({ description: 'Network of the wallet address to resolve' });

/** POST /id/resolve's fields with the issuer any string: the catalog-free form GraphQL's `idResolve` arguments follow. */
export const IdResolveFields = z.strictObject({ ...idResolveFields, issuer: z.string().meta(ISSUER), wallet_network: walletNetwork });

/** Body of POST /id/resolve (OpenAPI resolveIdentifier; field names follow its response). Issuers come from the catalog. */
export function idResolveBody(catalog: Catalog) {
  return z
    .strictObject({ ...idResolveFields, issuer: z.enum(catalog.walletIssuers.map((i) => i.key)).meta(ISSUER), wallet_network: walletNetwork })
    .meta({ id: 'IdResolveRequest', example: { username: 'jane.doe', issuer: 'issuer_a', wallet_network: 'Solana' } });
}

/**
 * Every resolution failure with the code both transports answer (docs/decisions.md § Errors: shapes
 * per route family): validation in shape A, directory outcomes in shape C. Exhaustive by type.
 */
export const RESOLVE_ERRORS = {
  validation_error: 'validation_error',
  account_not_found: 'account_not_found',
  upstream_unavailable: 'upstream_unavailable',
} as const satisfies Record<ResolveErrorCode, ShapeACode | ShapeCCode>;

/** Failures of the mobile-money resolution, which answers an unresolvable number with `valid: false` and so has no not-found error. */
export const MOMO_RESOLVE_ERRORS = {
  validation_error: RESOLVE_ERRORS.validation_error,
  upstream_unavailable: RESOLVE_ERRORS.upstream_unavailable,
} as const satisfies Record<MomoResolveErrorCode, ShapeACode | ShapeCCode>;

/** The parsed bodies carry exactly the fields of the core's resolution queries: a field added to one side only fails `tsc`. */
type _MomoResolveBodyTie = NoDrift<KeyDrift<z.output<typeof MomoResolveBody>, MomoResolveQuery>>;
type _AccountResolveBodyTie = NoDrift<KeyDrift<z.output<ReturnType<typeof accountResolveBody>>, BankAccountResolveQuery>>;
type _IdResolveBodyTie = NoDrift<KeyDrift<z.output<ReturnType<typeof idResolveBody>>, IdentifierResolveQuery>>;
