import { z } from 'zod';
import type { Payment } from '../../../core/payments/payment';
import type { PayoutProvider, StatusOutcome, SubmitOutcome } from '../../../core/payments/payout-provider';
import type { FlutterwaveSender } from './flutterwave-config';
import { flutterwaveEnvelope, flutterwaveMessage, type FlutterwaveClient } from './flutterwave-client';
import { listFlutterwaveTransfers, type FlutterwaveTransferList } from './flutterwave-reconciliation';
import { transferBodyOf } from './flutterwave-rails';
import { FLUTTERWAVE, flutterwaveTransfer, outcomeOfTransfer, referenceOf, type FlutterwaveTransfer } from './flutterwave-transfers';

/** Status could not be read from Flutterwave (transport fault, 5xx, refused key): the worker backs off and asks again. */
export class FlutterwaveUnavailableError extends Error {
  override readonly name = 'FlutterwaveUnavailableError';
}

/** What a look-up by reference found. */
type Lookup =
  | { readonly kind: 'found'; readonly transfer: FlutterwaveTransfer }
  | { readonly kind: 'absent' }
  | { readonly kind: 'unavailable'; readonly reason: string };

const created = flutterwaveEnvelope(flutterwaveTransfer);
const listed = flutterwaveEnvelope(z.array(z.unknown()));
const NOT_SENT_RETRY_MS = 5_000;
const KEY_REFUSED_RETRY_MS = 60_000;
const RATE_LIMITED_RETRY_MS = 30_000;
const NO_BALANCE_RETRY_MS = 5 * 60_000;

/**
 * Flutterwave Transfers (v3) as a payout provider for Nigerian bank accounts and mobile money in
 * UG, GH, CI, SN and CM (https://developer.flutterwave.com/reference/endpoints/transfers/;
 * docs/providers.md § Flutterwave Transfers; docs/decisions.md § Payments: states and events).
 * A submission is one `POST /v3/transfers` with the reference `referenceOf(payment.id)`; status is
 * `GET /v3/transfers?reference=` (the list endpoint filtered by our reference). No answer that
 * might hide a transfer is ever reported as `rejected` or `retry` without first looking the
 * reference up.
 */
export class FlutterwavePayoutProvider implements PayoutProvider {
  readonly name = FLUTTERWAVE;

  /**
   * `resultWaitMs`: after an accepted transfer, how long to wait for its webhook before the first
   * status query, ms (FLUTTERWAVE_RESULT_WAIT_MS); undefined asks at once. A new transfer is
   * `NEW` (queued), so asking at once mostly earns a pending and its minute-long re-check.
   */
  constructor(
    private readonly client: FlutterwaveClient,
    private readonly sender: FlutterwaveSender,
    private readonly options: { readonly resultWaitMs?: number } = {},
  ) {}

  /**
   * Sends the payout. `rejected` (`unsupported_by_provider`) before any call when Flutterwave cannot
   * carry it (`transferBodyOf`). Then: 2xx with the transfer of our reference → `accepted`
   * (providerRef: Flutterwave's transfer id); connection never made → `retry`; timeout, reset, 5xx,
   * 3xx or an unreadable 2xx → `unknown`; 401 or 403 (a refused key, or a server address not
   * whitelisted) → `retry`; any other refusal (400 class, including a reference already used) →
   * the reference is looked up: found → `accepted` (the same transfer), absent → `rejected`
   * (`declined`), or `retry` for 429 and an insufficient balance; look-up failed → `unknown`.
   */
  async submit(payment: Payment): Promise<SubmitOutcome> {
    const reference = referenceOf(payment.id);
    const plan = transferBodyOf(payment, reference, this.sender);
    if (!plan.ok) return { kind: 'rejected', reason: plan.reason, code: 'unsupported_by_provider' };
    const call = await this.client.send({ method: 'POST', path: '/v3/transfers', body: plan.body });
    if (call.kind === 'not_sent') return { kind: 'retry', afterMs: NOT_SENT_RETRY_MS, reason: `Flutterwave unreachable: ${call.reason}` };
    if (call.kind === 'maybe_sent') return { kind: 'unknown', reason: `Flutterwave transfer outcome unknown: ${call.reason}` };
    const { httpStatus, body } = call;
    if (httpStatus >= 200 && httpStatus < 300) {
      const parsed = created.safeParse(body);
      if (parsed.success && parsed.data.data.reference === reference) {
        const wait = this.options.resultWaitMs;
        return { kind: 'accepted', providerRef: String(parsed.data.data.id), ...(wait === undefined ? {} : { recheckAfterMs: wait }) };
      }
      return { kind: 'unknown', reason: `Flutterwave answered HTTP ${httpStatus} without a readable transfer` };
    }
    if (httpStatus >= 500 || httpStatus < 400) return { kind: 'unknown', reason: `Flutterwave answered HTTP ${httpStatus}` };
    const message = flutterwaveMessage(httpStatus, body);
    if (httpStatus === 401 || httpStatus === 403) {
      return { kind: 'retry', afterMs: KEY_REFUSED_RETRY_MS, reason: `Flutterwave refused our credentials or address: ${message}` };
    }
    if (httpStatus === 429) return this.unlessExisting(reference, { kind: 'retry', afterMs: RATE_LIMITED_RETRY_MS, reason: `Flutterwave rate limit: ${message}` });
    // Flutterwave publishes no closed list of refusal texts: matched loosely, only to choose retry over rejected.
    if (/insufficient (funds|balance|wallet balance)/i.test(message)) {
      return this.unlessExisting(reference, { kind: 'retry', afterMs: NO_BALANCE_RETRY_MS, reason: `Flutterwave balance too low: ${message}` });
    }
    return this.unlessExisting(reference, { kind: 'rejected', reason: `Flutterwave refused the transfer: ${message}`, code: 'declined' });
  }

