import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { ProviderReport } from '../../../core/payments/provider-report';
import { outcomeOfTransfer, PAYSTACK, paymentIdOf, paystackTransfer } from './paystack-transfers';

/** A webhook request as received: headers (lower-case names, as node gives them), the raw body bytes, the peer address. */
export interface PaystackCallbackRequest {
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly rawBody: Buffer;
  readonly remoteAddress: string | undefined;
}

/** What the webhook check needs: the secret key that signs and the allowed source addresses (empty: any). */
export interface PaystackCallbackSettings {
  readonly secretKey: string;
  readonly allowedIps: readonly string[];
}

/** The HTTP answer to give Paystack. */
export interface CallbackAck {
  readonly status: number;
  readonly body: string;
}

/**
 * The verdict on one webhook request.
 * - `ok: true`: signed by Paystack. `report` is what it says about one of our payouts, or null for
 *   an event that concerns none (another event type, or a transfer whose reference is not ours):
 *   acknowledge and ignore. `transfer` carries the amount (integer subunits) and currency as sent,
 *   for the caller to compare with the payment; they are never applied from here.
 * - `ok: false`: refused; nothing may change. `reason`: `unknown_source` (address outside the
 *   allow-list, 403), `bad_signature` (missing or wrong `x-paystack-signature`, 401),
 *   `unparseable` (signed but not a transfer event we can read, 400).
 */
export type PaystackCallbackResult =
  | {
    readonly ok: true;
    readonly report: ProviderReport | null;
    readonly transfer?: { readonly reference: string; readonly transferCode: string; readonly amount: number; readonly currency: string };
    readonly ack: CallbackAck;
  }
  | { readonly ok: false; readonly reason: 'unknown_source' | 'bad_signature' | 'unparseable'; readonly message: string; readonly ack: CallbackAck };

/** The transfer events and the status each must carry (https://paystack.com/docs/transfers/single-transfers/ "Transfer webhooks"). */
const TRANSFER_EVENTS: Readonly<Record<string, string>> = {
  'transfer.success': 'success',
  'transfer.failed': 'failed',
  'transfer.reversed': 'reversed',
};
const envelope = z.object({ event: z.string(), data: z.unknown() });
/** Paystack expects a 200 promptly, else it retries (https://paystack.com/docs/payments/webhooks/). */
const ACCEPTED: CallbackAck = { status: 200, body: 'OK' };

/**
 * Verifies and reads a Paystack webhook (https://paystack.com/docs/payments/webhooks/; docs/decisions.md
 * § Webhooks). Order: the source address against `allowedIps` (when set; Paystack documents three,
 * `PAYSTACK_DOCUMENTED_WEBHOOK_IPS`), then `x-paystack-signature`: the hex HMAC-SHA512 of the raw
 * body with the secret key, compared in constant time (Paystack's PHP sample hashes the raw input),
 * then the body. A transfer event's `data.status` must be the one its event name implies, or the
 * event is refused as unparseable. Pure apart from the HMAC; a duplicate gives the same result.
 */
export function parsePaystackCallback(request: PaystackCallbackRequest, settings: PaystackCallbackSettings): PaystackCallbackResult {
  const source = normaliseAddress(request.remoteAddress);
  if (settings.allowedIps.length > 0 && (source === undefined || !settings.allowedIps.includes(source))) {
    return refuse('unknown_source', `source address ${source ?? 'unknown'} is not an allowed Paystack address`, 403);
  }
  if (!signatureMatches(request, settings.secretKey)) return refuse('bad_signature', 'x-paystack-signature is missing or wrong', 401);

  let json: unknown;
  try {
    json = JSON.parse(request.rawBody.toString('utf8')) as unknown;
  } catch {
    return refuse('unparseable', 'body is not JSON', 400);
  }
  const event = envelope.safeParse(json);
  if (!event.success) return refuse('unparseable', 'body is not a Paystack event', 400);
  const expectedStatus = TRANSFER_EVENTS[event.data.event];
  if (expectedStatus === undefined) return { ok: true, report: null, ack: ACCEPTED };

  const transfer = paystackTransfer.safeParse(event.data.data);
  if (!transfer.success) return refuse('unparseable', `${event.data.event} without a readable transfer`, 400);
  const data = transfer.data;
  const paymentId = paymentIdOf(data.reference);
  if (!paymentId) return { ok: true, report: null, ack: ACCEPTED };
  if (data.status !== expectedStatus) {
    return refuse('unparseable', `${event.data.event} carries status "${data.status.slice(0, 40)}"`, 400);
  }
  return {
    ok: true,
    report: {
      provider: PAYSTACK,
      paymentId,
      outcome: outcomeOfTransfer(data),
      // Paystack events carry no event id; the transfer code and event name identify the message.
      providerEventId: `${data.transfer_code}:${event.data.event}`,
    },
    transfer: { reference: data.reference, transferCode: data.transfer_code, amount: data.amount, currency: data.currency },
    ack: ACCEPTED,
  };
}

function signatureMatches(request: PaystackCallbackRequest, secretKey: string): boolean {
  const header = request.headers['x-paystack-signature'];
  const given = Array.isArray(header) ? undefined : (header as string | undefined);
  if (given === undefined || !/^[0-9a-fA-F]{128}$/.test(given)) return false;
  const expected = createHmac('sha512', secretKey).update(request.rawBody).digest();
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}

/** `::ffff:1.2.3.4` (an IPv4 peer on a dual-stack socket) as `1.2.3.4`. */
function normaliseAddress(address: string | undefined): string | undefined {
  return address?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}

function refuse(reason: 'unknown_source' | 'bad_signature' | 'unparseable', message: string, status: number): PaystackCallbackResult {
  return { ok: false, reason, message, ack: { status, body: message } };
}
