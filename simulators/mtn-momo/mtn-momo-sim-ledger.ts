import { EventEmitter } from 'node:events';
import { request } from 'undici';

/**
 * What the simulator does with a transfer whose payee MSISDN ends in these two digits (any other
 * ending succeeds and calls back once). These are the simulator's own numbers: MTN's sandbox test
 * numbers are not documented by MTN.
 * - `10` FAILED, reason `PAYEE_NOT_FOUND` (a string); `11` FAILED, reason `{code: NOT_ENOUGH_FUNDS}` (an object)
 * - `20` callback delayed by `callbackDelayMs`; `21` callback sent twice; `22` no callback
 * - `30` 500 INTERNAL_PROCESSING_ERROR, nothing recorded; `31` recorded, then 500 INTERNAL_PROCESSING_ERROR
 * - `40` recorded, response held (a hang; the client times out); `41` response held, nothing recorded
 * - `50` recorded, stays PENDING, no callback; `60` 400 bad request, nothing recorded
 * - `70` recorded, ends in ONGOING (a status MTN does not document for transfers), no callback
 * - `61` 409 RESOURCE_ALREADY_EXIST although nothing is recorded under the reference (`GET` answers
 *   404): MTN's own records disagree, so whether the transfer exists cannot be known
 */
export type SubmitFault = 'error_500' | 'recorded_error_500' | 'hang_recorded' | 'hang_unrecorded' | 'bad_request' | 'conflict_unrecorded';
export type SettleFault = 'fail_string' | 'fail_object' | 'callback_delayed' | 'callback_duplicated' | 'callback_missing' | 'stay_pending' | 'undocumented_status';

const SUBMIT_FAULTS: Record<string, SubmitFault> = {
  '30': 'error_500', '31': 'recorded_error_500', '40': 'hang_recorded', '41': 'hang_unrecorded', '60': 'bad_request', '61': 'conflict_unrecorded',
};
const SETTLE_FAULTS: Record<string, SettleFault> = {
  '10': 'fail_string', '11': 'fail_object', '20': 'callback_delayed', '21': 'callback_duplicated', '22': 'callback_missing', '50': 'stay_pending',
  '70': 'undocumented_status',
};

/** The fault of a submission: the control endpoint's forced one first, else the payee's last two digits. */
export function submitFaultOf(partyId: string, forced: SubmitFault | null): SubmitFault | undefined {
  return forced ?? SUBMIT_FAULTS[partyId.slice(-2)];
}

/** A disbursement the simulator holds, in MTN's status shape plus what it needs to call back. */
export interface SimTransfer {
  readonly referenceId: string;
  readonly amount: string;
  readonly currency: string;
  readonly externalId: string;
  readonly payee: { partyIdType: string; partyId: string };
  readonly payerMessage: string;
  readonly payeeNote: string;
  /** MTN's three, or ONGOING (the `undocumented_status` fault). */
  status: 'PENDING' | 'SUCCESSFUL' | 'FAILED' | 'ONGOING';
  reason?: string | { code: string; message: string };
  financialTransactionId?: string;
  readonly callbackUrl: string | undefined;
  callbacksSent: number;
}

/** The body MTN returns for a transfer (status query) and sends to the callback URL. */
export function statusBodyOf(t: SimTransfer): Record<string, unknown> {
  return {
    amount: t.amount, currency: t.currency, financialTransactionId: t.financialTransactionId, externalId: t.externalId,
    payee: t.payee, payerMessage: t.payerMessage, payeeNote: t.payeeNote, status: t.status,
    ...(t.reason === undefined ? {} : { reason: t.reason }),
  };
}

// Financial transaction ids start from the clock so that simulators started by different test files
// on one database never hand out the same id: the service keys a callback by that id and outcome,
// and a repeated id would be taken for an earlier file's callback and acknowledged without effect.
let nextFinancialId = 100_000_000 + (Date.now() % 1_000_000) * 1_000;

/**
 * The simulator's in-memory ledger of disbursements: records, settles after `processingDelayMs`,
 * and calls back once (MoMo callback page: "only send the callback once", as a POST or PUT) unless
 * the payee's fault says otherwise. Emits `settled` (transfer) and `callback` (transfer, HTTP status
 * or the error) for tests to wait on.
 */
export class SimLedger extends EventEmitter {
  readonly transfers = new Map<string, SimTransfer>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: { processingDelayMs: number; callbackDelayMs: number; callbackMethod: 'POST' | 'PUT' }) {
    super();
  }

  record(transfer: SimTransfer): void {
    this.transfers.set(transfer.referenceId, transfer);
    this.later(this.options.processingDelayMs, () => this.settle(transfer));
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private settle(t: SimTransfer): void {
    const fault = SETTLE_FAULTS[t.payee.partyId.slice(-2)];
    if (fault === 'stay_pending') return;
    if (fault === 'undocumented_status') {
      t.status = 'ONGOING';
      return void this.emit('settled', t);
    }
    if (fault === 'fail_string') {
      t.status = 'FAILED';
      t.reason = 'PAYEE_NOT_FOUND';
    } else if (fault === 'fail_object') {
      t.status = 'FAILED';
      t.reason = { code: 'NOT_ENOUGH_FUNDS', message: 'The payer does not have enough funds.' };
    } else {
      t.status = 'SUCCESSFUL';
      t.financialTransactionId = String(nextFinancialId++);
    }
    this.emit('settled', t);
    if (fault === 'callback_missing' || !t.callbackUrl) return;
    const delay = fault === 'callback_delayed' ? this.options.callbackDelayMs : 0;
    this.later(delay, () => void this.callBack(t));
    if (fault === 'callback_duplicated') this.later(delay, () => void this.callBack(t));
  }

  private async callBack(t: SimTransfer): Promise<void> {
    t.callbacksSent += 1;
    try {
      const response = await request(t.callbackUrl!, {
        method: this.options.callbackMethod,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(statusBodyOf(t)),
        headersTimeout: 2000,
        bodyTimeout: 2000,
      });
      await response.body.dump();
      this.emit('callback', t, response.statusCode);
    } catch (error) {
      // MTN does not retry (current callback page): a lost callback stays lost.
      this.emit('callback', t, error);
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
