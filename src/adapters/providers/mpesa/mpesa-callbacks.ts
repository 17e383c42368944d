import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { ProviderReport } from '../../../core/payments/provider-report';
import type { MpesaConfig } from './mpesa-config';
import {
  API_RESULT_FAILURES, darajaResultSchema, isDocumentedFailure, resultParameter, RESULT_DESCRIPTIONS, RESULT_DUPLICATE_DETECTED,
  RESULT_SUCCESS, STATUS_COMPLETED, STATUS_FAILED, STATUS_IN_PROGRESS, type DarajaResult,
} from './mpesa-result';

/**
 * The callbacks we give Daraja, one URL per payment and kind (docs/decisions.md § Webhooks):
 * `result` (ResultURL of a payment), `timeout` (its QueueTimeOutURL), `status` and `status-timeout`
 * (the same two of a Transaction Status query). The payment id is in the path because a B2B
 * request carries no id of ours: Daraja assigns its OriginatorConversationID.
 */
export const MPESA_CALLBACK_KINDS = ['result', 'timeout', 'status', 'status-timeout'] as const;
export type MpesaCallbackKind = (typeof MPESA_CALLBACK_KINDS)[number];

/** How soon to look again after a callback that settles nothing, in milliseconds. */
const RECHECK_MS = 60_000;
const PAYMENT_ID = /^pay_[0-9A-Z]{26}$/;
const OUR_REFERENCE = /^pay_/;

/**
 * The URL Daraja is given for one payment's callback of `kind`:
 * `{MPESA_CALLBACK_BASE_URL}/{MPESA_CALLBACK_PATH_SECRET}/{kind}/{paymentId}`. The route serving it
 * passes the three path segments to parseMpesaCallback.
 */
export function mpesaCallbackUrl(
  config: Pick<MpesaConfig, 'callbackBaseUrl' | 'callbackPathSecret'>,
  kind: MpesaCallbackKind,
  paymentId: string,
): string {
  return `${config.callbackBaseUrl}/${config.callbackPathSecret}/${kind}/${paymentId}`;
}

/** A callback request as the route received it; `pathSecret`, `kind` and `paymentId` are its path segments. */
export interface MpesaCallbackInput {
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: Buffer;
  /** The client address (after the TRUST_PROXY rules). */
  readonly remoteAddress: string;
  readonly pathSecret?: string;
  readonly kind: string;
  readonly paymentId: string;
}

/** The HTTP answer to give Daraja. Daraja documents none; 200 with this JSON is the common practice. */
export interface MpesaAck {
  readonly status: number;
  readonly body: { readonly ResultCode: number; readonly ResultDesc: string };
}

/** What a verified result said, beyond the report: for the provider-events table and reconciliation. */
export interface MpesaObserved {
  readonly resultCode?: string;
  readonly originatorConversationId?: string;
  readonly conversationId?: string;
  /** The M-Pesa receipt (TransactionReceipt, ReceiptNo or TransactionID of a success). */
  readonly receipt?: string;
  /** The amount Daraja reports, a decimal string in KES, never trusted over our own. */
  readonly amount?: string;
}

/** parseMpesaCallback's answer: a report to apply, or a refusal that applies nothing. */
export type MpesaCallbackParse =
  | { readonly ok: true; readonly report: ProviderReport; readonly ack: MpesaAck; readonly observed: MpesaObserved }
  | { readonly ok: false; readonly refusal: 'bad_secret' | 'unknown_source' | 'unparseable'; readonly reason: string; readonly ack: MpesaAck };

const ACCEPTED: MpesaAck = { status: 200, body: { ResultCode: 0, ResultDesc: 'Accepted' } };

/**
 * Verifies and reads one Daraja callback (docs/decisions.md § Webhooks). Daraja signs nothing, so
 * the caller is trusted by the path secret (compared in constant time) and, when an allow-list is
 * configured, by its source address. Codes map strictly (see mpesa-result.ts); a result about
 * another payment than the path's is refused. Refusals: `bad_secret` (404), `unknown_source` (403),
 * `unparseable` (400: bad kind, payment id or body). Pure apart from hashing; never logs.
 */
