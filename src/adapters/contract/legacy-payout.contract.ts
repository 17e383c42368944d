import { z } from 'zod';
import { LEGACY_COUNTRIES, LEGACY_CURRENCIES, LEGACY_DESTINATIONS, type LegacyPayoutCommand, type LegacyPayoutErrorCode } from '../../core/payments/legacy-payout';
import { AmountInput } from './amount.schema';
import type { ShapeBCode } from './error-codes';
import type { KeyDrift, NoDrift } from './schema-ties';

/** Body of POST /momo/payout (OpenAPI legacyPayout); the interface leaves open which fields are required: these are. */
export const LegacyPayoutBody = z
  .strictObject({
    amount: AmountInput.meta({ description: 'Amount in local currency' }),
    destination: z.enum(Object.keys(LEGACY_DESTINATIONS) as [keyof typeof LEGACY_DESTINATIONS]).meta({ description: 'Kind of account paid: decides how accountNumber and code are read' }),
    accountName: z.string().min(1).max(140).meta({ description: 'Recipient full name', example: 'Jane Wanjiku' }),
    accountNumber: z.string().min(1).max(34).meta({
      description: 'Bank: 10-16 digits. MoMo: phone code and number, no plus sign. Paybill: 1-20 characters. Till: 6 digits.',
      example: '254712345678',
    }),
    reference: z.string().min(1).max(128).meta({ description: "Wallet issuer's unique reference; repeats with the same body return the same payout", example: 'order-10046' }),
    currency: z.enum(LEGACY_CURRENCIES).meta({ description: 'Local currency of amount' }),
    country: z.enum(LEGACY_COUNTRIES).meta({ description: 'Country of the recipient, ISO 3166-1 alpha-2' }),
    businessNumber: z.string().meta({ description: 'Only for Paybill: 6 digits' }).optional(),
    code: z.string().min(1).max(20).meta({ description: 'Operator or bank code valid for the country', example: 'MPESA' }),
  })
  .meta({
    id: 'LegacyPayoutRequest',
    example: {
      amount: 1500, destination: 'MoMo', accountName: 'Jane Wanjiku', accountNumber: '254712345678', reference: 'order-10046',
      currency: 'KES', country: 'KE', code: 'MPESA',
    },
  });

/** Shape B code per refusal (docs/decisions.md § Errors: shapes per route family); validation failures stay shape A. Exhaustive by type; REST and GraphQL both answer these codes. */
export const LEGACY_ERRORS: Record<Exclude<LegacyPayoutErrorCode, 'validation_error'>, ShapeBCode> = {
  unsupported_corridor: 'unsupported_corridor',
  insufficient_balance: 'insufficient_balance',
  quote_expired: 'quote_expired',
  // The legacy body takes no quoteId, so neither quote code can happen here; the map stays exhaustive.
  quote_already_used: 'quote_already_used',
  tenant_not_configured: 'tenant_not_configured',
  duplicate_reference: 'duplicate_reference',
  idempotency_key_reused: 'duplicate_reference',
  idempotency_key_in_use: 'payout_in_progress',
  provider_unavailable: 'provider_unavailable',
  rate_unavailable: 'rate_unavailable',
  screening_unavailable: 'screening_unavailable',
  corridor_not_available: 'corridor_not_available',
  // The tenant's payoutRefundAddress, checked like a money-out's refundAddress (docs/decisions.md § Refunds: refund addresses).
  refund_address_invalid: 'refund_address_invalid',
  refund_address_bad_checksum: 'refund_address_bad_checksum',
  refund_address_is_ours: 'refund_address_is_ours',
};

/** The parsed body carries exactly the fields of the core's LegacyPayoutCommand: a field added to one side only fails `tsc`. */
type _LegacyPayoutBodyTie = NoDrift<KeyDrift<z.output<typeof LegacyPayoutBody>, LegacyPayoutCommand>>;
