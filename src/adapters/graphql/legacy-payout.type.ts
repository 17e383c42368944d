import { Field, InputType, ObjectType } from 'type-graphql';
import { LEGACY_COUNTRIES, LEGACY_CURRENCIES, LEGACY_DESTINATIONS } from '../../core/payments/legacy-payout';
import { DecimalScalar } from './decimal.scalar';
import { enumOf } from './enums.type';

/** Destinations of a legacy payout (OpenAPI legacyPayout), spelled as the interface spells them. */
export const LegacyDestinationEnum = enumOf(
  Object.keys(LEGACY_DESTINATIONS) as (keyof typeof LEGACY_DESTINATIONS)[], 'LegacyDestination', 'Where a legacy payout goes: Bank, MoMo, Paybill or Till',
);
/** Currencies of a legacy payout (OpenAPI legacyPayout; ETB included). */
export const LegacyCurrencyEnum = enumOf(LEGACY_CURRENCIES, 'LegacyCurrency', 'Local currency of a legacy payout');
/** Countries of a legacy payout (OpenAPI legacyPayout; ET included). */
export const LegacyCountryEnum = enumOf(LEGACY_COUNTRIES, 'LegacyCountry', 'Country of a legacy payout');

/**
 * Input of `legacyPayout`: REST's POST /momo/payout body (OpenAPI legacyPayout), checked by the
 * same zod schema and use case. Account number rules depend on the destination.
 */
@InputType('LegacyPayoutInput')
export class LegacyPayoutInput {
  @Field(() => DecimalScalar, { description: 'Amount in local currency' })
  amount!: string;

  @Field(() => LegacyDestinationEnum)
  destination!: string;

  @Field(() => String)
  accountName!: string;

  @Field(() => String, { description: 'Bank: 10-16 digits. MoMo: phone code and number, no plus sign. Paybill: 1-20 characters. Till: 6 digits.' })
  accountNumber!: string;

  @Field(() => String, { description: 'Your unique reference; the same reference with the same input is the same payout' })
  reference!: string;

  @Field(() => LegacyCurrencyEnum)
  currency!: string;

  @Field(() => LegacyCountryEnum)
  country!: string;

  @Field(() => String, { nullable: true, description: 'Only for Paybill: 6 digits' })
  businessNumber?: string | null;

  @Field(() => String, { description: 'Operator or bank code valid for the country' })
  code!: string;
}

/** Result of `legacyPayout` (OpenAPI legacyPayout), plus whether it replayed an earlier payout with this reference. */
@ObjectType('LegacyPayoutResult')
export class LegacyPayoutResultType {
  @Field(() => Boolean)
  success!: boolean;

  @Field(() => String, { description: 'The payment id: read it with payment(id) or watch it with paymentUpdated' })
  transactionId!: string;

  @Field(() => Boolean, { description: 'True when this reference was already paid out with the same input (REST: Idempotent-Replayed)' })
  replayed!: boolean;
}
