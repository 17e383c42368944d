import { z } from 'zod';
import { ID_TYPES } from '../../core/customers/customer';
import type { CreateCustomerCommand, CustomerErrorCode } from '../../core/customers/manage-customers';
import type { ShapeACode } from './error-codes';
import type { KeyDrift, NoDrift } from './schema-ties';

/** Body of POST /v1/customers; GraphQL's createCustomer validates with it too (docs/decisions.md § Customers and KYC). */
export const CreateCustomerBody = z.strictObject({
  externalId: z.string().min(1).max(100).meta({ description: "The issuer's own id for this user; unique per tenant", example: 'user-8841' }),
  firstName: z.string().min(1).max(100).meta({ description: 'Given name as on the document', example: 'Amina' }),
  lastName: z.string().min(1).max(100).meta({ description: 'Family name as on the document', example: 'Okafor' }),
  country: z.string().length(2).meta({ description: 'ISO 3166-1 alpha-2, upper case (XK for Kosovo accepted)', example: 'KE' }),
  dateOfBirth: z.string().meta({ description: 'YYYY-MM-DD, a real date from 1900-01-01; the customer must be 18 or older', example: '1990-04-12' }),
  idType: z.enum(ID_TYPES).meta({ description: 'Kind of identity document' }),
  idNumber: z.string().min(4).max(32).meta({ description: '4 to 32 letters, digits or dashes; stored, but returned only as idNumberLast4', example: 'A12344821' }),
}).meta({
  id: 'CreateCustomerRequest',
  example: { externalId: 'user-8841', firstName: 'Amina', lastName: 'Okafor', country: 'NG', dateOfBirth: '1991-04-17', idType: 'NATIONAL_ID', idNumber: 'A12344821' },
});

/** Path of GET /v1/customers/{customerId}. */
export const CustomerParams = z.object({ customerId: z.string().max(64).meta({ description: 'Customer id (cus_...)', example: 'cus_01JD50D2E8KQ4V7XW3M9N6B1RT' }) });

/** Every customer failure mapped to its shape A code, for REST and GraphQL alike; exhaustive by type. */
export const CUSTOMER_ERRORS: Record<CustomerErrorCode, ShapeACode> = {
  validation_error: 'validation_error', duplicate_customer: 'duplicate_customer', not_found: 'not_found', provider_unavailable: 'provider_unavailable',
  screening_unavailable: 'screening_unavailable',
};

/** The parsed body carries exactly the fields of the core's CreateCustomerCommand: a field added to one side only fails `tsc`. */
type _CreateCustomerBodyTie = NoDrift<KeyDrift<z.output<typeof CreateCustomerBody>, CreateCustomerCommand>>;
