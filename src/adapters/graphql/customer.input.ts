import { Field, InputType } from 'type-graphql';
import { CreateCustomerBody } from '../contract/customer.contract';
import type { FieldDrift, NoDrift } from '../contract/schema-ties';
import { fieldOf } from './contract-fields';
import { IdTypeEnum } from './customer.type';

/**
 * Input of `createCustomer`: the fields of REST's POST /v1/customers body, checked and described
 * by the same zod schema and then by the same use case, so both transports accept and refuse alike.
 */
@InputType('CreateCustomerInput', { description: 'A wallet user to register, as REST POST /v1/customers takes it' })
export class CreateCustomerInput {
  @Field(() => String, fieldOf(CreateCustomerBody, 'externalId'))
  externalId!: string;

  @Field(() => String, fieldOf(CreateCustomerBody, 'firstName'))
  firstName!: string;

  @Field(() => String, fieldOf(CreateCustomerBody, 'lastName'))
  lastName!: string;

  @Field(() => String, fieldOf(CreateCustomerBody, 'country'))
  country!: string;

  @Field(() => String, fieldOf(CreateCustomerBody, 'dateOfBirth'))
  dateOfBirth!: string;

  @Field(() => IdTypeEnum, fieldOf(CreateCustomerBody, 'idType'))
  idType!: string;

  @Field(() => String, fieldOf(CreateCustomerBody, 'idNumber'))
  idNumber!: string;
}
type _CreateCustomerInputTie = NoDrift<FieldDrift<CreateCustomerInput, typeof CreateCustomerBody>>;
