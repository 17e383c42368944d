import type { Response } from 'express';
import { z } from 'zod';
import type { Application } from '../../core/application';
import { IDEMPOTENCY_KEY_FIELD, type MoneyOutErrorCode } from '../../core/payments/create-money-out';
import type { Err } from '../../core/shared/result';
import type { PaymentView } from '../../core/payments/payment-view';
import type { IssuerRefundView } from '../../core/refunds/refund-reads';
import { AUTH_ERRORS, ErrorA } from './common.schema';
import { MONEY_OUT_ERRORS, MoneyOutBody, PaymentIdParams } from '../contract/payment.contract';
import { PaymentListQuerySchema, toPaymentListQuery } from '../contract/payment-list.contract';
import { fieldsOf, sendShapeA, setRetryAfter } from './http-errors';
import { MoneyOutHeaders, PaymentResponse } from './payment.schema';
import { INITIATED_PAYMENT_EXAMPLE } from '../contract/payment-view.contract';
import { IdempotentReplayedHeader, RetryAfterHeader } from './openapi-headers';
import { nextPageLink, PAGE_PARAMS } from './pagination';
import { defineRoute, type RouteSpec } from './route';

/** How REST names the money-out's idempotency key: the caller sends it as a header. */
const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key header';

/** The failure's message in REST's words: the use case names the key after its parameter, REST after its header. */
function restMessage(failure: Err<MoneyOutErrorCode>): string {
  return failure.details?.field === IDEMPOTENCY_KEY_FIELD ? failure.message.replace(IDEMPOTENCY_KEY_FIELD, IDEMPOTENCY_KEY_HEADER) : failure.message;
}

/** Where REST takes the money-out's idempotency key: a header, not the body. */
const IDEMPOTENCY_KEY_PATH = { [IDEMPOTENCY_KEY_FIELD]: 'header.Idempotency-Key' };

/** Created, and repeated as is by a replay (which also carries Idempotent-Replayed: true). */
const MONEY_OUT_CREATED = 201;

/** Seconds a client should wait before retrying a key that is still in flight. */
const IN_FLIGHT_RETRY_AFTER_S = '1';

/** The core list's page parameters in REST's words: `first` is `limit`, `after` is `cursor` (docs/api.md § Lists and paging). */
const LIST_PARAMS: Readonly<Record<string, string>> = { first: 'limit', after: 'cursor' };

/** A list failure's message with the core's parameter name replaced by REST's. */
function listMessage(failure: Err<'validation_error'>): string {
  const field = String(failure.details?.field ?? '');
  const rest = LIST_PARAMS[field];
  return rest ? failure.message.replace(field, rest) : failure.message;
}

/**
 * `payments` with each one's `refund` (null when it owes none), read for the whole page in one
 * query, or none when no payment on it ended failed or refunded (docs/api.md § Refunds; OpenAPI
 * listPayments, getPayment). A page is at most 100 payments, what paymentRefunds takes.
 */
async function withRefunds(app: Application, tenantId: string, payments: PaymentView[]): Promise<Array<PaymentView & { refund: IssuerRefundView | null }>> {
  const refunds = await app.paymentRefunds(tenantId, payments);
  if (!refunds.ok) throw new Error(`refunds of a page of payments: ${refunds.message}`);
  return payments.map((payment, i) => ({ ...payment, refund: refunds.value[i] ?? null }));
}

