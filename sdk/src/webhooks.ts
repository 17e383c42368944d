import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { components } from './generated/openapi';

/**
 * Checks of the two signatures every webhook request carries (docs/decisions.md § Webhooks), over
 * the raw body exactly as received (parse it only after a check passed):
 * - `Service-Signature: sha256=<hex HMAC-SHA256(key = the secret string, message = raw body)>`;
 * - Standard Webhooks (https://www.standardwebhooks.com/): `webhook-id`, `webhook-timestamp`
 *   (Unix seconds) and `webhook-signature: v1,<base64>`, checked by the `standardwebhooks`
 *   library, which also refuses a timestamp more than 5 minutes from now.
 * `secret` is the `whsec_...` value `POST /v1/webhooks/register` answered once.
 */

/** A payment event's body: `data` is the payment as `GET /v1/payments/{paymentId}` returns it. */
export interface PaymentWebhookEvent {
  /** The event's UUID; `webhook-id` (stable across retries) is the one to drop duplicates by. */
  readonly id: string;
  readonly type: 'payment.processing' | 'payment.succeeded' | 'payment.failed' | 'payment.refunded';
  /** ISO 8601, UTC. */
  readonly timestamp: string;
  readonly data: components['schemas']['Payment'];
}

/** A customer's KYC decision: `data` is the customer as `GET /v1/customers/{customerId}` returns it. */
export interface CustomerWebhookEvent {
  readonly id: string;
  readonly type: 'customer.kyc.updated';
  /** ISO 8601, UTC. */
  readonly timestamp: string;
  readonly data: components['schemas']['Customer'];
}

/** Every event body the service sends. */
export type WebhookEvent = PaymentWebhookEvent | CustomerWebhookEvent;

/** Request headers as a fetch `Headers`, or a plain record such as Node's `req.headers` (names in any case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** Thrown by {@link verifyWebhook} when no accepted signature holds. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** Which signatures {@link verifyWebhook} accepts: either one (the default), or only one kind. */
export type SignatureScheme = 'either' | 'service-signature' | 'standard-webhooks';

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/** The request's `webhook-id`: the same on every retry of one delivery, so the key to drop duplicates by. */
export function webhookIdOf(headers: WebhookHeaders): string | undefined {
  return header(headers, 'webhook-id');
}

const text = (rawBody: string | Uint8Array): string => (typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8'));

/** Whether `Service-Signature` holds for this raw body (compared in constant time); false when the header is missing. */
export function verifyServiceSignature(secret: string, rawBody: string | Uint8Array, headers: WebhookHeaders): boolean {
  const given = header(headers, 'service-signature');
  if (given === undefined) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether the Standard Webhooks signature holds for this raw body and its timestamp is within 5 minutes of now. */
export function verifyStandardWebhookSignature(secret: string, rawBody: string | Uint8Array, headers: WebhookHeaders): boolean {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signature = header(headers, 'webhook-signature');
  if (id === undefined || timestamp === undefined || signature === undefined) return false;
  try {
    new Webhook(secret).verify(text(rawBody), { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature });
    return true;
  } catch {
    return false;
  }
}

/**
 * Verifies a webhook request and returns its parsed event; throws {@link WebhookSignatureError}
 * when no signature of `scheme` holds. Drop the event if you have already handled its `webhook-id`:
 * delivery is at least once.
 */
export function verifyWebhook(
  secret: string, rawBody: string | Uint8Array, headers: WebhookHeaders, scheme: SignatureScheme = 'either',
): WebhookEvent {
  const service = scheme !== 'standard-webhooks' && verifyServiceSignature(secret, rawBody, headers);
  const standard = !service && scheme !== 'service-signature' && verifyStandardWebhookSignature(secret, rawBody, headers);
  if (!service && !standard) throw new WebhookSignatureError(`No valid webhook signature (${scheme})`);
  return JSON.parse(text(rawBody)) as WebhookEvent;
}
