import { z } from 'zod';
import { ID_TYPES } from '../../core/customers/customer';
import type { CreateCustomerCommand, CustomerErrorCode } from '../../core/customers/manage-customers';
import type { ShapeACode } from './error-codes';
import type { KeyDrift, NoDrift } from './schema-ties';

/** Body of POST /v1/customers; GraphQL's createCustomer validates with it too (docs/decisions.md § Customers and KYC). */
export const CreateCustomerBody = z.strictObject({
  externalId: z.string().min(1).max(100).meta({ description: "The issuer's own id for this user; unique per tenant" }),
  firstName: z.string().min(1).max(100),
  lastName: z.string().min(1).max(100),
  country: z.string().length(2).meta({ description: 'ISO 3166-1 alpha-2, upper case (XK for Kosovo accepted)', example: 'KE' }),
  dateOfBirth: z.string().meta({ description: 'YYYY-MM-DD, a real date from 1900-01-01; the customer must be 18 or older', example: '1990-04-12' }),
  idType: z.enum(ID_TYPES),
  idNumber: z.string().min(4).max(32).meta({ description: '4 to 32 letters, digits or dashes; stored, but returned only as idNumberLast4' }),
}).meta({ id: 'CreateCustomerRequest' });

/** Path of GET /v1/customers/{customerId}. */
export const CustomerParams = z.object({ customerId: z.string().max(64) });

/** Every customer failure mapped to its shape A code, for REST and GraphQL alike; exhaustive by type. */
export const CUSTOMER_ERRORS: Record<CustomerErrorCode, ShapeACode> = {
  validation_error: 'validation_error', duplicate_customer: 'duplicate_customer', not_found: 'not_found', provider_unavailable: 'provider_unavailable',
};

/** The parsed body carries exactly the fields of the core's CreateCustomerCommand: a field added to one side only fails `tsc`. */
type _CreateCustomerBodyTie = NoDrift<KeyDrift<z.output<typeof CreateCustomerBody>, CreateCustomerCommand>>;
