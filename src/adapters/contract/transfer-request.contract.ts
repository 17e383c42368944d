import { z } from 'zod';
import type { TransferErrorCode, TransferRequestCommand } from '../../core/transfers/create-transfer-request';
import { MERCHANT_CATEGORY_CODES, TERMINAL_TYPES, TRANSFER_CURRENCIES, TRANSFER_LIMITS } from '../../core/transfers/transfer-request';
import { AmountInput } from './amount.schema';
import type { ShapeCCode } from './error-codes';
import type { KeyDrift, NoDrift } from './schema-ties';

/** Body of POST /tx/createTransferRequest (OpenAPI createTransferRequest); `paymentProcessor`, `terminalType` and `currency` are our names for three fields the interface leaves unnamed. */
export const TransferRequestBody = z
  .strictObject({
    recipient: z.string().min(1).max(TRANSFER_LIMITS.recipient).meta({ description: 'Recipient wallet address' }),
    amount: AmountInput.meta({ description: 'Total amount, at least 0.01 and a multiple of 0.01', example: 150.5 }),
    acquirerMerchantName: z.string().min(1).max(32).meta({ description: 'Acquirer key from the catalog (ACQ_1, ACQ_2, ACQ_3)' }),
    reference: z.string().min(1).max(TRANSFER_LIMITS.reference).meta({ description: 'Unique transaction reference' }),
    merchantID: z.string().min(1).max(TRANSFER_LIMITS.merchantID),
    description: z.string().max(TRANSFER_LIMITS.description).optional(),
    successUrl: z.string().max(TRANSFER_LIMITS.url).optional(),
    failedUrl: z.string().max(TRANSFER_LIMITS.url).optional(),
    webhookUrl: z.string().max(TRANSFER_LIMITS.url).optional(),
    customReference: z.string().max(TRANSFER_LIMITS.customReference).optional(),
    merchantCategoryCode: z.enum(MERCHANT_CATEGORY_CODES).optional().meta({ description: '01 tangible goods, 02 virtual goods' }),
    paymentProcessor: z.string().max(32).optional().meta({ description: 'The single payment-processor value (PROCESSOR_1); default it' }),
    terminalType: z.enum(TERMINAL_TYPES).optional().meta({ description: 'Default APP' }),
    currency: z.enum(TRANSFER_CURRENCIES).optional().meta({ description: 'Default USDC' }),
  })
  .meta({ id: 'TransferRequestInput' });

/** Path of GET /tx/transferRequests/{reference}. */
export const TransferRequestParams = z.object({ reference: z.string().min(1).max(TRANSFER_LIMITS.reference) });

/** Non-validation failures in shape C (docs/decisions.md § Errors: shapes per route family); exhaustive by type; REST and GraphQL both answer these codes. */
export const TRANSFER_ERRORS: Record<Exclude<TransferErrorCode, 'validation_error'>, ShapeCCode> = {
  duplicate_reference: 'duplicate_reference',
  not_found: 'not_found',
};

/** The parsed body carries exactly the fields of the core's TransferRequestCommand: a field added to one side only fails `tsc`. */
type _TransferRequestBodyTie = NoDrift<KeyDrift<z.output<typeof TransferRequestBody>, TransferRequestCommand>>;
