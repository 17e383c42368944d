/**
 * State of the Paystack simulator: banks, transfer recipients, the transfer ledger and the fault
 * plan. Shapes follow Paystack's documented bodies (official OpenAPI PaystackOSS/openapi and the
 * doc samples PaystackOSS/doc-code-snippets); the error texts are the simulator's own, since
 * Paystack does not publish its exact messages.
 */

/**
 * What happens to a transfer after it is queued. `abandoned`, `blocked` and `rejected` end in that
 * conclusive status without a webhook (Paystack sends transfer webhooks for success, failure and
 * reversal only); `undocumented` ends in `UNDOCUMENTED_STATUS`, a word Paystack does not document,
 * without a webhook.
 */
export type SimOutcome = 'success' | 'failed' | 'reversed' | 'reversed_unpaid' | 'pending' | 'abandoned' | 'blocked' | 'rejected' | 'undocumented';

/** The status of an `undocumented` transfer: the simulator's own word, in none of Paystack's tables. */
export const UNDOCUMENTED_STATUS = 'under_review';
/** How its webhook is delivered. */
export type SimCallback = 'normal' | 'delayed' | 'duplicated' | 'missing';
/**
 * How `POST /transfer` answers: normally; 500 before recording; 500 after recording; recorded,
 * answer held; 400 "Insufficient balance" without recording.
 */
export type SimSubmit = 'normal' | 'error_before' | 'error_after' | 'hold' | 'insufficient_balance';

/** Faults set by `POST /__simulator/faults`; each overrides the account number's suffix for later requests. */
export interface SimFaults {
  submit?: SimSubmit;
  outcome?: SimOutcome;
  callback?: SimCallback;
  /** `error`: `GET /transfer/verify` answers 500. */
  verify?: 'normal' | 'error';
}

/** The plan for one transfer. */
export interface SimPlan {
  readonly submit: SimSubmit;
  readonly outcome: SimOutcome;
  readonly callback: SimCallback;
}

/**
 * Fault modes by the account number's last two digits (listed in docs/providers.md § Simulators):
 * 88 ends in a status Paystack does not document (`UNDOCUMENTED_STATUS`, no webhook),
 * 89 is abandoned (no OTP within 30 minutes: conclusive, no webhook),
 * 90 is reversed without succeeding first ("a transfer that couldn't be completed"),
 * 91 fails, 92 succeeds then is reversed, 93 no webhook, 94 webhook sent twice,
 * 95 webhook delayed, 96 500 before recording, 97 500 after recording, 98 answer held
 * (recorded), 99 stays pending. Anything else succeeds with one prompt webhook.
 */
export function planFor(accountNumber: string, faults: SimFaults): SimPlan {
  const suffix = accountNumber.slice(-2);
  const plan: SimPlan = {
    submit: ({ '96': 'error_before', '97': 'error_after', '98': 'hold' } as Record<string, SimSubmit>)[suffix] ?? 'normal',
    outcome: ({ '88': 'undocumented', '89': 'abandoned', '90': 'reversed_unpaid', '91': 'failed', '92': 'reversed', '99': 'pending' } as Record<string, SimOutcome>)[suffix] ?? 'success',
    callback: ({ '93': 'missing', '94': 'duplicated', '95': 'delayed' } as Record<string, SimCallback>)[suffix] ?? 'normal',
  };
  return {
    submit: faults.submit ?? plan.submit,
    outcome: faults.outcome ?? plan.outcome,
    callback: faults.callback ?? plan.callback,
  };
}

/** A bank in the simulator's list (the shape of `GET /bank` items). */
export interface SimBank {
  readonly name: string;
  readonly code: string;
  readonly currency: string;
  readonly country: string;
  readonly type: string;
}

function banksOf(country: string, currency: string, type: string, entries: readonly (readonly [string, string])[]): SimBank[] {
  return entries.map(([code, name]) => ({ code, name, currency, country, type }));
}

