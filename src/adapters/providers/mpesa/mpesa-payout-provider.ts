import { z } from 'zod';
import type { Payment } from '../../../core/payments/payment';
import type { PayoutProvider, StatusOutcome, SubmitOutcome } from '../../../core/payments/payout-provider';
import { gatewayErrorSchema, MpesaClient, type DarajaAnswer, type MpesaClientOptions } from './mpesa-client';
import type { MpesaConfig } from './mpesa-config';
import { isB2c, originatorConversationIdOf, payoutRequestOf, STATUS_PATH, statusQueryOf, type RequestSettings } from './mpesa-requests';
import { mpesaSecurityCredential } from './mpesa-security-credential';

/** Daraja's synchronous acknowledgement: `{OriginatorConversationID, ConversationID, ResponseCode, ResponseDescription}`. */
const ackSchema = z.object({
  OriginatorConversationID: z.string().min(1),
  ConversationID: z.string().optional(),
  ResponseCode: z.union([z.string(), z.number()]).transform(String),
  ResponseDescription: z.string().optional(),
});

/**
 * Synchronous ResponseCodes that say the request was refused on validation, before any
 * processing (Account Balance page's error table: 24 missing mandatory fields, 25 invalid request
 * parameters, 29 invalid command, 100000005 invalid input value, 100000010 insufficient
 * permissions). Any other non-zero code, e.g. 100000000 "Request was cached, waiting for
 * resending", may still be processed, so it is `unknown`.
 */
const REFUSED_RESPONSE_CODES = new Set(['24', '25', '29', '100000005', '100000010']);
/** Gateway codes of a malformed request: 400.002.02 "Bad Request – Invalid X", 400.002.05 "Invalid Request Payload". */
const BAD_REQUEST = new Set(['400.002.02', '400.002.05']);
/** "Duplicate OriginatorConversationID." (B2C page): an earlier attempt of this payment reached Daraja. */
const DUPLICATE = '500.002.1001';
/** Spike arrest and quota violations (500.003.02, 500.003.03): Daraja's throttle. */
const THROTTLED = new Set(['500.003.02', '500.003.03']);

const RETRY_MS = 30_000;
const CONFIG_RETRY_MS = 5 * 60_000;
/** How soon to look at a queried payment again when its result has not come, in milliseconds. */
const STATUS_RECHECK_MS = 60_000;
/** How often a B2B payment with no known OriginatorConversationID is looked at (only its callback can settle it). */
const ORPHAN_RECHECK_MS = 10 * 60_000;

/**
 * Safaricom M-Pesa (Daraja) payouts in Kenya (docs/decisions.md § Payments: states and events): B2C
 * for MOMO to M-Pesa numbers, B2B for PAYBILL and TILL. Daraja answers asynchronously: `submit`
 * returns `accepted` on its acknowledgement and the result arrives on the payment's ResultURL
 * (parseMpesaCallback). `status` sends a Transaction Status query whose result also arrives as a
 * callback, so it returns `pending`; it never returns `not_found`, because Daraja has no
 * synchronous "no such transaction" answer. A B2C payment's OriginatorConversationID is its id;
 * a B2B payment's is Daraja's, known once accepted (its `providerRef`).
 */
export class MpesaPayoutProvider implements PayoutProvider {
  readonly name = 'mpesa';
  private readonly settings: RequestSettings;
  private readonly resultWaitMs: number;

  constructor(config: MpesaConfig, private readonly client: MpesaClient) {
    this.resultWaitMs = config.resultWaitMs ?? 60_000;
    // Daraja accepts one SecurityCredential across requests (B2C FAQ): computed once, at start.
    this.settings = { ...config, securityCredential: mpesaSecurityCredential(config.certificate, config.initiatorPassword) };
  }

  /** Builds the provider and its HTTP client from the config (throws for an unusable certificate). */
  static create(config: MpesaConfig, options: MpesaClientOptions = {}): MpesaPayoutProvider {
    return new MpesaPayoutProvider(config, new MpesaClient(config, options));
  }

