import type { Payment } from '../../../core/payments/payment';
import type { PayoutProvider, StatusOutcome, SubmitOutcome } from '../../../core/payments/payout-provider';
import { Decimal } from '../../../core/shared/money';
import { paystackEnvelope, paystackErrorBody, paystackMessage, type PaystackClient } from './paystack-client';
import { listPaystackTransfers, type PaystackTransferList } from './paystack-reconciliation';
import { PaystackRecipients, type RecipientAccount } from './paystack-recipients';
import {
  outcomeOfTransfer, PAYSTACK, PAYSTACK_BANK_RECIPIENTS, paystackTransfer, referenceOf, type PaystackTransfer,
} from './paystack-transfers';

/** Status could not be read from Paystack (transport fault, 5xx, refused key): the worker backs off and asks again. */
export class PaystackUnavailableError extends Error {
  override readonly name = 'PaystackUnavailableError';
}

/** What a look-up by reference found. */
type Lookup =
  | { readonly kind: 'found'; readonly transfer: PaystackTransfer }
  | { readonly kind: 'absent' }
  | { readonly kind: 'unavailable'; readonly reason: string };

const transferAnswer = paystackEnvelope(paystackTransfer);
/** Kobo, pesewas and cents: Paystack amounts are integers in the currency's subunit (official OpenAPI `TransferBase.amount`). */
const SUBUNITS_PER_UNIT = 100;
const NOT_SENT_RETRY_MS = 5_000;
const KEY_REFUSED_RETRY_MS = 60_000;
const RATE_LIMITED_RETRY_MS = 30_000;
const NO_BALANCE_RETRY_MS = 5 * 60_000;

/**
 * Paystack Transfers as a payout provider for bank accounts in NG, GH, ZA and KE
 * (https://paystack.com/docs/transfers/single-transfers/; docs/decisions.md § Payments: states and events).
 * A submission creates (or reuses) a transfer recipient, then `POST /transfer` with the reference
 * `referenceOf(payment.id)`, so every submission of one payment names the same transfer; status is
 * `GET /transfer/verify/{reference}`. No answer that might hide a transfer is ever reported as
 * `rejected` or `retry` without first looking the reference up.
 */
export class PaystackPayoutProvider implements PayoutProvider {
  readonly name = PAYSTACK;
  private readonly recipients: PaystackRecipients;
  private readonly resultWaitMs?: number;

  /**
   * `resultWaitMs`: after an accepted transfer, how long to wait for its webhook before the first
   * verify, in ms (PAYSTACK_RESULT_WAIT_MS); undefined asks verify at once. A transfer is rarely
   * final the moment it is accepted, so asking at once mostly earns a `pending` and its minute-long recheck.
   */
  constructor(private readonly client: PaystackClient, options: { readonly recipientCacheSize?: number; readonly resultWaitMs?: number } = {}) {
    this.recipients = new PaystackRecipients(client, options.recipientCacheSize);
    this.resultWaitMs = options.resultWaitMs;
  }

  /**
   * Sends the payout. `rejected` before any call when Paystack cannot carry it (not BANK, a country
   * or currency it does not pay, an amount that is not a whole number of subunits). Then: 2xx with
   * the transfer → `accepted` (providerRef `TRF_…`); connection never made → `retry`; timeout,
   * reset, 5xx or an unreadable 2xx → `unknown`; refused credentials (401, 403) → `retry`; any other refusal (400
   * class, including "reference already used") → the reference is looked up: found → `accepted`
   * (the same transfer), absent → `rejected` (or `retry` for 429 and insufficient balance),
   * look-up failed → `unknown`.
   */
  async submit(payment: Payment): Promise<SubmitOutcome> {
    const plan = planTransfer(payment);
    if (!plan.ok) return { kind: 'rejected', reason: plan.reason, code: 'unsupported_by_provider' };
    const reference = referenceOf(payment.id);
    const recipient = await this.recipients.codeFor(plan.account);
    if (!recipient.ok) {
      return recipient.outcome.kind === 'rejected' ? this.unlessExisting(reference, recipient.outcome) : recipient.outcome;
    }
    const call = await this.client.send({
      method: 'POST',
      path: '/transfer',
      body: { source: 'balance', amount: plan.subunits, recipient: recipient.recipientCode, reference, currency: plan.account.currency },
    });
    if (call.kind === 'not_sent') return { kind: 'retry', afterMs: NOT_SENT_RETRY_MS, reason: `Paystack unreachable: ${call.reason}` };
    if (call.kind === 'maybe_sent') return { kind: 'unknown', reason: `Paystack transfer outcome unknown: ${call.reason}` };
    const { httpStatus, body } = call;
    if (httpStatus >= 200 && httpStatus < 300) {
      const parsed = transferAnswer.safeParse(body);
      if (parsed.success && parsed.data.data.reference === reference) {
        return { kind: 'accepted', providerRef: parsed.data.data.transfer_code, ...(this.resultWaitMs === undefined ? {} : { recheckAfterMs: this.resultWaitMs }) };
      }
      return { kind: 'unknown', reason: `Paystack answered HTTP ${httpStatus} without a readable transfer` };
    }
    if (httpStatus >= 500 || httpStatus < 400) return { kind: 'unknown', reason: `Paystack answered HTTP ${httpStatus}` };
    const message = paystackMessage(httpStatus, body);
    // 401, and 403 as Paystack's IP whitelisting of secret-key requests may answer (status undocumented):
    // our configuration is at fault, the request was refused before processing.
    if (httpStatus === 401 || httpStatus === 403) return { kind: 'retry', afterMs: KEY_REFUSED_RETRY_MS, reason: `Paystack refused our credentials: ${message}` };
    if (httpStatus === 429) return this.unlessExisting(reference, { kind: 'retry', afterMs: RATE_LIMITED_RETRY_MS, reason: `Paystack rate limit: ${message}` });
    // The error texts are not published verbatim (https://paystack.com/docs/api/errors/): match loosely, and only to choose retry over rejected.
    if (/insufficient balance/i.test(message)) {
      return this.unlessExisting(reference, { kind: 'retry', afterMs: NO_BALANCE_RETRY_MS, reason: `Paystack balance too low: ${message}` });
    }
    return this.unlessExisting(reference, { kind: 'rejected', reason: `Paystack refused the transfer: ${message}`, code: 'declined' });
  }

