import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { PaymentFailureCode } from '../../core/payments/payment-failure';
import { PaymentResponse } from '../contract/payment-view.contract';
import { CustomerResponse } from './customer.schema';
import { DepositResponse } from '../contract/deposit.contract';
import { DecimalString } from '../contract/amount.schema';
import { BLOCKCHAINS } from '../../core/catalog/catalog';
import { STABLECOINS } from '../../core/shared/money';
import { REFUND_STATUSES } from '../../core/refunds/refund-states';
import type { RefundEventData as RefundEventDataShape } from '../../core/refunds/refund-events';

/**
 * The resources as event data. A request body is rendered as input, a response as output: the
 * same schema in both would rename the responses' component (PaymentOutput), so the event data
 * are components of their own with the same fields.
 */
const PaymentEventData = z.object(PaymentResponse.shape).meta({
  id: 'PaymentEventData', description: 'The payment as GET /v1/payments/{paymentId} returns it', example: z.globalRegistry.get(PaymentResponse)?.example,
});
const DepositEventData = z.object(DepositResponse.shape).meta({
  id: 'DepositEventData', description: 'The deposit as GET /v1/deposits/{depositId} returns it at the event', example: z.globalRegistry.get(DepositResponse)?.example,
});
const CustomerEventData = z.object(CustomerResponse.shape).meta({
  id: 'CustomerEventData', description: 'The customer as GET /v1/customers/{customerId} returns it', example: z.globalRegistry.get(CustomerResponse)?.example,
});

/** A refund as its webhooks carry it (core refundEventData; docs/decisions.md § Refunds). */
const REFUND_EXAMPLE: RefundEventDataShape = {
  id: 'rfd_01JD5A2C4E6G8J0K2M4P6R8T0V', paymentId: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ', amount: '12.115416', currency: 'USDT', blockchain: 'BSC',
  refundAddress: '0x4B16c5dE96EB2117bBE5fd171E4d203624B014aa', status: 'pending', txHash: null, createdAt: '2026-11-23T09:30:00.000Z', sentAt: null,
};
const RefundEventData = z.object({
  id: z.string().meta({ description: 'Refund id: rfd_ and a ULID', example: REFUND_EXAMPLE.id }),
  paymentId: z.string().meta({ description: 'The live payment refunded (failed after its funds were held, or reversed)', example: REFUND_EXAMPLE.paymentId }),
  amount: DecimalString.meta({ description: "The payment's whole stablecoin amount, 6 decimal places: what goes back (the network fee is ours)", example: REFUND_EXAMPLE.amount }),
  currency: z.enum(STABLECOINS).meta({ description: 'The stablecoin sent back', example: REFUND_EXAMPLE.currency }),
  blockchain: z.enum(BLOCKCHAINS).meta({ description: 'The chain it is sent on', example: REFUND_EXAMPLE.blockchain }),
  refundAddress: z.string().meta({ description: "The payment's refundAddress: where the stablecoin goes back", example: REFUND_EXAMPLE.refundAddress }),
  status: z.enum(REFUND_STATUSES).meta({ description: 'pending → broadcast → confirmed once final onchain; failed when it needs an operator; sent when an operator recorded a hand-sent transaction', example: 'pending' }),
  txHash: z.string().nullable().meta({ description: 'The transaction hash (BSC) or signature (SOLANA) that carries it; null before anything was broadcast', example: null }),
  createdAt: z.iso.datetime().meta({ description: 'When the refund became owed', example: REFUND_EXAMPLE.createdAt }),
  sentAt: z.iso.datetime().nullable().meta({ description: 'When it was final onchain (or recorded sent); null before', example: null }),
}).meta({ id: 'RefundEventData', description: 'The onchain refund of a live payment at the event', example: REFUND_EXAMPLE });

/** What each event says happened (docs/decisions.md § Payments: states and events, § Customers and KYC). */
const EVENTS = {
  'payment.processing': { what: 'The payout provider accepted the payout: status provider_accepted, providerRef set.', data: PaymentEventData, status: 'provider_accepted' },
  'payment.succeeded': { what: 'The recipient was paid: status succeeded (final).', data: PaymentEventData, status: 'succeeded' },
  'payment.failed': { what: 'The payout failed, at submission or after acceptance: status failed (final), failureReason and failureCode set; the held amount is released or refunded.', data: PaymentEventData, status: 'failed' },
  'payment.refunded': { what: 'The funds came back after acceptance: status refunded (final), failureReason and failureCode set.', data: PaymentEventData, status: 'refunded' },
  'customer.kyc.updated': { what: 'The KYC provider decided: kycStatus approved or rejected (kycReason set when rejected).', data: CustomerEventData, status: undefined },
  'deposit.detected': {
    what: 'A transfer to one of your deposit addresses was read from the chain, not yet final: status detected, the balance not yet credited. Sent again if a dropped deposit is included by the chain again.',
    data: DepositEventData, status: 'detected', example: { confirmations: 1, ledgerTransactionId: null, creditedAt: null },
  },
  'deposit.credited': { what: 'The deposit is final and your available balance was credited with its amount: status credited, ledgerTransactionId set.', data: DepositEventData, status: 'credited' },
  'deposit.dropped': {
    what: 'A reorganisation removed the detected deposit before it was final: status dropped; the balance never moved.',
    data: DepositEventData, status: 'dropped', example: { confirmations: null, ledgerTransactionId: null, creditedAt: null, droppedAt: '2026-11-27T10:15:04.530Z' },
  },
  'deposit.held': {
    what: 'The deposit is final but its sender is on a sanctions list (an exact listed address): status held, not credited; our compliance team reviews it.',
    data: DepositEventData, status: 'held', example: { ledgerTransactionId: null, creditedAt: null },
  },
  'deposit.rejected': {
    what: 'The compliance review of a held deposit rejected it: status rejected (final), never credited; our operators contact you about the funds.',
    data: DepositEventData, status: 'rejected', example: { confirmations: null, ledgerTransactionId: null, creditedAt: null },
  },
  'refund.pending': {
    what: "A live payment failed after its funds were held, or was reversed: its whole stablecoin amount is owed back to the payment's refundAddress and waits in refund_pending. Status pending; sent from the hot wallet when one is configured, else by an operator.",
    data: RefundEventData, status: 'pending',
  },
  'refund.confirmed': {
    what: 'The refund\'s transaction is final onchain: status confirmed, txHash and sentAt set; refund_pending moved to refunded.',
    data: RefundEventData, status: 'confirmed',
    example: { txHash: '0x9a3f1c2b4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8', sentAt: '2026-11-23T09:31:12.400Z' },
  },
  'refund.failed': {
    what: 'The refund\'s transaction landed and reverted: status failed, txHash set; the amount stays in refund_pending until an operator retries it or records a hand-sent transaction.',
    data: RefundEventData, status: 'failed', example: { txHash: '0x9a3f1c2b4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8' },
  },
} as const;