export function parseMpesaCallback(
  input: MpesaCallbackInput,
  settings: Pick<MpesaConfig, 'callbackPathSecret' | 'callbackAllowList'>,
): MpesaCallbackParse {
  if (!sameSecret(input.pathSecret ?? '', settings.callbackPathSecret)) return refuse('bad_secret', 404, 'wrong path secret');
  if (settings.callbackAllowList && !settings.callbackAllowList(input.remoteAddress)) {
    return refuse('unknown_source', 403, 'source address not in MPESA_CALLBACK_ALLOWED_IPS');
  }
  const kind = MPESA_CALLBACK_KINDS.find((k) => k === input.kind);
  if (!kind || !PAYMENT_ID.test(input.paymentId)) return refuse('unparseable', 400, 'unknown callback path');
  const report = (outcome: ProviderReport['outcome'], providerEventId?: string): ProviderReport => ({
    provider: 'mpesa', paymentId: input.paymentId, outcome, ...(providerEventId ? { providerEventId } : {}),
  });
  // Daraja documents no QueueTimeOutURL body: whatever it is, the request is unsettled; ask status now.
  if (kind === 'timeout' || kind === 'status-timeout') {
    return { ok: true, report: report({ kind: 'pending', afterMs: 0 }), ack: ACCEPTED, observed: {} };
  }
  let json: unknown;
  try {
    json = JSON.parse(input.rawBody.toString('utf8'));
  } catch {
    return refuse('unparseable', 400, 'body is not JSON');
  }
  const parsed = darajaResultSchema.safeParse(json);
  if (!parsed.success) return refuse('unparseable', 400, 'body is not a Daraja result');
  const result = parsed.data.Result;
  const subject = kind === 'result' ? result.OriginatorConversationID : resultParameter(result, 'OriginatorConversationID');
  if (subject !== undefined && OUR_REFERENCE.test(subject) && subject !== input.paymentId) {
    return refuse('unparseable', 400, 'result is about another payment');
  }
  const read = kind === 'result' ? readPaymentResult(result) : readStatusResult(result);
  return { ok: true, report: report(read.outcome, result.ConversationID), ack: ACCEPTED, observed: read.observed };
}

type Read = { outcome: ProviderReport['outcome']; observed: MpesaObserved };

/**
 * A B2C or B2B result: 0 succeeded; 15 (duplicate request) and ResultType 1 (more to come)
 * pending; a documented failure code (B2C table, ApiResult table) failed. Daraja says "any other
 * code means failure", yet 15 shows a non-zero result need not be about the payment: a code it
 * documents nowhere is not mapped: pending with the code as an unknown status (a finding for
 * operators), and Transaction Status is asked at once, whose answer decides.
 */
function readPaymentResult(result: DarajaResult): Read {
  const code = result.ResultCode;
  const receipt = code === RESULT_SUCCESS
    ? resultParameter(result, 'TransactionReceipt') ?? result.TransactionID
    : undefined;
  const observed = {
    ...ids(result), receipt, amount: resultParameter(result, 'TransactionAmount') ?? resultParameter(result, 'Amount'),
  };
  if (result.ResultType === '1' || code === RESULT_DUPLICATE_DETECTED) return { outcome: { kind: 'pending', afterMs: RECHECK_MS }, observed };
  if (code === RESULT_SUCCESS) return { outcome: { kind: 'succeeded', ...(receipt ? { providerRef: receipt } : {}) }, observed };
  if (isDocumentedFailure(code)) return { outcome: { kind: 'failed', reason: `M-Pesa result ${code}: ${describe(code, result.ResultDesc)}` }, observed };
  return { outcome: { kind: 'pending', afterMs: 0, unknownStatus: `ResultCode ${code}` }, observed };
}

/**
 * A Transaction Status result: the query's ResultCode, then the transaction's TransactionStatus.
 * A query Daraja could not answer with a code it documents (SFC_IC0003, an initiator failure)
 * concludes nothing: pending. An undocumented code, or a TransactionStatus word the FAQ does not
 * list, is pending with it as an unknown status (a finding for operators).
 */
function readStatusResult(result: DarajaResult): Read {
  const word = (resultParameter(result, 'TransactionStatus') ?? '').trim();
  const status = word.toLowerCase();
  const receipt = resultParameter(result, 'ReceiptNo');
  const observed = { ...ids(result), receipt, amount: resultParameter(result, 'Amount') };
  const code = result.ResultCode;
  if (code !== RESULT_SUCCESS) {
    const outcome: ProviderReport['outcome'] = isDocumentedFailure(code) || code === RESULT_DUPLICATE_DETECTED
      ? { kind: 'pending', afterMs: RECHECK_MS }
      : { kind: 'pending', afterMs: RECHECK_MS, unknownStatus: `ResultCode ${code}` };
    return { outcome, observed };
  }
  if (status === STATUS_COMPLETED) return { outcome: { kind: 'succeeded', ...(receipt ? { providerRef: receipt } : {}) }, observed };
  if (STATUS_FAILED.has(status)) return { outcome: { kind: 'failed', reason: `M-Pesa transaction ${status}` }, observed };
  if (STATUS_IN_PROGRESS.has(status)) return { outcome: { kind: 'pending', afterMs: RECHECK_MS }, observed };
  return { outcome: { kind: 'pending', afterMs: RECHECK_MS, unknownStatus: `TransactionStatus ${word || '(none)'}` }, observed };
}

function ids(result: DarajaResult): MpesaObserved {
  return { resultCode: result.ResultCode, originatorConversationId: result.OriginatorConversationID, conversationId: result.ConversationID };
}

function describe(code: string, desc: string | undefined): string {
  return RESULT_DESCRIPTIONS[code] ?? API_RESULT_FAILURES[code] ?? (desc ?? 'no description').slice(0, 200);
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function refuse(refusal: 'bad_secret' | 'unknown_source' | 'unparseable', status: number, reason: string): MpesaCallbackParse {
  return { ok: false, refusal, reason, ack: { status, body: { ResultCode: 1, ResultDesc: 'Rejected' } } };
}