/** Routes of the Payments tag (OpenAPI createMoneyOut, listPayments and getPayment). */
export function paymentRoutes(app: Application): RouteSpec<any, any, any>[] {
  return [
    defineRoute<z.infer<typeof MoneyOutBody>>({
      method: 'post',
      path: '/v1/payments/moneyout',
      operationId: 'createMoneyOut',
      description: 'Pays fiatAmount in destinationCurrency to one recipient, funded from your sourceCurrency balance. The stablecoin amount (fees included) is held at once and the payment starts initiated; follow it by webhooks or GET /v1/payments/{paymentId}. Send a new UUID as Idempotency-Key and retry with the same key and body until you get an answer: a replay returns the first answer with Idempotent-Replayed: true. Pass quoteId to pay at a quoted rate. Nothing is written when the request is refused.',
      summary: 'Create a money-out: pay fiat to a bank account, mobile-money wallet, paybill or till',
      tags: ['Payments'],
      auth: 'issuer',
      body: MoneyOutBody,
      headers: MoneyOutHeaders,
      responses: {
        '201': {
          description: 'Accepted for asynchronous processing: the payment, initiated (a replay carries Idempotent-Replayed: true)', schema: PaymentResponse,
          example: INITIATED_PAYMENT_EXAMPLE,
          headers: { 'Idempotent-Replayed': IdempotentReplayedHeader },
        },
        ...AUTH_ERRORS,
        '409': { description: 'duplicate_reference, or idempotency_key_in_use (with Retry-After)', schema: ErrorA, headers: { 'Retry-After': RetryAfterHeader } },
        '422': {
          description: 'idempotency_key_reused, quote_expired, quote_already_used (another money-out used the quoteId), unsupported_corridor, insufficient_balance, '
            + 'corridor_not_available (no payout provider is configured for this corridor here: permanent, do not retry); nothing is written',
          schema: ErrorA,
        },
        '503': {
          description: "provider_unavailable: the corridor's payout providers all refuse calls for now (then with Retry-After); rate_unavailable: no trustworthy live exchange rate for the pair now (too few fresh sources, or a sudden move awaiting confirmation; with Retry-After); screening_unavailable: a live tenant's money-out while no sanctions list is loaded (with Retry-After: an operator must load the lists). Nothing is written in any case: retry with the same Idempotency-Key",
          schema: ErrorA, headers: { 'Retry-After': RetryAfterHeader },
        },
      },
      handler: async (req, res) => {
        const result = await app.createMoneyOut(req.tenantId, req.raw.get('idempotency-key'), req.body);
        if (!result.ok) {
          if (result.code === 'idempotency_key_in_use') res.set('Retry-After', IN_FLIGHT_RETRY_AFTER_S);
          setRetryAfter(res, result);
          return sendShapeA(res, MONEY_OUT_ERRORS[result.code], restMessage(result), fieldsOf({ ...result, message: restMessage(result) }, req, IDEMPOTENCY_KEY_PATH));
        }
        if (result.value.replayed) res.set('Idempotent-Replayed', 'true');
        // A payment just created owes no refund; a replay answers the first answer, which owed none either.
        res.status(MONEY_OUT_CREATED).json({ ...result.value.payment, refund: null });
      },
    }),
    defineRoute<undefined, z.output<typeof PaymentListQuerySchema>>({
      method: 'get',
      path: '/v1/payments',
      operationId: 'listPayments',
      description: 'Your payments, newest first, filtered by status, paymentMethod, destinationCurrency, reference and a createdAt range (createdFrom inclusive, createdTo exclusive); filters combine with AND, several values of one filter match any. limit 1..100 (default 50); when more entries follow, the Link header holds the next page with your filters: follow it as given.',
      summary: "List the calling tenant's payments, newest first, with filters; the next page is in the Link header",
      tags: ['Payments'],
      auth: 'issuer',
      query: PaymentListQuerySchema,
      responses: {
        '200': { description: 'One page of payments, newest first (empty when nothing matches)', schema: z.array(PaymentResponse) },
        ...AUTH_ERRORS,
      },
      handler: async (req, res) => {
        const result = await app.listPayments(req.tenantId, toPaymentListQuery(req.query));
        if (!result.ok) return sendShapeA(res, result.code, listMessage(result), fieldsOf({ ...result, message: listMessage(result) }, req, PAGE_PARAMS));
        if (result.value.hasNextPage && result.value.endCursor) res.set('Link', nextPageLink(req.raw, req.query, result.value.endCursor));
        res.json(await withRefunds(app, req.tenantId, result.value.entries.map((e) => e.node)));
      },
    }),
    defineRoute<undefined, undefined, z.infer<typeof PaymentIdParams>>({
      method: 'get',
      path: '/v1/payments/{paymentId}',
      operationId: 'getPayment',
      description: "The current state of one of your payments. Another tenant's id answers 404, like an unknown one.",
      summary: 'Get a payment of the calling tenant',
      tags: ['Payments'],
      auth: 'issuer',
      params: PaymentIdParams,
      responses: {
        '200': { description: 'The payment', schema: PaymentResponse },
        ...AUTH_ERRORS,
        '404': { description: 'No such payment for this tenant (not_found)', schema: ErrorA },
      },
      handler: async (req, res: Response) => {
        const result = await app.getPayment(req.tenantId, req.params.paymentId);
        if (!result.ok) return sendShapeA(res, result.code, result.message, fieldsOf(result, req));
        // Looked up only for a failed or refunded payment (mayOweRefund): a payment polled while in flight costs no second query.
        res.json((await withRefunds(app, req.tenantId, [result.value]))[0]);
      },
    }),
  ];
}
