import { z } from 'zod';
import {
  BLOCKCHAINS, MONEY_OUT_COUNTRIES, MONEY_OUT_CURRENCIES, PAYMENT_METHODS,
} from '../../core/catalog/catalog';
import type { MoneyOutErrorCode } from '../../core/payments/create-money-out';
import { MONEY_OUT_LIMITS, type MoneyOutCommand } from '../../core/payments/money-out-rules';
import { ISSUER_FEE_OPTIONS } from '../../core/quotes/pricing';
import { STABLECOINS } from '../../core/shared/money';
import { AmountInput } from './amount.schema';
import type { ShapeACode } from './error-codes';
import type { KeyDrift, NoDrift } from './schema-ties';

const text = (max: number, description: string) => z.string().min(1).max(max).meta({ description });

/** Body of POST /v1/payments/moneyout (OpenAPI createMoneyOut). Unknown fields are refused. */
export const MoneyOutBody = z
  .strictObject({
    fiatAmount: AmountInput.meta({ description: 'Amount the recipient receives, in destinationCurrency', example: 1500 }),
    sourceCurrency: z.enum(STABLECOINS).meta({ description: 'Stablecoin the payout is funded from (your balance)' }),
    destinationCurrency: z.enum(MONEY_OUT_CURRENCIES).meta({ description: 'Currency the recipient receives; must be the currency of country' }),
    country: z.enum(MONEY_OUT_COUNTRIES).meta({ description: 'Country of the recipient, ISO 3166-1 alpha-2' }),
    blockchain: z.enum(BLOCKCHAINS).meta({ description: 'Chain of the stablecoin leg (and of refundAddress)' }),
    paymentMethod: z.enum(PAYMENT_METHODS).meta({ description: 'BANK account, MOMO wallet, PAYBILL or TILL; decides how accountNumber and paymentCode are read' }),
    accountName: text(MONEY_OUT_LIMITS.accountName, 'Recipient full name for the payment method'),
    accountNumber: text(MONEY_OUT_LIMITS.accountNumber, 'Recipient phone number or account number'),
    paymentCode: text(MONEY_OUT_LIMITS.paymentCode, 'Operator or bank code valid for the country and method'),
    reference: text(MONEY_OUT_LIMITS.reference, "Wallet issuer's unique reference"),
    refundAddress: text(MONEY_OUT_LIMITS.refundAddress, 'Onchain address that receives the funds if the payout fails'),
    optionalIssuerFee: z.enum(ISSUER_FEE_OPTIONS).meta({ description: 'YES adds your issuer fee from the fee table to payoutFee' }),
    businessNumber: z.string().meta({ description: 'Only for PAYBILL: 6 digits' }).optional(),
    quoteId: z.string().max(MONEY_OUT_LIMITS.quoteId).meta({
      description: 'Lock the rate of a stored quote (quo_...): once, for a money-out of its fiatAmount, pair and paymentMethod; another is 400, a second use 422 quote_already_used',
    }).optional(),
  })
  .meta({
    id: 'MoneyOutRequest',
    example: {
      fiatAmount: 1500, sourceCurrency: 'USDC', destinationCurrency: 'KES', country: 'KE', blockchain: 'SOLANA',
      paymentMethod: 'MOMO', accountName: 'Jane Wanjiku', accountNumber: '254712345678', paymentCode: 'MPESA',
      reference: 'order-10045', refundAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', optionalIssuerFee: 'NO',
    },
  });

/** Path of GET /v1/payments/{paymentId}. */
export const PaymentIdParams = z.object({
  paymentId: z.string().max(64).meta({ description: 'pay_-prefixed payment id', example: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }),
});

/** Every money-out failure code mapped to its shape A code, for REST and GraphQL alike; a new core code fails to compile here. */
export const MONEY_OUT_ERRORS: Record<MoneyOutErrorCode, ShapeACode> = {
  validation_error: 'validation_error',
  unsupported_corridor: 'unsupported_corridor',
  quote_expired: 'quote_expired',
  quote_already_used: 'quote_already_used',
  duplicate_reference: 'duplicate_reference',
  idempotency_key_in_use: 'idempotency_key_in_use',
  idempotency_key_reused: 'idempotency_key_reused',
  provider_unavailable: 'provider_unavailable',
  rate_unavailable: 'rate_unavailable',
  screening_unavailable: 'screening_unavailable',
  corridor_not_available: 'corridor_not_available',
  insufficient_balance: 'insufficient_balance',
  refund_address_invalid: 'refund_address_invalid',
  refund_address_bad_checksum: 'refund_address_bad_checksum',
  refund_address_is_ours: 'refund_address_is_ours',
};

/** The parsed body carries exactly the fields of the core's MoneyOutCommand: a field added to one side only fails `tsc`. */
type _MoneyOutBodyTie = NoDrift<KeyDrift<z.output<typeof MoneyOutBody>, MoneyOutCommand>>;
