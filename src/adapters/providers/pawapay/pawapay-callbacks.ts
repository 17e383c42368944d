import { createHash, timingSafeEqual } from 'node:crypto';
import proxyaddr from 'proxy-addr';
import type { ProviderReport } from '../../../core/payments/provider-report';
import type { PawapayConfig } from './pawapay-config';
import { jsonOrUndefined, outcomeOfRecord, paymentIdOfPayout, payoutRecordSchema } from './pawapay-wire';

/** One callback request as the HTTP route received it. */
export interface PawapayCallbackRequest {
  readonly rawBody: Buffer;
  /** The sender's address as the route established it (after any trusted proxy hops). */
  readonly remoteAddress: string | undefined;
  /** The secret last segment of the callback path (`<origin>/callbacks/pawapay/<secret>`, set in the pawaPay Dashboard). */
  readonly pathSecret?: string;
}

/** Why a callback was refused; nothing in it may be applied. */
export type PawapayCallbackRefusal = 'bad_path_secret' | 'unknown_source' | 'unparseable';

/** A verified callback's report and the HTTP status to answer, or a refusal and its status. */
export type PawapayCallbackResult =
  | { readonly ok: true; readonly report: ProviderReport; readonly status: number }
  | { readonly ok: false; readonly refusal: PawapayCallbackRefusal; readonly message: string; readonly status: number };

/**
 * Verifies and reads a pawaPay payout callback (https://docs.pawapay.io/v2/api-reference/payouts/payout-callback;
 * docs/decisions.md § Payout providers: callbacks). pawaPay signs callbacks only when signed
 * callbacks are enabled on the account (RFC 9421, same page); this adapter does not rely on that:
 * a callback counts only when its path carries the per-deployment secret (constant-time compare)
 * and, when PAWAPAY_CALLBACK_ALLOWED_IPS is set, comes from an allowed address (pawaPay publishes
 * its callback addresses, https://docs.pawapay.io/using_the_api). The body is a payout record; its
 * `payoutId` encodes our payment id (`payoutIdOf`). The same body always gives the same report.
 * Checked in this order: unlisted address → 403 (the same answer whatever the secret), wrong secret
 * → 404, unreadable body or a payoutId that is not ours → 400. The route applies only a status
 * query on a verified callback: the callback never decides alone.
 */
export function parsePawapayCallback(
  request: PawapayCallbackRequest,
  config: Pick<PawapayConfig, 'callbackSecret' | 'callbackAllowedIps' | 'pollIntervalMs'>,
): PawapayCallbackResult {
  if (config.callbackAllowedIps.length > 0) {
    const trusted = proxyaddr.compile([...config.callbackAllowedIps]);
    if (!request.remoteAddress || !trusted(request.remoteAddress, 0)) {
      return refuse('unknown_source', 'callback source address is not allowed', 403);
    }
  }
  if (!sameSecret(request.pathSecret ?? '', config.callbackSecret)) return refuse('bad_path_secret', 'callback path secret does not match', 404);
  const parsed = payoutRecordSchema.safeParse(jsonOrUndefined(request.rawBody.toString('utf8')));
  if (!parsed.success) return refuse('unparseable', 'callback body is not JSON with a payoutId and a status', 400);
  const paymentId = paymentIdOfPayout(parsed.data.payoutId);
  if (!paymentId) return refuse('unparseable', 'callback payoutId is not one of ours', 400);
  const record = parsed.data;
  const report: ProviderReport = {
    provider: 'pawapay',
    paymentId,
    outcome: outcomeOfRecord(record, config.pollIntervalMs),
    providerEventId: `${record.payoutId}:${record.status}`,
  };
  return { ok: true, report, status: 200 };
}

function refuse(refusal: PawapayCallbackRefusal, message: string, status: number): PawapayCallbackResult {
  return { ok: false, refusal, message, status };
}

/** Constant-time comparison of digests, so neither content nor length leaks through timing. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected)) && given.length > 0;
}
