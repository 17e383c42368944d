/**
 * State of the Flutterwave simulator: the transfer ledger and the fault plan. Shapes follow
 * Flutterwave's v3 samples (https://developer.flutterwave.com/reference/endpoints/transfers/;
 * Flutterwave/Node-v3 documentation/transfers.md; https://developer.flutterwave.com/docs/webhooks);
 * refusal texts are the simulator's own unless a sample shows Flutterwave's.
 */

/**
 * What happens to a transfer after it is queued (`NEW`): `successful` and `failed` end in
 * SUCCESSFUL or FAILED with a `transfer.completed` webhook; `pending` moves to PENDING and stays;
 * `undocumented` ends in `UNDOCUMENTED_STATUS` without a webhook.
 */
export type SimOutcome = 'successful' | 'failed' | 'pending' | 'undocumented';
/** The status of an `undocumented` transfer: the simulator's own word, none of Flutterwave's. */
export const UNDOCUMENTED_STATUS = 'ON_HOLD';
/** The `complete_message` of a simulated failure (not a Flutterwave sample: maps to `unknown`). */
export const SIM_FAILURE_MESSAGE = 'DISBURSE FAILED: beneficiary account could not be credited (simulated)';
/** How its webhook is delivered. */
export type SimCallback = 'normal' | 'delayed' | 'duplicated' | 'missing';
/**
 * How `POST /v3/transfers` answers: normally; 500 before recording; 500 after recording; recorded,
 * answer held; 400 with Flutterwave's insufficient-balance text, nothing recorded.
 */
export type SimSubmit = 'normal' | 'error_before' | 'error_after' | 'hold' | 'insufficient_balance';

/** Faults set by `POST /__simulator/faults`; each overrides the account number's suffix for later requests. */
export interface SimFaults {
  submit?: SimSubmit;
  outcome?: SimOutcome;
  callback?: SimCallback;
  /** `error`: `GET /v3/transfers` answers 500. */
  lookup?: 'normal' | 'error';
}

/** The plan for one transfer. */
export interface SimPlan {
  readonly submit: SimSubmit;
  readonly outcome: SimOutcome;
  readonly callback: SimCallback;
}

/**
 * Fault modes by the account number's last two digits (listed in docs/providers.md § Simulators):
 * 88 ends in a status Flutterwave does not document (`UNDOCUMENTED_STATUS`, no webhook), 91 fails,
 * 93 no webhook, 94 webhook sent twice, 95 webhook delayed, 96 500 before recording, 97 500 after
 * recording, 98 answer held (recorded), 99 stays PENDING. Anything else succeeds with one prompt
 * webhook. Flutterwave's v3 transfers document no reversal, so none is simulated.
 */
export function planFor(accountNumber: string, faults: SimFaults): SimPlan {
  const suffix = accountNumber.slice(-2);
  const plan: SimPlan = {
    submit: ({ '96': 'error_before', '97': 'error_after', '98': 'hold' } as Record<string, SimSubmit>)[suffix] ?? 'normal',
    outcome: ({ '88': 'undocumented', '91': 'failed', '99': 'pending' } as Record<string, SimOutcome>)[suffix] ?? 'successful',
    callback: ({ '93': 'missing', '94': 'duplicated', '95': 'delayed' } as Record<string, SimCallback>)[suffix] ?? 'normal',
  };
  return { submit: faults.submit ?? plan.submit, outcome: faults.outcome ?? plan.outcome, callback: faults.callback ?? plan.callback };
}

/** A transfer in the simulator's ledger: one disbursement. */
export interface SimTransfer {
  readonly id: number;
  readonly reference: string;
  readonly account_number: string;
  readonly bank_code: string;
  readonly full_name: string;
  readonly amount: number;
  readonly currency: string;
  readonly narration: string;
  readonly plan: SimPlan;
  status: string;
  complete_message: string;
  readonly created_at: string;
}

/** The body Flutterwave gives a transfer in create, get, list and `transfer.completed` (v3 samples). */
export function transferBody(transfer: SimTransfer): Record<string, unknown> {
  return {
    id: transfer.id, account_number: transfer.account_number, bank_code: transfer.bank_code, full_name: transfer.full_name,
    created_at: transfer.created_at, currency: transfer.currency, debit_currency: transfer.currency, amount: transfer.amount,
    fee: 10.75, status: transfer.status, reference: transfer.reference, meta: null, narration: transfer.narration,
    approver: null, complete_message: transfer.complete_message, requires_approval: 0, is_approved: 1, bank_name: `BANK ${transfer.bank_code}`,
  };
}
