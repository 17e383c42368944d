import { z } from 'zod';
import { MONEY_OUT_CURRENCIES, PAYMENT_METHODS } from '../../core/catalog/catalog';
import { PAYMENT_STATUSES } from '../../core/payments/payment';
import { STABLECOINS } from '../../core/shared/money';
import { DecimalString } from './common.schema';

/** Headers of POST /v1/payments/moneyout. */
export const MoneyOutHeaders = z.object({
  'idempotency-key': z.uuid().meta({ description: 'Client-generated UUID; the same key returns the same result for 24 hours' }),
});

/** Payment resource (OpenAPI getPayment, plus failureReason, exchangeRate and payoutFee). */
export const PaymentResponse = z
  .object({
    id: z.string().meta({ example: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }),
    status: z.enum(PAYMENT_STATUSES),
    paymentMethod: z.enum(PAYMENT_METHODS),
    sourceCurrency: z.enum(STABLECOINS),
    amountStablecoin: DecimalString,
    fiatAmount: DecimalString,
    destinationCurrency: z.enum([...MONEY_OUT_CURRENCIES, 'ETB']).meta({ description: 'ETB only for legacy payouts (POST /momo/payout)' }),
    providerRef: z.string().nullable(),
    reference: z.string().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    failureReason: z.string().nullable(),
    exchangeRate: DecimalString,
    payoutFee: DecimalString,
  })
  .meta({ id: 'Payment' });