  /**
   * Sends the payment's B2C or B2B request. `rejected` when M-Pesa cannot carry it or Daraja refuses
   * it on validation; `retry` when it certainly did not arrive; `unknown` when it may have (no
   * answer, 5xx, a duplicate OriginatorConversationID, an unexpected answer): ask `status`, never
   * resend. `accepted` carries the OriginatorConversationID.
   */
  async submit(payment: Payment): Promise<SubmitOutcome> {
    const request = payoutRequestOf(payment, this.settings);
    if (!request.ok) return { kind: 'rejected', reason: request.reason, code: 'unsupported_by_provider' };
    const answer = await this.client.post(request.path, request.body);
    const outcome = classifySubmit(answer, request.api, request.api === 'b2c' ? originatorConversationIdOf(payment) : undefined);
    // The result comes to the ResultURL; Transaction Status is only the fallback when it does not.
    return outcome.kind === 'accepted' ? { ...outcome, recheckAfterMs: this.resultWaitMs } : outcome;
  }

  /**
   * Queries Daraja's Transaction Status of the payment by its OriginatorConversationID; the answer
   * comes to the payment's `status` callback, so this returns `pending` (look again later).
   * A B2B payment whose submission was unknown has no OriginatorConversationID to ask about: only its
   * ResultURL callback, or an operator, can settle it; it is never reported `not_found`, which would
   * allow a second B2B transfer.
   */
  async status(payment: Payment): Promise<StatusOutcome> {
    const ocid = payment.providerRef ?? (isB2c(payment) ? originatorConversationIdOf(payment) : undefined);
    if (ocid === undefined) return { kind: 'pending', afterMs: ORPHAN_RECHECK_MS };
    await this.client.post(STATUS_PATH, statusQueryOf(payment, ocid, this.settings));
    // Whatever the query's fate, the payment's state is unknown until a result arrives.
    return { kind: 'pending', afterMs: STATUS_RECHECK_MS, ...(payment.providerRef ? { providerRef: payment.providerRef } : {}) };
  }

  /** Closes the HTTP connections. */
  async close(): Promise<void> {
    await this.client.close();
  }

  /** Aborts the Daraja calls in flight and sends no later one (MpesaClient.abort). */
  async abort(): Promise<void> {
    await this.client.abort();
  }
}

/**
 * Classifies Daraja's answer to a payment request (docs/decisions.md § Payments: states and events).
 * `expectedOcid` is ours for B2C; an acknowledgement naming another is not trusted as acceptance.
 */
function classifySubmit(answer: DarajaAnswer, api: 'b2c' | 'b2b', expectedOcid?: string): SubmitOutcome {
  if (answer.kind === 'not_sent') return { kind: 'retry', afterMs: RETRY_MS, reason: answer.reason };
  if (answer.kind === 'lost') return { kind: 'unknown', reason: answer.reason };
  const ack = ackSchema.safeParse(answer.body);
  if (answer.status === 200 && ack.success) {
    const { ResponseCode: code, OriginatorConversationID: ocid } = ack.data;
    if (code === '0') {
      if (expectedOcid !== undefined && ocid !== expectedOcid) return { kind: 'unknown', reason: 'Daraja acknowledged another OriginatorConversationID' };
      return { kind: 'accepted', providerRef: ocid };
    }
    if (REFUSED_RESPONSE_CODES.has(code)) return { kind: 'rejected', reason: `M-Pesa refused the request (ResponseCode ${code})`, code: 'declined' };
    return { kind: 'unknown', reason: `Daraja answered ResponseCode ${code}` };
  }
  const error = gatewayErrorSchema.safeParse(answer.body);
  const code = error.success ? error.data.errorCode : undefined;
  if (code !== undefined && BAD_REQUEST.has(code)) {
    return { kind: 'rejected', reason: `M-Pesa refused the request: ${(error.data?.errorMessage ?? code).slice(0, 120)}`, code: 'declined' };
  }
  if (code === DUPLICATE) return { kind: 'unknown', reason: 'Daraja already has this OriginatorConversationID: ask its status' };
  // A throttled B2C request is sent again with the same OriginatorConversationID, which Daraja
  // refuses as a duplicate if it had taken it after all; B2B has no such guard, so it is unknown.
  if (code !== undefined && THROTTLED.has(code)) {
    return api === 'b2c' ? { kind: 'retry', afterMs: RETRY_MS, reason: `Daraja throttled (${code})` } : { kind: 'unknown', reason: `Daraja throttled (${code})` };
  }
  // 404 and 405 (wrong path or method) are refused by the gateway before forwarding: our configuration.
  if (answer.status === 404 || answer.status === 405) {
    return { kind: 'retry', afterMs: CONFIG_RETRY_MS, reason: `Daraja HTTP ${answer.status}${code ? ` ${code}` : ''}: check MPESA_BASE_URL` };
  }
  return { kind: 'unknown', reason: `Daraja HTTP ${answer.status}${code ? ` ${code}` : ''}` };
}
