import { z } from 'zod';
import { BLOCKCHAINS, FX_SOURCE_CURRENCIES, MONEY_OUT_COUNTRIES, PAYMENT_METHODS } from '../../core/catalog/catalog';
import type { FxQuoteErrorCode, FxQuoteQuery } from '../../core/quotes/get-fx-quote';
import { ISSUER_FEE_OPTIONS } from '../../core/quotes/pricing';
import { STABLECOINS } from '../../core/shared/money';
import { AmountInput } from './amount.schema';
import type { ShapeACode } from './error-codes';
import type { KeyDrift, NoDrift } from './schema-ties';

/** Query of GET /fx/convert (OpenAPI convertFx; names and the optional refinements from docs/decisions.md § FX quotes and the quote lock). */
export const FxQuery = z.strictObject({
  amount: AmountInput.meta({ description: 'Fiat amount to convert, at least 0.01', example: '1500' }),
  sourceCurrency: z.enum(FX_SOURCE_CURRENCIES).meta({ description: 'Local fiat currency' }),
  destinationCurrency: z.enum(STABLECOINS).meta({ description: 'Stablecoin the quote is in' }),
  paymentMethod: z.enum(PAYMENT_METHODS).optional().meta({ description: 'Default MOMO' }),
  country: z.enum([...MONEY_OUT_COUNTRIES, 'ET']).optional().meta({ description: 'Country of the payout, for its method fee; default the country of sourceCurrency' }),
  optionalIssuerFee: z.enum(ISSUER_FEE_OPTIONS).optional().meta({ description: 'Default NO' }),
  blockchain: z.enum(BLOCKCHAINS).optional().meta({ description: 'Default from the catalog (SOLANA)' }),
});

/**
 * Every FX failure with the shape A code of its meaning (docs/decisions.md § Errors: shapes per
 * route family): GraphQL answers these names; REST answers validation in shape A and the others in
 * the numeric shape D, with these codes' statuses (422, 503 with Retry-After). Exhaustive by type.
 */
export const FX_ERRORS = {
  validation_error: 'validation_error',
  unsupported_pair: 'unsupported_corridor',
  rate_unavailable: 'rate_unavailable',
} as const satisfies Record<FxQuoteErrorCode, ShapeACode>;

/** The parsed query carries exactly the fields of the core's FxQuoteQuery: a field added to one side only fails `tsc`. */
type _FxQueryTie = NoDrift<KeyDrift<z.output<typeof FxQuery>, FxQuoteQuery>>;
