import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { PaymentFailureCode } from '../../core/payments/payment-failure';
import { PaymentResponse } from '../contract/payment-view.contract';
import { CustomerResponse } from './customer.schema';
import { DepositResponse } from '../contract/deposit.contract';

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
} as const;

/** What a failed or refunded payment's event says about why, in the examples (docs/api.md § Failure codes). */
const FAILURE_EXAMPLES: Record<string, { failureReason: string; failureCode: PaymentFailureCode }> = {
  failed: { failureReason: 'Recipient wallet is closed', failureCode: 'recipient_account_invalid' },
  refunded: { failureReason: 'The recipient bank returned the payout', failureCode: 'reversed' },
};
/** The API tag each event family belongs to. */
const EVENT_TAGS = { payment: 'Payments', customer: 'Customers', deposit: 'Deposits' } as const;

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
            ...(event.status ? FAILURE_EXAMPLES[event.status] : {}),
            ...('example' in event ? event.example : {}) },
        },
      });
    return [type, {
      post: {
        operationId: `webhook_${type.replace(/\./g, '_')}`,
        summary: type,
        description: `${event.what} Sent to each active registration whose events list is empty or names ${type}, signed both ways; verify a signature on the raw body before trusting it. Delivery is at least once, in order per payment (or deposit) and endpoint.`,
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
