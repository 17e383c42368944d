import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { ProviderReport } from '../../../core/payments/provider-report';
import { FLUTTERWAVE, flutterwaveTransfer, outcomeOfTransfer, paymentIdOf } from './flutterwave-transfers';

/** A webhook request as received: headers (lower-case names, as node gives them), the raw body bytes, the peer address. */
export interface FlutterwaveCallbackRequest {
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly rawBody: Buffer;
  readonly remoteAddress: string | undefined;
}

/** What the webhook check needs: the dashboard's secret hash and the allowed source addresses (empty: any). */
export interface FlutterwaveCallbackSettings {
  readonly secretHash: string;
  readonly allowedIps: readonly string[];
}

/** The HTTP answer to give Flutterwave. */
export interface CallbackAck {
  readonly status: number;
  readonly body: string;
}

/**
 * The verdict on one webhook request.
 * - `ok: true`: it carries our secret hash. `report` is what it says about one of our payouts, or
 *   null for an event that concerns none (another event, or a transfer whose reference is not
 *   ours): acknowledge and ignore. The hash is a shared static secret, not a signature of the
 *   body, so the caller confirms the report with a status query before anything moves.
 * - `ok: false`: refused; nothing may change. `reason`: `unknown_source` (address outside the
 *   allow-list, 403), `bad_signature` (missing or wrong `verif-hash`, 401), `unparseable` (not a
 *   transfer event we can read, 400).
 */
export type FlutterwaveCallbackResult =
  | { readonly ok: true; readonly report: ProviderReport | null; readonly ack: CallbackAck }
  | { readonly ok: false; readonly reason: 'unknown_source' | 'bad_signature' | 'unparseable'; readonly message: string; readonly ack: CallbackAck };

/** The transfer event: `transfer.completed`, "event.type" `Transfer` (https://developer.flutterwave.com/docs/webhooks, transfer samples). */
const TRANSFER_EVENT = 'transfer.completed';
const envelope = z.object({ event: z.string(), data: z.unknown() });
/** Flutterwave takes any 200 as delivered and retries otherwise (https://developer.flutterwave.com/docs/webhooks). */
const ACCEPTED: CallbackAck = { status: 200, body: 'OK' };

/**
 * Verifies and reads a Flutterwave webhook (https://developer.flutterwave.com/docs/webhooks;
 * docs/decisions.md § Webhooks). Order: the source address against `allowedIps` (when set), then
 * the `verif-hash` header, which must equal the secret hash set on the dashboard (compared in
 * constant time, as SHA-256 digests so lengths never leak), then the body: `transfer.completed`
 * with a readable transfer becomes a report (outcome from its status, `outcomeOfTransfer`;
 * providerEventId `<transfer id>:<status>`); other events are acknowledged and ignored. Pure apart
 * from hashing; a duplicate gives the same result.
 */
export function parseFlutterwaveCallback(request: FlutterwaveCallbackRequest, settings: FlutterwaveCallbackSettings): FlutterwaveCallbackResult {
  const source = normaliseAddress(request.remoteAddress);
  if (settings.allowedIps.length > 0 && (source === undefined || !settings.allowedIps.includes(source))) {
    return refuse('unknown_source', `source address ${source ?? 'unknown'} is not an allowed Flutterwave address`, 403);
  }
  if (!hashMatches(request, settings.secretHash)) return refuse('bad_signature', 'verif-hash is missing or wrong', 401);

  let json: unknown;
  try {
    json = JSON.parse(request.rawBody.toString('utf8')) as unknown;
  } catch {
    return refuse('unparseable', 'body is not JSON', 400);
  }
  const event = envelope.safeParse(json);
  if (!event.success) return refuse('unparseable', 'body is not a Flutterwave event', 400);
  if (event.data.event !== TRANSFER_EVENT) return { ok: true, report: null, ack: ACCEPTED };
  const transfer = flutterwaveTransfer.safeParse(event.data.data);
  if (!transfer.success) return refuse('unparseable', `${TRANSFER_EVENT} without a readable transfer`, 400);
  const paymentId = paymentIdOf(transfer.data.reference);
  if (!paymentId) return { ok: true, report: null, ack: ACCEPTED };
  return {
    ok: true,
    report: {
      provider: FLUTTERWAVE,
      paymentId,
      outcome: outcomeOfTransfer(transfer.data),
      // Webhooks carry no event id: the transfer id and its status identify the message.
      providerEventId: `${transfer.data.id}:${transfer.data.status.slice(0, 40)}`,
    },
    ack: ACCEPTED,
  };
}

function hashMatches(request: FlutterwaveCallbackRequest, secretHash: string): boolean {
  const header = request.headers['verif-hash'];
  if (typeof header !== 'string' || header === '') return false;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(header), digest(secretHash));
}

/** `::ffff:1.2.3.4` (an IPv4 peer on a dual-stack socket) as `1.2.3.4`. */
function normaliseAddress(address: string | undefined): string | undefined {
  return address?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}

function refuse(reason: 'unknown_source' | 'bad_signature' | 'unparseable', message: string, status: number): FlutterwaveCallbackResult {
  return { ok: false, reason, message, ack: { status, body: message } };
}
