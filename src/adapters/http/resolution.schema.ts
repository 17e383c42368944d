import { z } from 'zod';
import 'zod-openapi';
import { IDENTIFIER_STATUSES, MOMO_RESOLUTION_TYPES, WALLET_NETWORKS } from '../../core/resolution/resolution';

/** Error shape C (docs/decisions.md § Errors: shapes per route family: resolve endpoints), defined with the other shapes. */
export { ErrorC } from './common.schema';

/** Bank list entry (OpenAPI listBanks). */
export const BankListEntry = z
  .object({
    bankCode: z.string().meta({ description: 'Send as paymentCode (money-out) or bankCode (resolution)', example: '058' }),
    bankName: z.string().meta({ description: 'Name of the bank', example: 'Guaranty Trust Bank' }),
  })
  .meta({ id: 'BankListEntry', example: { bankCode: '058', bankName: 'Guaranty Trust Bank' } });

/** Resolved mobile-money or merchant account (OpenAPI resolveMomo): every field always present. */
export const MomoResolutionResponse = z
  .object({
    valid: z.boolean().meta({ description: 'Whether the account resolved. A number that does not resolve answers 200 with false and a message.' }),
    type: z.enum(MOMO_RESOLUTION_TYPES).meta({ description: 'The type asked for' }),
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

/** Resolved bank account (OpenAPI resolveBankAccount). */
export const BankAccountResolutionResponse = z
  .object({
    accountId: z.string().meta({ description: "The account's id at its bank (the sandbox returns the account number)" }),
    accountName: z.string().meta({ description: 'Name of the account holder at the bank', example: 'ADEBAYO CHUKWUEMEKA' }),
  })
  .meta({ id: 'BankAccountResolution', example: { accountId: '0123456789', accountName: 'Chinedu Okafor' } });

/** Resolved recipient identifier (OpenAPI resolveIdentifier). */
export const IdentifierResolutionResponse = z
  .object({
    status: z.enum(IDENTIFIER_STATUSES).meta({ description: 'Always Successful on 200; failures answer 404 or 502 in shape C' }),
    username: z.string().meta({ description: 'The username asked for', example: 'amina.okafor' }),
    issuer: z.string().meta({ description: 'The wallet issuer asked', example: 'issuer_a' }),
    currency: z.string().meta({ description: 'What the address receives: a fiat it auto-converts to (NGN, ZAR, KES) or a stablecoin (USDC, USDT)' }),
    wallet_address: z.string().meta({ description: 'Stablecoin address: base58 on Solana, 0x + 40 hex on Base' }),
    wallet_network: z.enum(WALLET_NETWORKS).meta({ description: 'Network of wallet_address' }),
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