/** What a failed or refunded payment's event says about why, in the examples (docs/api.md § Failure codes). */
const FAILURE_EXAMPLES: Record<string, { failureReason: string; failureCode: PaymentFailureCode }> = {
  failed: { failureReason: 'Recipient wallet is closed', failureCode: 'recipient_account_invalid' },
  refunded: { failureReason: 'The recipient bank returned the payout', failureCode: 'reversed' },
};
/** The API tag each event family belongs to. */
const EVENT_TAGS = { payment: 'Payments', customer: 'Customers', deposit: 'Deposits', refund: 'Payments' } as const;

/** The signature headers of every delivery (docs/decisions.md § Webhooks). */
const DeliveryHeaders = z.object({
  'service-signature': z.string().meta({
    description: 't=<Unix seconds of this attempt>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under your webhook secret (the whole whsec_ string as the key)>. Refuse it when t is more than 5 minutes from now, in either direction: a replayed request',
    example: 't=1795426869,v1=7a99ea96be5c62acc722758e81583ef4e0b4581a2d37b4b52253fea58c641497',
  }),
  'webhook-id': z.string().meta({ description: 'Standard Webhooks: the delivery id, the same on every attempt; drop duplicates by it', example: '0b9e4c1a-5d2f-4e8b-9a7c-3f6d1e2b8c40' }),
  'webhook-timestamp': z.string().meta({ description: 'Standard Webhooks: Unix seconds of this attempt, the same as Service-Signature\'s t; refuse it when more than 5 minutes from now', example: '1795426869' }),
  'webhook-signature': z.string().meta({ description: 'Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body">', example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=' }),
});

/**
 * The OAS 3.1 `webhooks` section: one POST per event type, with the body we send (the resource as
 * the REST API returns it, in `data`) and the answers we act on.
 */
export const OPENAPI_WEBHOOKS: ZodOpenApiPathsObject = Object.fromEntries(
  Object.entries(EVENTS).map(([type, event]) => {
    const body = z
      .object({
        id: z.uuid().meta({ description: 'Event id: the same on every attempt and for every registration', example: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f' }),
        type: z.literal(type).meta({ description: 'The event type' }),
        timestamp: z.iso.datetime().meta({ description: 'When the event happened (ISO 8601 UTC)', example: '2026-11-23T09:41:09.204Z' }),
        data: event.data,
      })
      .meta({
        id: `Event_${type.replace(/\./g, '_')}`,
        description: `Body of a ${type} delivery`,
        example: {
          id: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f', type, timestamp: '2026-11-23T09:41:09.204Z',
          data: { ...(z.globalRegistry.get(event.data)?.example as object), ...(event.status ? { status: event.status } : {}),
            ...(event.status && event.data === PaymentEventData ? FAILURE_EXAMPLES[event.status] : {}),
            ...('example' in event ? event.example : {}) },
        },
      });
    return [type, {
      post: {
        operationId: `webhook_${type.replace(/\./g, '_')}`,
        summary: type,
        description: `${event.what} Sent to each active registration whose events list is empty or names ${type}, signed both ways; verify a signature on the raw body before trusting it. Delivery is at least once, in order per payment (or deposit, or refund) and endpoint.`,
        tags: [EVENT_TAGS[type.split('.')[0] as keyof typeof EVENT_TAGS]],
        // We call you: no API key; the signatures authenticate us.
        security: [],
        requestParams: { header: DeliveryHeaders },
        requestBody: { required: true, content: { 'application/json': { schema: body } } },
        responses: {
          '200': { description: 'Any 2xx marks the delivery delivered; answer quickly and process later' },
          '410': { description: 'Disables this registration: no further deliveries' },
          '429': { description: 'Retried later, honouring Retry-After; so is any other non-2xx answer or a timeout (15 s), up to 10 attempts over about 3 days' },
        },
      },
    }];
  }),
);
