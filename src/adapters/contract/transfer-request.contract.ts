import { z } from 'zod';
import type { TransferErrorCode, TransferRequestCommand } from '../../core/transfers/create-transfer-request';
import { MERCHANT_CATEGORY_CODES, TERMINAL_TYPES, TRANSFER_CURRENCIES, TRANSFER_LIMITS } from '../../core/transfers/transfer-request';
import { AmountInput } from './amount.schema';
import type { ShapeCCode } from './error-codes';
import type { KeyDrift, NoDrift } from './schema-ties';

/** Body of POST /tx/createTransferRequest (OpenAPI createTransferRequest); `paymentProcessor`, `terminalType` and `currency` are our names for three fields the interface leaves unnamed. */
export const TransferRequestBody = z
  .strictObject({
    recipient: z.string().min(1).max(TRANSFER_LIMITS.recipient).meta({ description: 'Recipient wallet address', example: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU' }),
    amount: AmountInput.meta({ description: 'Total amount, at least 0.01 and a multiple of 0.01', example: 150.5 }),
    acquirerMerchantName: z.string().min(1).max(32).meta({ description: 'Acquirer key from the catalog (ACQ_1, ACQ_2, ACQ_3)', example: 'ACQ_1' }),
    reference: z.string().min(1).max(TRANSFER_LIMITS.reference).meta({ description: 'Unique transaction reference', example: 'trq-10045' }),
    merchantID: z.string().min(1).max(TRANSFER_LIMITS.merchantID).meta({ description: "The merchant's id at the acquirer", example: 'MRC-20931' }),
    description: z.string().max(TRANSFER_LIMITS.description).optional().meta({ description: 'What the customer pays for, shown by the acquirer', example: 'Order 10045' }),
    successUrl: z.string().max(TRANSFER_LIMITS.url).optional().meta({ description: 'Where the acquirer sends the customer after paying', example: 'https://shop.example.org/paid' }),
    failedUrl: z.string().max(TRANSFER_LIMITS.url).optional().meta({ description: 'Where the acquirer sends the customer when paying failed', example: 'https://shop.example.org/failed' }),
    webhookUrl: z.string().max(TRANSFER_LIMITS.url).optional().meta({ description: 'Where the acquirer reports the outcome', example: 'https://shop.example.org/hooks/acquirer' }),
    customReference: z.string().max(TRANSFER_LIMITS.customReference).optional().meta({ description: 'A free reference of yours, returned as is', example: 'cart-88412' }),
    merchantCategoryCode: z.enum(MERCHANT_CATEGORY_CODES).optional().meta({ description: '01 tangible goods, 02 virtual goods' }),
    paymentProcessor: z.string().max(32).optional().meta({ description: 'The single payment-processor value (PROCESSOR_1); default it' }),
    terminalType: z.enum(TERMINAL_TYPES).optional().meta({ description: 'Default APP' }),
    currency: z.enum(TRANSFER_CURRENCIES).optional().meta({ description: 'Default USDC' }),
  })
  .meta({
    id: 'TransferRequestInput',
    example: {
      recipient: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', amount: 150.5, acquirerMerchantName: 'ACQ_1', reference: 'trq-10045',
      merchantID: 'MRC-20931', description: 'Order 10045', successUrl: 'https://shop.example.org/paid', merchantCategoryCode: '01',
    },
  });

/** Path of GET /tx/transferRequests/{reference}. */
export const TransferRequestParams = z.object({ reference: z.string().min(1).max(TRANSFER_LIMITS.reference).meta({ description: 'Your reference of the transfer request', example: 'trq-10045' }) });

/** Non-validation failures in shape C (docs/decisions.md § Errors: shapes per route family); exhaustive by type; REST and GraphQL both answer these codes. */
export const TRANSFER_ERRORS: Record<Exclude<TransferErrorCode, 'validation_error'>, ShapeCCode> = {
  duplicate_reference: 'duplicate_reference',
  not_found: 'not_found',
};

/** The parsed body carries exactly the fields of the core's TransferRequestCommand: a field added to one side only fails `tsc`. */
type _TransferRequestBodyTie = NoDrift<KeyDrift<z.output<typeof TransferRequestBody>, TransferRequestCommand>>;