  /**
   * The transfer's state from `GET /v3/transfers?reference=`: mapped by `outcomeOfTransfer`; an
   * empty list → `not_found`. Throws `FlutterwaveUnavailableError` when Flutterwave cannot be read
   * (transport fault, 5xx, 401, an unreadable answer).
   */
  async status(payment: Payment): Promise<StatusOutcome> {
    const found = await this.lookup(referenceOf(payment.id));
    if (found.kind === 'unavailable') throw new FlutterwaveUnavailableError(found.reason);
    return found.kind === 'absent' ? { kind: 'not_found' } : outcomeOfTransfer(found.transfer);
  }

  /**
   * Reconciliation read: every transfer Flutterwave lists between `from` and `to` (all pages), with
   * our payment id where the reference is ours, its outcome and amount (decimal string in its
   * currency). Throws `FlutterwaveUnavailableError` when a page cannot be read.
   */
  async transfersBetween(from: Date, to: Date): Promise<FlutterwaveTransferList> {
    const result = await listFlutterwaveTransfers(this.client, from, to);
    if (!result.ok) throw new FlutterwaveUnavailableError(result.reason);
    return result.value;
  }

  private async unlessExisting(reference: string, fallback: Exclude<SubmitOutcome, { kind: 'accepted' }>): Promise<SubmitOutcome> {
    const found = await this.lookup(reference);
    if (found.kind === 'found') return { kind: 'accepted', providerRef: String(found.transfer.id) };
    if (found.kind === 'absent') return fallback;
    return { kind: 'unknown', reason: `${fallback.reason ?? fallback.kind}; could not confirm that no transfer exists (${found.reason})` };
  }

  private async lookup(reference: string): Promise<Lookup> {
    const call = await this.client.send({ method: 'GET', path: '/v3/transfers', query: { reference } });
    if (call.kind !== 'answer') return { kind: 'unavailable', reason: call.reason };
    const parsed = listed.safeParse(call.body);
    if (call.httpStatus !== 200 || !parsed.success) {
      return { kind: 'unavailable', reason: `transfer look-up answered HTTP ${call.httpStatus}: ${flutterwaveMessage(call.httpStatus, call.body)}` };
    }
    const ours = parsed.data.data.filter((item) => z.object({ reference: z.literal(reference) }).safeParse(item).success);
    // Another reference in the answer means the filter was not applied: ours could be on a later page, so absence is not proven.
    if (ours.length < parsed.data.data.length) return { kind: 'unavailable', reason: 'transfer look-up by reference listed other transfers' };
    if (ours.length === 0) return { kind: 'absent' };
    const transfer = flutterwaveTransfer.safeParse(ours[0]);
    if (!transfer.success) return { kind: 'unavailable', reason: 'transfer look-up listed our reference in an unreadable item' };
    return { kind: 'found', transfer: transfer.data };
  }
}
