import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { smileIdSignatureMatches } from './smile-id-signature';

/** A callback as received: the path secret, the raw body bytes. */
export interface SmileIdCallbackRequest {
  readonly pathSecret: string | undefined;
  readonly rawBody: Buffer;
}

/**
 * The verdict on one callback.
 * - `ok: true`: on our secret path and signed with our API key: `customerId` and `jobRef` say which
 *   job finished. Nothing in the body is believed beyond that: the job's status is asked again.
 * - `ok: false`: refused; nothing may change. `bad_path` (wrong path secret, 404), `bad_signature`
 *   (missing or wrong `signature` for its `timestamp`, 401), `unparseable` (400).
 */
export type SmileIdCallbackResult =
  | { readonly ok: true; readonly customerId: string; readonly jobRef: string; readonly status: 200 }
  | { readonly ok: false; readonly reason: 'bad_path' | 'bad_signature' | 'unparseable'; readonly message: string; readonly status: number };

const callbackBody = z.object({
  timestamp: z.string(),
  signature: z.string(),
  PartnerParams: z.object({ user_id: z.string().regex(/^cus_[0-9A-Z]{26}$/), job_id: z.string().max(100) }).loose(),
}).loose();

/**
 * Verifies and reads a Smile ID job callback (https://docs.usesmileid.com/further-reading/faqs/how-do-i-setup-a-callback;
 * the body is the Enhanced KYC result with `signature` and `timestamp`,
 * https://docs.usesmileid.com/products/for-individuals-kyc/identity-lookup). Order: the path secret
 * (constant time), then the signature Smile ID documents for callbacks ("Confirming an incoming
 * signature": the request signature over the callback's `timestamp`). That signature does not
 * cover the body, so a valid one only says the sender knows a signature of ours: the callback is a
 * wake-up, never a decision. Pure apart from the HMAC.
 */
export function parseSmileIdCallback(request: SmileIdCallbackRequest, settings: { readonly apiKey: string; readonly partnerId: string; readonly callbackSecret: string }): SmileIdCallbackResult {
  if (!secretMatches(request.pathSecret, settings.callbackSecret)) return { ok: false, reason: 'bad_path', message: 'not found', status: 404 };
  let json: unknown;
  try {
    json = JSON.parse(request.rawBody.toString('utf8')) as unknown;
  } catch {
    return { ok: false, reason: 'unparseable', message: 'body is not JSON', status: 400 };
  }
  const record = json as { timestamp?: unknown; signature?: unknown } | null;
  if (!smileIdSignatureMatches(settings.apiKey, settings.partnerId, record?.timestamp, record?.signature)) {
    return { ok: false, reason: 'bad_signature', message: 'signature is missing or wrong', status: 401 };
  }
  const body = callbackBody.safeParse(json);
  if (!body.success) return { ok: false, reason: 'unparseable', message: 'body names no customer job of ours', status: 400 };
  return { ok: true, customerId: body.data.PartnerParams.user_id, jobRef: body.data.PartnerParams.job_id, status: 200 };
}

function secretMatches(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
