import { z } from 'zod';
import 'zod-openapi';
import type { Catalog } from '../../core/catalog/catalog';
import {
  BANK_ACCOUNT_NUMBER_PATTERN, BANK_LIST_COUNTRIES, BANK_RESOLUTION_CURRENCIES, BANK_RESOLUTION_PAYMENT_TYPES,
  IDENTIFIER_STATUSES, MERCHANT_NUMBER_PATTERN, MOMO_RESOLUTION_TYPES, PHONE_NUMBER_PATTERN, USERNAME_MAX_LENGTH,
  WALLET_NETWORKS,
} from '../../core/resolution/resolution';
import { SHAPE_C_STATUS } from './http-errors';

/** Error shape C (docs/decisions.md § Errors: shapes per route family: resolve endpoints). `error` is the code, `details` a hint. */
export const ErrorC = z
  .object({
    message: z.string(),
    error: z.enum(Object.keys(SHAPE_C_STATUS) as [keyof typeof SHAPE_C_STATUS]),
    details: z.string(),
    statusCode: z.number().int(),
  })
  .meta({ id: 'ErrorC', description: 'Error shape C (docs/decisions.md § Errors: shapes per route family)' });

/** Query of GET /v1/account/banks (OpenAPI listBanks; the parameter's name is ours). */
export const BankListQuery = z.strictObject({
  country: z.enum(BANK_LIST_COUNTRIES).meta({ description: 'Recipient country code' }),
});

/** Bank list entry (OpenAPI listBanks). */
export const BankListEntry = z
  .object({ bankCode: z.string(), bankName: z.string() })
  .meta({ id: 'BankListEntry', example: { bankCode: '058', bankName: 'Guaranty Trust Bank' } });

/** Body of POST /momo/resolve (OpenAPI resolveMomo). Which number a type needs is checked by the core (400 when missing). */
export const MomoResolveBody = z
  .strictObject({
    type: z.enum(MOMO_RESOLUTION_TYPES),
    accountNumber: z.string().regex(MERCHANT_NUMBER_PATTERN, 'must be exactly 6 digits').optional()
      .meta({ description: 'Paybill or till number, exactly 6 digits. Required for paybill and till; ignored for momo.' }),
    phoneNumber: z.string().regex(PHONE_NUMBER_PATTERN, 'must be a phone number with country code, e.g. 254712345678').optional()
      .meta({ description: 'Phone number with country code, "+" optional (e.g. "+254712345678" or "254712345678"). Required for momo; ignored for paybill and till.' }),
  })
  .meta({ id: 'MomoResolveRequest', example: { type: 'momo', phoneNumber: '254712345678' } });

/** Resolved mobile-money or merchant account (OpenAPI resolveMomo): every field always present. */
export const MomoResolutionResponse = z
  .object({
    valid: z.boolean().meta({ description: 'Whether the account resolved. A number that does not resolve answers 200 with false and a message.' }),
    type: z.enum(MOMO_RESOLUTION_TYPES),
    accountName: z.string().meta({ description: 'Registered name for paybill or till; empty string for momo and when not valid' }),
    accountNumber: z.string().meta({ description: 'The 6-digit paybill or till number; empty string for momo' }),
    phoneNumber: z.string().meta({ description: 'For momo: digits with country code, no "+"; empty string for paybill and till' }),
    operators: z.array(z.string()).meta({ description: "For a valid momo: the country's mobile-money operator codes; empty array otherwise" }),
    message: z.string().meta({ description: 'Extra information; says why when not valid' }),
  })
  .meta({
    id: 'MomoResolution',
    example: { valid: true, type: 'momo', accountName: '', accountNumber: '', phoneNumber: '254712345678', operators: ['MPESA', 'AIRTEL'], message: 'Mobile-money number in Kenya' },
  });

/** Body of POST /account/resolve (OpenAPI resolveBankAccount; `bankCode` names the bank-code field). Bank codes come from the catalog. */
export function accountResolveBody(catalog: Catalog) {
  return z
    .strictObject({
      accountNumber: z.string().regex(BANK_ACCOUNT_NUMBER_PATTERN, 'must be 10 to 16 digits').meta({ description: 'Bank account number in Kenya or Nigeria, 10 to 16 digits' }),
      currency: z.enum(BANK_RESOLUTION_CURRENCIES),
      paymentType: z.enum(BANK_RESOLUTION_PAYMENT_TYPES),
      // z.literal keeps the interface's order; z.enum would put integer-like codes first.
      bankCode: z.literal([...catalog.resolutionBankCodes]).meta({ description: 'Bank code, one of the corridor catalog\'s resolution banks' }),
    })
    .meta({ id: 'AccountResolveRequest', example: { accountNumber: '0123456789', currency: 'NGN', paymentType: 'bank', bankCode: '058' } });
}

/** Resolved bank account (OpenAPI resolveBankAccount). */
export const BankAccountResolutionResponse = z
  .object({
    accountId: z.string().meta({ description: "The account's id at its bank (the sandbox returns the account number)" }),
    accountName: z.string(),
  })
  .meta({ id: 'BankAccountResolution', example: { accountId: '0123456789', accountName: 'Chinedu Okafor' } });

/** Body of POST /id/resolve (OpenAPI resolveIdentifier; field names follow its response). Issuers come from the catalog. */
export function idResolveBody(catalog: Catalog) {
  return z
    .strictObject({
      username: z.string().min(1).max(USERNAME_MAX_LENGTH).meta({ description: 'Username or wallet id at the issuer' }),
      issuer: z.enum(catalog.walletIssuers.map((i) => i.key)).meta({ description: 'Wallet issuer' }),
      wallet_network: z.enum(WALLET_NETWORKS).meta({ description: 'Network of the wallet address to resolve' }),
    })
    .meta({ id: 'IdResolveRequest', example: { username: 'jane.doe', issuer: 'issuer_a', wallet_network: 'Solana' } });
}

/** Resolved recipient identifier (OpenAPI resolveIdentifier). */
export const IdentifierResolutionResponse = z
  .object({
    status: z.enum(IDENTIFIER_STATUSES).meta({ description: 'Always Successful on 200; failures answer 404 or 502 in shape C' }),
    username: z.string(),
    issuer: z.string(),
    currency: z.string().meta({ description: 'What the address receives: a fiat it auto-converts to (NGN, ZAR, KES) or a stablecoin (USDC, USDT)' }),
    wallet_address: z.string().meta({ description: 'Stablecoin address: base58 on Solana, 0x + 40 hex on Base' }),
    wallet_network: z.enum(WALLET_NETWORKS),
    country: z.string().meta({ description: 'Country name in full' }),
    reference: z.string().meta({ description: 'Memo to attach to a Solana transaction: <SERVICE>-FIAT' }),
  })
  .meta({
    id: 'IdentifierResolution',
    example: {
      status: 'Successful', username: 'jane.doe', issuer: 'issuer_a', currency: 'KES',
      wallet_address: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', wallet_network: 'Solana', country: 'Kenya', reference: 'PAYOUT-FIAT',
    },
  });
