import { createHash, timingSafeEqual } from 'node:crypto';
import proxyaddr from 'proxy-addr';
import type { ProviderReport } from '../../../core/payments/provider-report';
import type { MtnMomoConfig } from './mtn-momo-config';
import { jsonOrUndefined, outcomeOfRecord, transferRecordSchema, transferReferenceOf } from './mtn-momo-wire';

/** One callback request as the HTTP route received it (PUT or POST: MTN says to allow both). */
export interface MtnMomoCallbackRequest {
  readonly headers: Record<string, string | string[] | undefined>;
  readonly rawBody: Buffer;
  /** The sender's address as the route established it (after any trusted proxy hops). */
  readonly remoteAddress: string | undefined;
  /** The secret segment of the callback path (`X-Callback-Url` is `<MTN_MOMO_CALLBACK_BASE_URL>/<secret>`). */
  readonly pathSecret?: string;
}

/** Why a callback was refused; nothing in it may be applied. */
export type MtnMomoCallbackRefusal = 'bad_path_secret' | 'unknown_source' | 'unparseable';

/** The HTTP answer to give the sender. */
export interface CallbackAck {
  readonly status: number;
  readonly body: string;
}

/** A verified callback's report and its answer, or a refusal and its answer. */
export type MtnMomoCallbackResult =
  | { readonly ok: true; readonly report: ProviderReport; readonly ack: CallbackAck }
  | { readonly ok: false; readonly refusal: MtnMomoCallbackRefusal; readonly message: string; readonly ack: CallbackAck };

const PAYMENT_ID = /^pay_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * Verifies and reads an MTN MoMo transfer callback (docs/decisions.md § Webhooks). MTN does not sign
 * callbacks, so a callback counts only when its path carries the per-deployment secret (compared in
 * constant time) and, when MTN_MOMO_CALLBACK_ALLOWED_IPS is set, comes from an allowed address.
 * The body is the status answer's shape (MoMo callback page) with no referenceId: the payment is the
 * `externalId` we sent, and the outcome maps strictly as for a status query (SUCCESSFUL, FAILED with
 * a reason, anything else pending). The same body always gives the same report, so a duplicate
 * changes nothing a second time once the core applies it. MTN's wait for an answer may be as short
 * as 2 s (older MoMo callback page), so the route answers `ack` at once; since the callback is
 * unsigned, confirming a final outcome with `status()` before applying it is the safer use.
 * Checked in this order (docs/decisions.md § Payout providers: callbacks): unlisted address → 403
 * (the same answer whatever the secret, so guesses cannot be tested from elsewhere), wrong secret →
 * 404 (the route does not reveal itself), unreadable body → 400.
 */
export function parseMtnMomoCallback(
  request: MtnMomoCallbackRequest,
  config: Pick<MtnMomoConfig, 'callbackSecret' | 'callbackAllowedIps' | 'pollIntervalMs'>,
): MtnMomoCallbackResult {
  // The address before the secret: a caller from elsewhere gets one answer, right secret or not.
  if (config.callbackAllowedIps.length > 0) {
    const trusted = proxyaddr.compile([...config.callbackAllowedIps]);
    if (!request.remoteAddress || !trusted(request.remoteAddress, 0)) {
      return refuse('unknown_source', 'callback source address is not allowed', 403);
    }
  }
  if (!sameSecret(request.pathSecret ?? '', config.callbackSecret)) {
    return refuse('bad_path_secret', 'callback path secret does not match', 404);
  }
  const parsed = transferRecordSchema.safeParse(jsonOrUndefined(request.rawBody.toString('utf8')));
  if (!parsed.success) return refuse('unparseable', 'callback body is not JSON with a transfer status', 400);
  const record = parsed.data;
  if (!record.externalId || !PAYMENT_ID.test(record.externalId)) {
    return refuse('unparseable', 'callback externalId is not a payment id', 400);
  }
  const referenceId = transferReferenceOf(record.externalId);
  const report: ProviderReport = {
    provider: 'mtn_momo',
    paymentId: record.externalId,
    outcome: outcomeOfRecord(record, referenceId, config.pollIntervalMs),
    providerEventId: record.financialTransactionId ?? `${referenceId}:${record.status}`,
  };
  return { ok: true, report, ack: { status: 200, body: '' } };
}

function refuse(refusal: MtnMomoCallbackRefusal, message: string, status: number): MtnMomoCallbackResult {
  return { ok: false, refusal, message, ack: { status, body: '' } };
}

/** Constant-time comparison of digests, so neither content nor length leaks through timing. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected)) && given.length > 0;
}
