/**
 * @payout-gateway/sdk: a thin TypeScript client of the payout gateway's REST API (docs/api.md),
 * on openapi-fetch with types generated from the service's OpenAPI document. README "Using the
 * SDK" walks through a payout with it.
 */
export {
  createPayoutClient, FINAL_PAYMENT_STATUSES,
  type ListInit, type ListItem, type ListPath, type MoneyOutRequest, type MoneyOutResult, type Payment,
  type PaymentStatus, type PayoutClient, type PayoutClientOptions, type Refund, type WatchOptions,
} from './client';
export {
  ApiError, errorShapeOf, FxError, LegacyPayoutError, NoAnswerError, PayoutGatewayError, ResolutionError, toPayoutGatewayError,
  UnexpectedResponseError, unwrap,
  type AnyPayoutGatewayError, type ApiErrorCode, type ErrorShape, type FxErrorCode, type ResolutionErrorCode,
} from './errors';
export { nextPageUrl, parseLinkHeader, queryOf, type WebLink } from './pagination';
export { backoffMs, isRetryable, retryAfterMs, withRetries, type RetryEffects, type RetryPolicy } from './retry';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS, verifyServiceSignature, verifyStandardWebhookSignature, verifyWebhook, webhookIdOf, WebhookSignatureError,
  type CustomerWebhookEvent, type PaymentWebhookEvent, type SignatureScheme, type WebhookEvent, type WebhookHeaders,
  type WebhookTimeOptions, type WebhookVerifyOptions,
} from './webhooks';
/** Every REST operation's types, as generated from the OpenAPI document. */
export type { components, operations, paths } from './generated/openapi';
