import { Field, InputType } from 'type-graphql';
import { IdTypeEnum } from './customer.type';

/**
 * Input of `createCustomer`: the fields of REST's POST /v1/customers body, checked by the
 * same zod schema and then by the same use case, so both transports accept and refuse alike.
 */
@InputType('CreateCustomerInput')
export class CreateCustomerInput {
  @Field(() => String, { description: 'Your own id for this user, 1..100 characters; unique per tenant' })
  externalId!: string;

  @Field(() => String, { description: '1..100 characters, not blank' })
  firstName!: string;

  @Field(() => String, { description: '1..100 characters, not blank' })
  lastName!: string;

  @Field(() => String, { description: 'ISO 3166-1 alpha-2, upper case (XK for Kosovo accepted)' })
  country!: string;

  @Field(() => String, { description: 'YYYY-MM-DD, a real date from 1900-01-01; the customer must be 18 or older' })
  dateOfBirth!: string;

  @Field(() => IdTypeEnum)
  idType!: string;

  @Field(() => String, { description: '4 to 32 letters, digits or dashes; stored, but returned only as idNumberLast4' })
  idNumber!: string;
}
