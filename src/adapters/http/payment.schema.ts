import { z } from 'zod';
import 'zod-openapi';

/** Headers of POST /v1/payments/moneyout. */
export const MoneyOutHeaders = z.object({
  'idempotency-key': z.uuid().meta({
    description: 'A new UUID per payout, kept until you have an answer: the same key and body return the first answer again for 24 hours (docs/api.md § Creating a payout safely)',
    example: '3b8f7a52-1c9e-4d0b-a6f3-92e4c5d7b018',
  }),
});

/** Payment resource (OpenAPI getPayment), described in the contract so GraphQL can reuse it. */
export { PaymentResponse } from '../contract/payment-view.contract';
