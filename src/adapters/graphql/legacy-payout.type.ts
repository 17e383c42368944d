import { Field, InputType, ObjectType } from 'type-graphql';
import { LEGACY_COUNTRIES, LEGACY_CURRENCIES, LEGACY_DESTINATIONS } from '../../core/payments/legacy-payout';
import { LegacyPayoutBody } from '../contract/legacy-payout.contract';
import type { FieldDrift, NoDrift } from '../contract/schema-ties';
import { fieldOf } from './contract-fields';
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
 * Input of `legacyPayout`: REST's POST /momo/payout body (OpenAPI legacyPayout), checked and
 * described by the same zod schema and use case. Account number rules depend on the destination.
 */
@InputType('LegacyPayoutInput', { description: 'A legacy payout, as REST POST /momo/payout takes it' })
export class LegacyPayoutInput {
  @Field(() => DecimalScalar, fieldOf(LegacyPayoutBody, 'amount'))
  amount!: number | string;

  @Field(() => LegacyDestinationEnum, fieldOf(LegacyPayoutBody, 'destination'))
  destination!: string;

  @Field(() => String, fieldOf(LegacyPayoutBody, 'accountName'))
  accountName!: string;

  @Field(() => String, fieldOf(LegacyPayoutBody, 'accountNumber'))
  accountNumber!: string;

  @Field(() => String, fieldOf(LegacyPayoutBody, 'reference'))
  reference!: string;

  @Field(() => LegacyCurrencyEnum, fieldOf(LegacyPayoutBody, 'currency'))
  currency!: string;

  @Field(() => LegacyCountryEnum, fieldOf(LegacyPayoutBody, 'country'))
  country!: string;

  @Field(() => String, fieldOf(LegacyPayoutBody, 'businessNumber'))
  businessNumber?: string | null;

  @Field(() => String, fieldOf(LegacyPayoutBody, 'code'))
  code!: string;
}
type _LegacyPayoutInputTie = NoDrift<FieldDrift<LegacyPayoutInput, typeof LegacyPayoutBody>>;

/** Result of `legacyPayout` (OpenAPI legacyPayout), plus whether it replayed an earlier payout with this reference. */
@ObjectType('LegacyPayoutResult', { description: 'Answer of legacyPayout: the payment it created or replayed' })
export class LegacyPayoutResultType {
  @Field(() => Boolean)
  success!: boolean;

  @Field(() => String, { description: 'The payment id: read it with payment(id) or watch it with paymentUpdated' })
  transactionId!: string;

  @Field(() => Boolean, { description: 'True when this reference was already paid out with the same input (REST: Idempotent-Replayed)' })
  replayed!: boolean;
}