/**
 * The simulator's banks: the corridor catalog's bank codes (so the sandbox catalog can be paid
 * through it) plus one extra bank per currency; Kenya also lists M-PESA as mobile money, as
 * Paystack's KES list does. Real Paystack codes may differ from the catalog's: check `GET /bank`.
 */
export const SIM_BANKS: readonly SimBank[] = [
  ...banksOf('Nigeria', 'NGN', 'nuban', [
    ['011', 'First Bank of Nigeria'], ['033', 'United Bank For Africa'], ['044', 'Access Bank'], ['058', 'Guaranty Trust Bank'],
    ['100004', 'OPay Digital Services'], ['100033', 'PalmPay'], ['090267', 'Kuda Bank'], ['110006', 'Paystack-Titan'],
  ]),
  ...banksOf('Ghana', 'GHS', 'ghipss', [['GCB', 'GCB Bank'], ['ECOBANK_GH', 'Ecobank Ghana'], ['STANBIC_GH', 'Stanbic Bank Ghana'], ['CAL', 'CalBank']]),
  ...banksOf('South Africa', 'ZAR', 'basa', [['632005', 'ABSA Bank'], ['250655', 'First National Bank'], ['051001', 'Standard Bank'], ['470010', 'Capitec Bank']]),
  ...banksOf('Kenya', 'KES', 'kepss', [['01', 'Kenya Commercial Bank'], ['11', 'Co-operative Bank of Kenya'], ['68', 'Equity Bank Kenya'], ['03', 'Absa Bank Kenya']]),
  ...banksOf('Kenya', 'KES', 'mobile_money', [['MPESA', 'M-PESA']]),
];

/** Recipient types per currency (https://paystack.com/docs/transfers/creating-transfer-recipients/). */
export const SIM_RECIPIENT_TYPES: Readonly<Record<string, string>> = { nuban: 'NGN', ghipss: 'GHS', basa: 'ZAR', kepss: 'KES' };

/** A transfer recipient held by the simulator. */
export interface SimRecipient {
  readonly id: number;
  readonly recipient_code: string;
  readonly type: string;
  readonly name: string;
  readonly currency: string;
  readonly details: { readonly account_number: string; readonly account_name: string | null; readonly bank_code: string; readonly bank_name: string };
  readonly createdAt: string;
}

/** A transfer in the simulator's ledger: one disbursement. */
export interface SimTransfer {
  readonly id: number;
  readonly transfer_code: string;
  readonly reference: string;
  readonly amount: number;
  readonly currency: string;
  readonly recipient: SimRecipient;
  readonly plan: SimPlan;
  status: string;
  transferred_at: string | null;
  gateway_response: string | null;
  readonly createdAt: string;
  updatedAt: string;
}

/** The body Paystack gives a transfer in verify, list and webhooks (official OpenAPI `TransferVerifyResponse`). */
export function transferBody(transfer: SimTransfer, domain: string): Record<string, unknown> {
  return {
    amount: transfer.amount, currency: transfer.currency, domain, failures: null, id: transfer.id,
    reason: null, reference: transfer.reference, source: 'balance', source_details: null,
    status: transfer.status, titan_code: null, transfer_code: transfer.transfer_code,
    transferred_at: transfer.transferred_at, gateway_response: transfer.gateway_response,
    recipient: { ...transfer.recipient, domain, active: true, is_deleted: false, metadata: null, updatedAt: transfer.recipient.createdAt },
    session: { provider: null, id: null },
    createdAt: transfer.createdAt, updatedAt: transfer.updatedAt,
  };
}

/** A deterministic account holder name for `accountNumber` (simulated resolution). */
export function holderName(accountNumber: string): string {
  const names = ['Chinedu Okafor', 'Amina Bello', 'Kwame Mensah', 'Thandi Nkosi', 'Wanjiru Kamau', 'Ngozi Adeyemi'];
  const index = [...accountNumber].reduce((sum, digit) => sum + digit.charCodeAt(0), 0) % names.length;
  return names[index] ?? names[0]!;
}
