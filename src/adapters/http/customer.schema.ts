import { z } from 'zod';
import 'zod-openapi';
import { ID_TYPES, KYC_STATUSES } from '../../core/customers/customer';

/** Customer resource (OpenAPI getCustomer; docs/decisions.md § Customers and KYC); also the data of customer.kyc.updated. */
export const CustomerResponse = z
  .object({
    id: z.string().meta({ description: 'Customer id (cus_ + ULID)', example: 'cus_01JD50D2E8KQ4V7XW3M9N6B1RT' }),
    externalId: z.string().meta({ description: "Your own id for this wallet user, unique per tenant", example: 'user-8841' }),
    firstName: z.string().meta({ description: 'Given name', example: 'Amina' }),
    lastName: z.string().meta({ description: 'Family name', example: 'Okafor' }),
    country: z.string().meta({ description: 'Country of residence, ISO 3166-1 alpha-2', example: 'NG' }),
    dateOfBirth: z.string().meta({ description: 'Date of birth, YYYY-MM-DD', example: '1991-04-17' }),
    idType: z.enum(ID_TYPES).meta({ description: 'Kind of identity document' }),
    idNumberLast4: z.string().meta({ description: 'Last four characters of the document number: the full number is never returned', example: '4821' }),
    kycStatus: z.enum(KYC_STATUSES).meta({ description: 'pending until the KYC provider decides, then approved or rejected (customer.kyc.updated)' }),
    kycReason: z.string().nullable().meta({ description: 'Why KYC was rejected, or why a pending check waits (e.g. the ID authority is unavailable); null otherwise', example: null }),
    createdAt: z.iso.datetime().meta({ description: 'When the customer was created (ISO 8601 UTC)', example: '2026-11-23T09:30:12.044Z' }),
    updatedAt: z.iso.datetime().meta({ description: 'When the customer last changed, e.g. by the KYC decision', example: '2026-11-23T09:30:17.381Z' }),
  })
  .meta({
    id: 'Customer',
    example: {
      id: 'cus_01JD50D2E8KQ4V7XW3M9N6B1RT', externalId: 'user-8841', firstName: 'Amina', lastName: 'Okafor', country: 'NG',
      dateOfBirth: '1991-04-17', idType: 'NATIONAL_ID', idNumberLast4: '4821', kycStatus: 'approved', kycReason: null,
      createdAt: '2026-11-23T09:30:12.044Z', updatedAt: '2026-11-23T09:30:17.381Z',
    },
  });
