import { z } from 'zod';
import { MONEY_OUT_CURRENCIES, PAYMENT_METHODS } from '../../core/catalog/catalog';
import { PAYMENT_STATUSES } from '../../core/payments/payment';
import { PAYMENT_FAILURE_CODES } from '../../core/payments/payment-failure';
import { STABLECOINS } from '../../core/shared/money';
import { DecimalString } from './amount.schema';
import { RefundResponse } from './refund.contract';

/** A payment id as the examples show it. */
export const EXAMPLE_PAYMENT_ID = 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ';

/**
 * A payment as createMoneyOut's 201 answers it (OpenAPI createMoneyOut): just created, so
 * `initiated`, no provider reference, no failure, updated when created. The Payment schema's own
 * example (a succeeded payment) is what GET shows later.
 */
export const INITIATED_PAYMENT_EXAMPLE = {
  id: EXAMPLE_PAYMENT_ID, status: 'initiated', paymentMethod: 'MOMO', sourceCurrency: 'USDC', amountStablecoin: '12.115416',
  fiatAmount: '1500.00', destinationCurrency: 'KES', providerRef: null, reference: 'order-10045',
  createdAt: '2026-11-23T09:41:07.512Z', updatedAt: '2026-11-23T09:41:07.512Z', failureReason: null, failureCode: null, exchangeRate: '129.25',
  payoutFee: '0.510000', refund: null,
} as const;

/**
 * The payment resource every transport returns (OpenAPI getPayment, listPayments, createMoneyOut;
 * the data of payment.* webhooks), with each field described once for REST and GraphQL
 * (docs/decisions.md § Payments: states and events). Amounts are decimal strings at their
 * currency's scale.
 */
export const PaymentResponse = z
  .object({
    id: z.string().meta({ description: 'Payment id: pay_ and a ULID, so ids sort by creation', example: EXAMPLE_PAYMENT_ID }),
    status: z.enum(PAYMENT_STATUSES).meta({
      description: 'initiated → provider_accepted → succeeded, or failed / refunded (final: succeeded, failed, refunded)',
      example: 'succeeded',
    }),
    paymentMethod: z.enum(PAYMENT_METHODS).meta({ description: 'How the recipient is paid: bank account, mobile-money wallet, paybill or till', example: 'MOMO' }),
    sourceCurrency: z.enum(STABLECOINS).meta({ description: 'Stablecoin the payout is funded from', example: 'USDC' }),
    amountStablecoin: DecimalString.meta({ description: 'Stablecoin charged, fees included, 6 decimal places (held at creation)', example: '12.115416' }),
    fiatAmount: DecimalString.meta({ description: 'Amount the recipient receives, in destinationCurrency at its scale', example: '1500.00' }),
    destinationCurrency: z.enum([...MONEY_OUT_CURRENCIES, 'ETB']).meta({ description: 'Currency paid out; ETB only for legacy payouts (POST /momo/payout)', example: 'KES' }),
    providerRef: z.string().nullable().meta({ description: "The payout provider's reference, once it accepted the payout; null before", example: 'SBX-7Q2M4K9D' }),
    reference: z.string().nullable().meta({ description: 'Your reference for the payout, unique per tenant', example: 'order-10045' }),
    createdAt: z.iso.datetime().meta({ description: 'When the payment was created (ISO 8601 UTC)', example: '2026-11-23T09:41:07.512Z' }),
    updatedAt: z.iso.datetime().meta({ description: 'When its status last changed', example: '2026-11-23T09:41:09.204Z' }),
    failureReason: z.string().nullable().meta({ description: 'Why it failed or was refunded, in words for people; null otherwise', example: null }),
    failureCode: z.enum(PAYMENT_FAILURE_CODES).nullable().meta({
      description: 'Why it failed or was refunded, as a code to branch on (docs/api.md § Failure codes): recipient_account_invalid, limit_exceeded, '
        + 'insufficient_provider_balance, declined, expired, reversed, unsupported_by_provider, provider_error, unknown or compliance_rejected; null unless failed or refunded',
      example: null,
    }),
    exchangeRate: DecimalString.meta({ description: 'Units of destinationCurrency per 1 sourceCurrency applied (a quote\'s locked rate or the current one)', example: '129.25' }),
    payoutFee: DecimalString.meta({ description: 'Fees included in amountStablecoin (method, network, optional issuer fee), in sourceCurrency', example: '0.510000' }),
    refund: RefundResponse.nullable().optional().meta({
      description: 'The onchain refund of a live payment that failed or was reversed after acceptance, null when it owes none (docs/api.md § Refunds): '
        + 'on getPayment and listPayments; always null in the createMoneyOut answer (a new payment owes none); not in webhook data',
    }),
  })
  .meta({
    id: 'Payment',
    description: 'A payout of fiat to one recipient, funded from a stablecoin balance',
    example: {
      id: EXAMPLE_PAYMENT_ID, status: 'succeeded', paymentMethod: 'MOMO', sourceCurrency: 'USDC', amountStablecoin: '12.115416',
      fiatAmount: '1500.00', destinationCurrency: 'KES', providerRef: 'SBX-7Q2M4K9D', reference: 'order-10045',
      createdAt: '2026-11-23T09:41:07.512Z', updatedAt: '2026-11-23T09:41:09.204Z', failureReason: null, failureCode: null, exchangeRate: '129.25',
      payoutFee: '0.510000',
    },
  });
