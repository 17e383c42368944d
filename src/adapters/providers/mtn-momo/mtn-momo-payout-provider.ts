import type { Payment } from '../../../core/payments/payment';
import type { PayoutProvider, StatusOutcome, SubmitOutcome } from '../../../core/payments/payout-provider';
import type { MtnMomoAnswer, MtnMomoClient } from './mtn-momo-client';
import type { MtnMomoConfig } from './mtn-momo-config';
import { marketsServed, type MtnMomoMarket } from './mtn-momo-markets';
import { transferRequestOf } from './mtn-momo-transfer-request';
import { errorCodeOf, jsonOrUndefined, outcomeOfRecord, transferRecordSchema, transferReferenceOf, type MtnMomoTransferRecord } from './mtn-momo-wire';

/** Back-off after a request that never reached MTN (no connection, no token), in milliseconds. */
const NOT_SENT_RETRY_MS = 10_000;
/** Back-off after MTN refused our configuration (credentials, IP, environment, callback host), in milliseconds. */
const CONFIG_RETRY_MS = 60_000;
/**
 * 500 codes MTN documents for a refused transfer request that describe our setup, not the payment
 * (MoMo common errors): `NOT_ALLOWED` (blocked partner account), `NOT_ALLOWED_TARGET_ENVIRONMENT`,
 * `INVALID_CALLBACK_URL_HOST` (callback host differs from the API user's), `INVALID_CURRENCY`.
 */
const CONFIG_REFUSAL_CODES = new Set(['NOT_ALLOWED', 'NOT_ALLOWED_TARGET_ENVIRONMENT', 'INVALID_CALLBACK_URL_HOST', 'INVALID_CURRENCY']);

/** Whether MTN holds a transfer under a reference: `unsure` when it would not say. */
type Presence = 'present' | 'absent' | 'unsure';

/**
 * MTN MoMo Disbursements behind the payout port (docs/decisions.md § Payments: states and events).
 * Each payment is one transfer whose `X-Reference-Id` derives from the payment id, so a repeated
 * submission is the same transfer (MTN answers 409 RESOURCE_ALREADY_EXIST) and the status query
 * needs nothing stored. Submission outcomes:
 * - 202 → `accepted` (providerRef: the referenceId);
 * - 409 → `accepted` once `GET` shows the transfer (the earlier submission landed), else `unknown`;
 * - 400, another 4xx, or a 500 with a configuration code → refused: final only once `GET` answers
 *   404 for the reference (MTN does not say a refused request created nothing): then 400 →
 *   `rejected` (the request itself is invalid) and the others → `retry` (our setup, so another
 *   provider may carry it); a transfer found → `accepted`; no answer → `unknown`;
 * - any other answer (500 INTERNAL_PROCESSING_ERROR, 5xx, an unexpected 2xx), a timeout or a reset
 *   after sending → `unknown`; a request that never left (connection refused, no token) → `retry`.
 */
export class MtnMomoPayoutProvider implements PayoutProvider {
  readonly name = 'mtn_momo';
  /** The countries this deployment pays in (one per production target environment; all six in the sandbox). */
  readonly markets: readonly MtnMomoMarket[];

  constructor(private readonly config: MtnMomoConfig, private readonly client: MtnMomoClient) {
    this.markets = marketsServed(config.targetEnvironment);
  }

  async submit(payment: Payment): Promise<SubmitOutcome> {
    const request = transferRequestOf(payment, this.markets, this.config.sandboxCurrency);
    if (!request.ok) return { kind: 'rejected', reason: request.reason, code: 'unsupported_by_provider' };
    const referenceId = transferReferenceOf(payment.id);
    const callbackUrl = `${this.config.callbackBaseUrl}/${this.config.callbackSecret}`;
    const answer = await this.client.postTransfer(referenceId, request.body, callbackUrl);
    if (answer.kind === 'not_sent') return { kind: 'retry', afterMs: NOT_SENT_RETRY_MS, reason: `MTN MoMo not reached: ${answer.reason}` };
    if (answer.kind === 'lost') return { kind: 'unknown', reason: `MTN MoMo transfer request interrupted: ${answer.reason}` };
    const accepted: SubmitOutcome = { kind: 'accepted', providerRef: referenceId };
    if (answer.status === 202) return accepted;
    const code = errorCodeOf(answer.body);
    const what = `HTTP ${answer.status}${code ? ` ${code}` : ''}`;
    const refused = answer.status >= 400 && answer.status < 500 && answer.status !== 409;
    if (answer.status !== 409 && !refused && !(answer.status === 500 && code && CONFIG_REFUSAL_CODES.has(code))) {
      return { kind: 'unknown', reason: `MTN MoMo answered the transfer request with ${what}` };
    }
    const presence = await this.presenceOf(referenceId);
    if (presence === 'present') return accepted;
    if (presence === 'unsure' || answer.status === 409) {
      return { kind: 'unknown', reason: `MTN MoMo answered ${what} and the transfer's status is not available` };
    }
    if (answer.status === 400) return { kind: 'rejected', reason: `MTN MoMo refused the transfer request (${what})`, code: 'declined' };
    return { kind: 'retry', afterMs: CONFIG_RETRY_MS, reason: `MTN MoMo refused our request (${what}): check the MTN_MOMO_* configuration` };
  }

  async status(payment: Payment): Promise<StatusOutcome> {
    const referenceId = transferReferenceOf(payment.id);
    const record = await this.reconcile(payment);
    return record ? outcomeOfRecord(record, referenceId, this.config.pollIntervalMs) : { kind: 'not_found' };
  }

  /**
   * Reconciliation read: MTN's record of this payment's transfer (`GET
   * /disbursement/v1_0/transfer/{referenceId}`), with its `amount` (decimal string), `currency`,
   * `status` and `reason`, or `null` when MTN answers 404 (it has no transfer under the reference).
   * MTN has no list API for transfers, so reconciliation goes payment by payment (status queries
   * are capped at 10 per second, MoMo Best practices). Throws when MTN gives no usable answer, or
   * when the record names another payment as its externalId.
   */
  async reconcile(payment: Payment): Promise<MtnMomoTransferRecord | null> {
    const answer = await this.client.getTransfer(transferReferenceOf(payment.id));
    if (answer.kind === 'answered' && answer.status === 404) return null;
    const record = recordOf(answer);
    if (record.externalId !== undefined && record.externalId !== payment.id) {
      throw new Error(`MTN MoMo transfer for ${payment.id} reports externalId of another payment`);
    }
    return record;
  }

  private async presenceOf(referenceId: string): Promise<Presence> {
    const answer = await this.client.getTransfer(referenceId);
    if (answer.kind !== 'answered') return 'unsure';
    if (answer.status === 404) return 'absent';
    return answer.status === 200 ? 'present' : 'unsure';
  }
}

/** The transfer record of a 200 answer; throws (an infrastructure fault: the worker asks again later) otherwise. */
function recordOf(answer: MtnMomoAnswer): MtnMomoTransferRecord {
  if (answer.kind !== 'answered') throw new Error(`MTN MoMo status query failed: ${answer.reason}`);
  if (answer.status !== 200) throw new Error(`MTN MoMo status query answered HTTP ${answer.status}${codeSuffix(answer.body)}`);
  const parsed = transferRecordSchema.safeParse(jsonOrUndefined(answer.body));
  if (!parsed.success) throw new Error('MTN MoMo status answer is not JSON with a status');
  return parsed.data;
}

function codeSuffix(body: string): string {
  const code = errorCodeOf(body);
  return code ? ` ${code}` : '';
}
