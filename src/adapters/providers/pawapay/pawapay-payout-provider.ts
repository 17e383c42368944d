import type { Payment } from '../../../core/payments/payment';
import type { PayoutProvider, StatusOutcome, SubmitOutcome } from '../../../core/payments/payout-provider';
import { providerWord } from '../../../core/payments/payout-provider';
import type { PawapayAnswer, PawapayClient } from './pawapay-client';
import type { PawapayConfig } from './pawapay-config';
import { rejectionMeaning } from './pawapay-failure-codes';
import { payoutRequestOf } from './pawapay-payout-request';
import { initiationAnswerSchema, jsonOrUndefined, outcomeOfRecord, payoutIdOf, statusAnswerSchema, type PawapayPayoutRecord } from './pawapay-wire';

/** Back-off after a request that never reached pawaPay (no connection), in milliseconds. */
const NOT_SENT_RETRY_MS = 10_000;
/** Back-off after pawaPay refused our setup (token, account, provider closed, wallet empty), in milliseconds. */
const SETUP_RETRY_MS = 60_000;
/**
 * Codes pawaPay answers with HTTP 401 or 403 before it reads the payout (failure codes page,
 * "Technical failures": no token, an invalid or unauthorised token, a signature it cannot verify,
 * payouts not enabled): nothing can have been created, and a status query would be refused alike.
 */
const REFUSED_BEFORE_PROCESSING = new Set(['NO_AUTHENTICATION', 'AUTHENTICATION_ERROR', 'AUTHORISATION_ERROR', 'HTTP_SIGNATURE_ERROR', 'PAYOUTS_NOT_ALLOWED']);

/**
 * pawaPay payouts (Merchant API v2) behind the payout port (docs/decisions.md § Payments: states and
 * events; docs/providers.md § pawaPay). Each payment is one payout whose `payoutId` derives from the
 * payment id, so a repeated submission is the same payout (pawaPay answers DUPLICATE_IGNORED) and the
 * status query needs nothing stored. Submission answers (initiate payout page):
 * - ACCEPTED → `accepted` (providerRef: the payoutId);
 * - DUPLICATE_IGNORED → `accepted`: an earlier submission of this payout landed; its status decides;
 * - HTTP 401 or 403 REJECTED with an authentication code (REFUSED_BEFORE_PROCESSING) → `retry`: our
 *   token or account; another provider may carry it;
 * - REJECTED (HTTP 200, 400, 401 or 403 with a failureReason) → final only once the status query
 *   answers NOT_FOUND (so a rejection can never hide a payout that exists): then a setup code
 *   (token, account, provider closed, our wallet empty) → `retry` (another provider may carry it),
 *   any other → `rejected` with its mapped code; a payout found → `accepted`; no answer → `unknown`;
 * - 5xx (UNKNOWN_ERROR: "do not assume failure"), an unreadable answer, a timeout or a reset after
 *   sending → `unknown`; a request that never left → `retry`.
 */
export class PawapayPayoutProvider implements PayoutProvider {
  readonly name = 'pawapay';

  constructor(private readonly config: Pick<PawapayConfig, 'pollIntervalMs'>, private readonly client: PawapayClient) {}

  async submit(payment: Payment): Promise<SubmitOutcome> {
    const request = payoutRequestOf(payment);
    if (!request.ok) return { kind: 'rejected', reason: request.reason, code: 'unsupported_by_provider' };
    const payoutId = request.body.payoutId;
    const answer = await this.client.postPayout(request.body);
    if (answer.kind === 'not_sent') return { kind: 'retry', afterMs: NOT_SENT_RETRY_MS, reason: `pawaPay not reached: ${answer.reason}` };
    if (answer.kind === 'lost') return { kind: 'unknown', reason: `pawaPay payout request interrupted: ${answer.reason}` };
    const parsed = initiationAnswerSchema.safeParse(jsonOrUndefined(answer.body));
    const status = parsed.success ? parsed.data.status : undefined;
    const accepted: SubmitOutcome = { kind: 'accepted', providerRef: payoutId };
    if (answer.status === 200 && (status === 'ACCEPTED' || status === 'DUPLICATE_IGNORED')) return accepted;
    const rejected = status === 'REJECTED' && [200, 400, 401, 403].includes(answer.status);
    if (!rejected) {
      return { kind: 'unknown', reason: `pawaPay answered the payout request with HTTP ${answer.status}${status ? ` ${providerWord(status)}` : ''}` };
    }
    const code = parsed.success ? parsed.data.failureReason?.failureCode : undefined;
    const what = `REJECTED ${providerWord(code ?? 'without a failure code')}`;
    if ((answer.status === 401 || answer.status === 403) && code !== undefined && REFUSED_BEFORE_PROCESSING.has(code)) {
      return { kind: 'retry', afterMs: SETUP_RETRY_MS, reason: `pawaPay refused our credentials (HTTP ${answer.status} ${what}): check PAWAPAY_API_TOKEN and the account` };
    }
    const presence = await this.presenceOf(payoutId);
    if (presence === 'present') return accepted;
    if (presence === 'unsure') return { kind: 'unknown', reason: `pawaPay answered ${what} and the payout's status is not available` };
    const meaning = rejectionMeaning(code);
    if (meaning.kind === 'setup') return { kind: 'retry', afterMs: SETUP_RETRY_MS, reason: `pawaPay refused the payout for now (${what}): check the PAWAPAY_* configuration and wallet` };
    return { kind: 'rejected', reason: `pawaPay refused the payout (${what})`, code: meaning.code };
  }

  async status(payment: Payment): Promise<StatusOutcome> {
    const record = await this.reconcile(payment);
    return record ? outcomeOfRecord(record, this.config.pollIntervalMs) : { kind: 'not_found' };
  }

  /**
   * Reconciliation read: pawaPay's record of this payment's payout (`GET /v2/payouts/{payoutId}`),
   * with its `amount` (decimal string), `currency`, `status` and `failureReason`, or `null` when
   * pawaPay answers NOT_FOUND. pawaPay has no list of payouts (only asynchronous wallet statements),
   * so reconciliation goes payment by payment. Throws when pawaPay gives no usable answer, or when
   * the record carries another payoutId.
   */
  async reconcile(payment: Payment): Promise<PawapayPayoutRecord | null> {
    const payoutId = payoutIdOf(payment.id);
    const found = recordOf(await this.client.getPayout(payoutId));
    if (found && found.payoutId !== payoutId) throw new Error(`pawaPay status answer for ${payment.id} names another payout`);
    return found;
  }

  private async presenceOf(payoutId: string): Promise<'present' | 'absent' | 'unsure'> {
    try {
      return recordOf(await this.client.getPayout(payoutId)) ? 'present' : 'absent';
    } catch {
      return 'unsure';
    }
  }
}

/** The payout of a FOUND answer, null for NOT_FOUND; throws (an infrastructure fault: asked again later) otherwise. */
function recordOf(answer: PawapayAnswer): PawapayPayoutRecord | null {
  if (answer.kind !== 'answered') throw new Error(`pawaPay status query failed: ${answer.reason}`);
  if (answer.status !== 200) throw new Error(`pawaPay status query answered HTTP ${answer.status}`);
  const parsed = statusAnswerSchema.safeParse(jsonOrUndefined(answer.body));
  if (!parsed.success) throw new Error('pawaPay status answer is not FOUND with a payout or NOT_FOUND');
  return parsed.data.status === 'FOUND' ? parsed.data.data : null;
}
