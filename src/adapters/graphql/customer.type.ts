import { DateTimeISOResolver } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { ID_TYPES, KYC_STATUSES, type CustomerView } from '../../core/customers/customer';
import { enumOf } from './enums.type';
import { connectionType } from './connection.type';
import { NodeInterface } from './node.type';

/** Identity documents accepted, the core's strings. */
export const IdTypeEnum = enumOf(ID_TYPES, 'IdType', 'Identity document of a customer');
/** KYC states (docs/decisions.md § Customers and KYC), the core's strings. */
export const KycStatusEnum = enumOf(KYC_STATUSES, 'KycStatus', 'KYC state: pending until the KYC provider approves or rejects');

/**
 * `Customer` (docs/decisions.md § Customers and KYC and § GraphQL): a wallet user, exactly the object of REST GET
 * /v1/customers/{id}. The document number shows only as its last four characters. Resolvers
 * return the core's CustomerView unchanged; this class only describes the shape.
 */
@ObjectType('Customer', { description: 'A wallet user of yours with a KYC status (REST: GET /v1/customers/{customerId})', implements: NodeInterface })
export class CustomerType implements CustomerView {
  @Field(() => ID, { description: 'cus_-prefixed ULID' })
  id!: string;

  @Field(() => String, { description: 'Your own id for this user; unique per tenant' })
  externalId!: string;

  @Field(() => String, { description: 'Given name, as registered' })
  firstName!: string;

  @Field(() => String, { description: 'Family name, as registered' })
  lastName!: string;

  @Field(() => String, { description: 'ISO 3166-1 alpha-2, upper case' })
  country!: string;

  @Field(() => String, { description: 'YYYY-MM-DD' })
  dateOfBirth!: string;

  @Field(() => IdTypeEnum, { description: 'Kind of identity document' })
  idType!: CustomerView['idType'];

  @Field(() => String, { description: 'Last four characters of the document number (the rest is never shown)' })
  idNumberLast4!: string;

  @Field(() => KycStatusEnum, { description: 'Where KYC stands' })
  kycStatus!: CustomerView['kycStatus'];

  @Field(() => String, { nullable: true, description: 'Why KYC was rejected, or why a pending check waits (e.g. the ID authority is unavailable); null otherwise' })
  kycReason!: string | null;

  @Field(() => DateTimeISOResolver, { description: 'When the customer was registered' })
  createdAt!: string;

  @Field(() => DateTimeISOResolver, { description: 'Changes when KYC is decided' })
  updatedAt!: string;
}

/** The `customers` connection: one page of REST's list, newest first. */
export const CustomerConnectionType = connectionType<CustomerView>(CustomerType, 'Customer', 'customer', 'customers', 'newest first');