  /**
   * The transfer's state from `GET /transfer/verify/{reference}`: mapped by `outcomeOfTransfer`;
   * 404 with Paystack's error body → `not_found`. Throws `PaystackUnavailableError` when Paystack
   * cannot be read (transport fault, 5xx, 401, an unreadable answer).
   */
  async status(payment: Payment): Promise<StatusOutcome> {
    const found = await this.lookup(referenceOf(payment.id));
    if (found.kind === 'unavailable') throw new PaystackUnavailableError(found.reason);
    return found.kind === 'absent' ? { kind: 'not_found' } : outcomeOfTransfer(found.transfer);
  }

  /**
   * Reconciliation read: every transfer Paystack lists between `from` and `to` (`GET /transfer`,
   * all pages), with our payment id where the reference is one of ours, the outcome it maps to and
   * the amount as a decimal string in the transfer's currency. Throws `PaystackUnavailableError`
   * when a page cannot be read.
   */
  async transfersBetween(from: Date, to: Date): Promise<PaystackTransferList> {
    const listed = await listPaystackTransfers(this.client, from, to);
    if (!listed.ok) throw new PaystackUnavailableError(listed.reason);
    return listed.value;
  }

  private async unlessExisting(reference: string, fallback: Exclude<SubmitOutcome, { kind: 'accepted' }>): Promise<SubmitOutcome> {
    const found = await this.lookup(reference);
    if (found.kind === 'found') return { kind: 'accepted', providerRef: found.transfer.transfer_code };
    if (found.kind === 'absent') return fallback;
    return { kind: 'unknown', reason: `${fallback.reason ?? fallback.kind}; could not confirm that no transfer exists (${found.reason})` };
  }

  private async lookup(reference: string): Promise<Lookup> {
    const call = await this.client.send({ method: 'GET', path: `/transfer/verify/${encodeURIComponent(reference)}` });
    if (call.kind !== 'answer') return { kind: 'unavailable', reason: call.reason };
    if (call.httpStatus === 404 && paystackErrorBody.safeParse(call.body).success) return { kind: 'absent' };
    const parsed = transferAnswer.safeParse(call.body);
    if (call.httpStatus === 200 && parsed.success && parsed.data.data.reference === reference) {
      return { kind: 'found', transfer: parsed.data.data };
    }
    return { kind: 'unavailable', reason: `verify answered HTTP ${call.httpStatus}: ${paystackMessage(call.httpStatus, call.body)}` };
  }
}

/** The recipient and amount of a payment, or why Paystack cannot carry it. Pure. */
function planTransfer(payment: Payment):
  | { readonly ok: true; readonly account: RecipientAccount; readonly subunits: number }
  | { readonly ok: false; readonly reason: string } {
  if (payment.paymentMethod !== 'BANK') return { ok: false, reason: `Paystack pays bank accounts only, not ${payment.paymentMethod}` };
  const rail = PAYSTACK_BANK_RECIPIENTS[payment.country];
  if (!rail) return { ok: false, reason: `Paystack does not pay bank accounts in ${payment.country}` };
  if (rail.currency !== payment.destinationCurrency) {
    return { ok: false, reason: `Paystack pays ${payment.country} bank accounts in ${rail.currency}, not ${payment.destinationCurrency}` };
  }
  const subunits = new Decimal(payment.fiatAmount).times(SUBUNITS_PER_UNIT);
  if (!subunits.isInteger() || subunits.lte(0) || subunits.gt(Number.MAX_SAFE_INTEGER)) {
    return { ok: false, reason: `Paystack cannot carry ${payment.fiatAmount} ${rail.currency}: the amount must be a positive whole number of subunits` };
  }
  return {
    ok: true,
    subunits: subunits.toNumber(),
    account: { type: rail.type, currency: rail.currency, bankCode: payment.paymentCode, accountNumber: payment.accountNumber, name: payment.accountName },
  };
}
