import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { components } from './generated/openapi';

/**
 * Checks of the two signatures every webhook request carries (docs/decisions.md § Webhooks), over
 * the raw body exactly as received (parse it only after a check passed). Both sign the attempt's
 * time, and a check refuses a time more than `toleranceSeconds` (5 minutes) from now in either
 * direction, so a captured request cannot be replayed later:
 * - `Service-Signature: t=<Unix seconds>,v1=<hex HMAC-SHA256(key = the secret string, message =
 *   "<t>.<raw body>")>`;
 * - Standard Webhooks (https://www.standardwebhooks.com/): `webhook-id`, `webhook-timestamp`
 *   (Unix seconds) and `webhook-signature: v1,<base64>`, signed by the `standardwebhooks` library.
 * The old `Service-Signature: sha256=<hex>` signs no time and is never accepted.
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

/** Thrown by {@link verifyWebhook} when no accepted signature holds; `message` says why each failed. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** Which signatures {@link verifyWebhook} accepts: either one (the default), or only one kind. */
export type SignatureScheme = 'either' | 'service-signature' | 'standard-webhooks';

/** How far a signed time may be from now, in seconds, either way, unless told otherwise: 5 minutes. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** The clock of a signature check. */
export interface WebhookTimeOptions {
  /**
   * How far the signed time may be from now, in whole seconds, in the past or the future
   * (default {@link DEFAULT_WEBHOOK_TOLERANCE_SECONDS}). A larger value lets a captured request be
   * replayed for longer. Throws a RangeError when negative or not finite.
   */
  readonly toleranceSeconds?: number;
  /** The current time in ms since the epoch (default Date.now); compared in whole seconds. */
  readonly now?: () => number;
}

/** What {@link verifyWebhook} accepts and when. */
export interface WebhookVerifyOptions extends WebhookTimeOptions {
  /** Which signatures to accept (default `either`). */
  readonly scheme?: SignatureScheme;
}

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

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Unix seconds as the headers carry them: digits only. */
const UNIX_SECONDS = /^\d{1,12}$/;

/** The tolerance of a check, in seconds; throws a RangeError for one that is negative or not finite, whatever the headers. */
function toleranceOf(options: WebhookTimeOptions): number {
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0) throw new RangeError(`toleranceSeconds must be a finite number >= 0, not ${tolerance}`);
  return tolerance;
}

/** Why the signed time `signed` (Unix seconds) is refused, or undefined when it is within `tolerance` seconds of now. */
function staleness(signed: number, tolerance: number, options: WebhookTimeOptions): string | undefined {
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  const age = now - signed;
  // Written so that a clock answering NaN refuses rather than accepts.
  if (Math.abs(age) <= tolerance) return undefined;
  return age > 0 ? `signed ${age} s ago, more than ${tolerance} s` : `signed ${-age} s in the future, more than ${tolerance} s`;
}

/** Why `Service-Signature` fails for this raw body, or undefined when it holds. */
function serviceSignatureProblem(secret: string, rawBody: string | Uint8Array, headers: WebhookHeaders, options: WebhookTimeOptions): string | undefined {
  const tolerance = toleranceOf(options);
  const given = header(headers, 'service-signature');
  if (given === undefined) return 'missing';
  if (given.startsWith('sha256=')) return 'the old sha256= form signs no time and is not accepted';
  let t: string | undefined;
  const signatures: string[] = [];
  for (const part of given.split(',')) {
    const eq = part.indexOf('=');
    const [key, value] = eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
    if (key === 't') {
      if (t !== undefined) return 'more than one t';
      t = value;
    } else if (key === 'v1') {
      signatures.push(value);
    }
    // Other keys (a later signature scheme) are skipped, as Stripe's layout allows.
  }
  if (t === undefined || !UNIX_SECONDS.test(t)) return 'no t=<Unix seconds>';
  if (signatures.length === 0) return 'no v1 signature';
  const expected = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex');
  if (!signatures.some((v1) => sameText(v1, expected))) return 'no v1 signature matches';
  return staleness(Number(t), tolerance, options);
}

/** Why the Standard Webhooks signature fails for this raw body, or undefined when it holds. */
function standardSignatureProblem(secret: string, rawBody: string | Uint8Array, headers: WebhookHeaders, options: WebhookTimeOptions): string | undefined {
  const tolerance = toleranceOf(options);
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signature = header(headers, 'webhook-signature');
  if (id === undefined || timestamp === undefined || signature === undefined) return 'missing webhook-id, webhook-timestamp or webhook-signature';
  if (!UNIX_SECONDS.test(timestamp)) return 'webhook-timestamp is not Unix seconds';
  let expected: string;
  try {
    // The library's own signer; the time is checked below, against this check's clock.
    expected = new Webhook(secret).sign(id, new Date(Number(timestamp) * 1000), text(rawBody));
  } catch {
    return 'the secret is not a whsec_ key';
  }
  // Several space-separated signatures may come (the sender rotating its secret); one must match.
  if (!signature.split(' ').some((candidate) => sameText(candidate, expected))) return 'no v1 signature matches';
  return staleness(Number(timestamp), tolerance, options);
}

/**
 * Whether `Service-Signature` holds for this raw body (compared in constant time) and its `t` is
 * within `toleranceSeconds` (5 minutes) of now; false when the header is missing, malformed or in
 * the old `sha256=` form.
 */
export function verifyServiceSignature(secret: string, rawBody: string | Uint8Array, headers: WebhookHeaders, options: WebhookTimeOptions = {}): boolean {
  return serviceSignatureProblem(secret, rawBody, headers, options) === undefined;
}

/** Whether the Standard Webhooks signature holds for this raw body and its timestamp is within `toleranceSeconds` (5 minutes) of now. */
export function verifyStandardWebhookSignature(secret: string, rawBody: string | Uint8Array, headers: WebhookHeaders, options: WebhookTimeOptions = {}): boolean {
  return standardSignatureProblem(secret, rawBody, headers, options) === undefined;
}

/**
 * Verifies a webhook request and returns its parsed event; throws {@link WebhookSignatureError}
 * when no signature of the scheme holds (each signature's reason in the message), e.g. when the
 * request was signed more than 5 minutes ago. `options` is the scheme alone (`either` by default)
 * or {@link WebhookVerifyOptions}. Drop the event if you have already handled its `webhook-id`:
 * delivery is at least once.
 */
export function verifyWebhook(
  secret: string, rawBody: string | Uint8Array, headers: WebhookHeaders, options: SignatureScheme | WebhookVerifyOptions = {},
): WebhookEvent {
  const { scheme = 'either', ...time } = typeof options === 'string' ? { scheme: options } : options;
  const problems: string[] = [];
  if (scheme !== 'standard-webhooks') {
    const problem = serviceSignatureProblem(secret, rawBody, headers, time);
    if (problem === undefined) return JSON.parse(text(rawBody)) as WebhookEvent;
    problems.push(`Service-Signature: ${problem}`);
  }
  if (scheme !== 'service-signature') {
    const problem = standardSignatureProblem(secret, rawBody, headers, time);
    if (problem === undefined) return JSON.parse(text(rawBody)) as WebhookEvent;
    problems.push(`webhook-signature: ${problem}`);
  }
  throw new WebhookSignatureError(`No valid webhook signature (${scheme}): ${problems.join('; ')}`);
}
