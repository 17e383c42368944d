import type { Response } from 'express';
import { z } from 'zod';
import type { Application } from '../../core/application';
import { LEGACY_ERRORS, LegacyPayoutBody } from '../contract/legacy-payout.contract';
import { AUTH_ERRORS, ErrorB } from './common.schema';
import { fieldsOf, retryDetails, sendShapeA, sendShapeB, setRetryAfter } from './http-errors';
import { IdempotentReplayedHeader, RetryAfterHeader } from './openapi-headers';
import { defineRoute, type RouteSpec } from './route';

/** Answer of the legacy payout (OpenAPI legacyPayout). */
const LegacyPayoutResult = z
  .object({
    success: z.boolean().meta({ description: 'Always true on a 2xx answer', example: true }),
    transactionId: z.string().meta({ description: 'The payment id: follow it with GET /v1/payments/{paymentId}', example: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }),
  })
  .meta({ id: 'LegacyPayoutResult', example: { success: true, transactionId: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' } });

/** Route of the legacy payout (OpenAPI legacyPayout). */
export function legacyPayoutRoutes(app: Application): RouteSpec<any, any, any>[] {
  return [
    defineRoute<z.infer<typeof LegacyPayoutBody>>({
      method: 'post', path: '/momo/payout', operationId: 'legacyPayout',
      description: "The older payout interface, kept for existing integrations: it creates a payment like createMoneyOut (same states, events and hold), funded by your tenant's payout settings. Its reference plays the idempotency key: the same body again is a replay, another body under the same reference is 409. Refusals use error shape B.", tags: ['Payments'], auth: 'issuer',
      summary: 'Legacy payout: creates a payment (see GET /v1/payments/{id}) funded with the tenant\'s payout settings',
      body: LegacyPayoutBody,
      responses: {
        '200': { description: 'Accepted; transactionId is the payment id', schema: LegacyPayoutResult, headers: { 'Idempotent-Replayed': IdempotentReplayedHeader } },
        ...AUTH_ERRORS,
        '409': { description: 'The reference was used with another body (shape B)', schema: ErrorB },
        '422': { description: 'Payout refused (shape B), e.g. corridor_not_available: no payout provider is configured for this corridor here (permanent)', schema: ErrorB },
        '503': {
          description: "provider_unavailable (shape B): the corridor's payout providers all refuse calls for now (then with Retry-After and details.retryAfterS); rate_unavailable (shape B): no trustworthy live exchange rate for the pair now (with Retry-After and details.retryAfterS); screening_unavailable (shape B): a live tenant's payout while no sanctions list is loaded (with Retry-After and details.retryAfterS); nothing is written",
          schema: ErrorB, headers: { 'Retry-After': RetryAfterHeader },
        },
      },
      handler: async (req, res: Response) => {
        const result = await app.createLegacyPayout(req.tenantId, req.body);
        if (!result.ok) {
          if (result.code === 'validation_error') return sendShapeA(res, 'validation_error', result.message, fieldsOf(result, req));
          setRetryAfter(res, result);
          return sendShapeB(res, LEGACY_ERRORS[result.code], result.message, retryDetails(result));
        }
        if (result.value.replayed) res.set('Idempotent-Replayed', 'true');
        res.json({ success: true, transactionId: result.value.transactionId });
      },
    }),
  ];
}
