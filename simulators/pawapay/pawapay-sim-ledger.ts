import { EventEmitter } from 'node:events';
import { request } from 'undici';

/**
 * What the simulator does with a payout whose recipient MSISDN ends in these two digits (any other
 * ending is ACCEPTED, COMPLETED and called back once). pawaPay's own sandbox numbers
 * (https://docs.pawapay.io/v2/docs/test_numbers) differ per country; these endings are the
 * simulator's, so one rule covers every catalog country.
 * Settle faults (the payout is ACCEPTED and recorded):
 * - `10` FAILED RECIPIENT_NOT_FOUND, `11` WALLET_LIMIT_REACHED, `12` PAWAPAY_WALLET_OUT_OF_FUNDS,
 *   `13` MANUALLY_CANCELLED, `14` UNSPECIFIED_FAILURE, `15` UNKNOWN_ERROR,
 *   `16` RECIPIENT_NOT_ALLOWED_TO_RECEIVE, `19` a code pawaPay does not document (SIM_UNLISTED_CODE)
 * - `20` callback delayed by `callbackDelayMs`; `21` callback sent twice; `22` no callback (lost)
 * - `50` stays PROCESSING, `51` stays ENQUEUED, `52` stays IN_RECONCILIATION, `53` stays ACCEPTED (no callback)
 * - `70` ends in SUBMITTED (v1's status, not a v2 payout status), no callback
 * Submit faults:
 * - `30` HTTP 500 UNKNOWN_ERROR, nothing recorded; `31` recorded, then HTTP 500 UNKNOWN_ERROR
 * - `40` recorded, response held (a hang); `41` response held, nothing recorded
 * - `60` REJECTED INVALID_PHONE_NUMBER, `61` AMOUNT_OUT_OF_BOUNDS, `62` PROVIDER_TEMPORARILY_UNAVAILABLE,
 *   `63` PAWAPAY_WALLET_OUT_OF_FUNDS, `64` INVALID_AMOUNT, `65` INVALID_PARAMETER, `66` REJECTED
 *   although the payout is recorded (pawaPay's records disagree), `67` REJECTED without a failure code
 */
export type SubmitFault = 'error_500' | 'recorded_error_500' | 'hang_recorded' | 'hang_unrecorded' | `reject:${string}` | 'reject_recorded';

const SUBMIT_FAULTS: Record<string, SubmitFault> = {
  '30': 'error_500', '31': 'recorded_error_500', '40': 'hang_recorded', '41': 'hang_unrecorded',
  '60': 'reject:INVALID_PHONE_NUMBER', '61': 'reject:AMOUNT_OUT_OF_BOUNDS', '62': 'reject:PROVIDER_TEMPORARILY_UNAVAILABLE',
  '63': 'reject:PAWAPAY_WALLET_OUT_OF_FUNDS', '64': 'reject:INVALID_AMOUNT', '65': 'reject:INVALID_PARAMETER', '66': 'reject_recorded', '67': 'reject:',
};
const FAIL_CODES: Record<string, string> = {
  '10': 'RECIPIENT_NOT_FOUND', '11': 'WALLET_LIMIT_REACHED', '12': 'PAWAPAY_WALLET_OUT_OF_FUNDS', '13': 'MANUALLY_CANCELLED',
  '14': 'UNSPECIFIED_FAILURE', '15': 'UNKNOWN_ERROR', '16': 'RECIPIENT_NOT_ALLOWED_TO_RECEIVE', '19': 'SIM_UNLISTED_CODE',
};
const STAYS: Record<string, SimPayout['status']> = { '50': 'PROCESSING', '51': 'ENQUEUED', '52': 'IN_RECONCILIATION', '53': 'ACCEPTED', '70': 'SUBMITTED' };

/** The fault of a submission: the control endpoint's forced one first, else the recipient's last two digits. */
export function submitFaultOf(phoneNumber: string, forced: SubmitFault | null): SubmitFault | undefined {
  return forced ?? SUBMIT_FAULTS[phoneNumber.slice(-2)];
}

/** A payout the simulator holds, in pawaPay's v2 record shape. */
export interface SimPayout {
  readonly payoutId: string;
  readonly amount: string;
  readonly currency: string;
  readonly country: string;
  readonly recipient: { type: 'MMO'; accountDetails: { phoneNumber: string; provider: string } };
  readonly created: string;
  status: 'ACCEPTED' | 'ENQUEUED' | 'PROCESSING' | 'IN_RECONCILIATION' | 'COMPLETED' | 'FAILED' | 'SUBMITTED';
  providerTransactionId?: string;
  failureReason?: { failureCode: string; failureMessage: string };
  callbacksSent: number;
}

/** The payout record pawaPay returns in a FOUND status answer and POSTs as a callback. */
export function recordOf(p: SimPayout): Record<string, unknown> {
  const { callbacksSent: _sent, ...record } = p;
  return record;
}

/**
 * The simulator's in-memory ledger: records, settles after `processingDelayMs`, and POSTs the final
 * record to `callbackUrl` once (the payout callback page) unless the recipient's fault says
 * otherwise. Emits `settled` (payout) and `callback` (payout, HTTP status or error).
 */
export class PawapaySimLedger extends EventEmitter {
  readonly payouts = new Map<string, SimPayout>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private nextTransactionId = 500_000_000;

  constructor(private readonly options: { processingDelayMs: number; callbackDelayMs: number; callbackUrl: () => string | undefined }) {
    super();
  }

  /** Records `payout` and settles it later; `failureCode` forces FAILED with that code (the `failShare` fault). */
  record(payout: SimPayout, failureCode?: string): void {
    this.payouts.set(payout.payoutId, payout);
    this.later(this.options.processingDelayMs, () => this.settle(payout, failureCode));
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private settle(p: SimPayout, forcedFailure?: string): void {
    const ending = p.recipient.accountDetails.phoneNumber.slice(-2);
    const stays = STAYS[ending];
    if (stays && !forcedFailure) {
      p.status = stays;
      return void this.emit('settled', p);
    }
    const failure = forcedFailure ?? FAIL_CODES[ending];
    if (failure) {
      p.status = 'FAILED';
      p.failureReason = { failureCode: failure, failureMessage: 'Simulated failure' };
    } else {
      p.status = 'COMPLETED';
      p.providerTransactionId = String(this.nextTransactionId++);
    }
    this.emit('settled', p);
    const url = this.options.callbackUrl();
    if (ending === '22' || !url) return;
    const delay = ending === '20' ? this.options.callbackDelayMs : 0;
    this.later(delay, () => void this.callBack(p, url));
    if (ending === '21') this.later(delay, () => void this.callBack(p, url));
  }

  private async callBack(p: SimPayout, url: string): Promise<void> {
    p.callbacksSent += 1;
    try {
      const response = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(recordOf(p)),
        headersTimeout: 2000,
        bodyTimeout: 2000,
      });
      await response.body.dump();
      this.emit('callback', p, response.statusCode);
    } catch (error) {
      this.emit('callback', p, error);
    }
  }

  private later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }
}
