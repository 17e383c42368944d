import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { SimulatorState } from './paystack-simulator';
import {
  holderName, planFor, SIM_BANKS, SIM_RECIPIENT_TYPES, transferBody, UNDOCUMENTED_STATUS, type SimRecipient, type SimTransfer,
} from './paystack-simulator-ledger';

/** Writes a JSON answer (no-op on a socket already gone). */
export function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const refuse = (res: ServerResponse, message: string, status = 400) => send(res, status, { status: false, message });
const code = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex').slice(0, 15)}`;
let sequence = 1000;

/** Paystack's reference rule: lowercase alphanumerics, `-` and `_`, 16 to 100 characters. */
const REFERENCE_RULE = /^[a-z0-9_-]{16,100}$/;
const COUNTRY_NAMES: Readonly<Record<string, string>> = { nigeria: 'Nigeria', ghana: 'Ghana', kenya: 'Kenya', 'south africa': 'South Africa' };

/** `GET /bank` (filters `currency`, `country`) and `GET /bank/resolve` (Nigeria and Ghana banks; numbers ending 0000 do not resolve). */
export function handleBanks(path: string, url: URL, res: ServerResponse): void {
  if (path === '/bank') {
    const currency = url.searchParams.get('currency');
    const country = COUNTRY_NAMES[url.searchParams.get('country')?.toLowerCase() ?? ''];
    const banks = SIM_BANKS
      .filter((bank) => (!currency || bank.currency === currency) && (!country || bank.country === country))
      .map((bank, index) => ({
        ...bank, id: index + 1, slug: bank.name.toLowerCase().replace(/\W+/g, '-'), longcode: '', gateway: null,
        pay_with_bank: false, supports_transfer: true, active: true, is_deleted: false,
        createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z',
      }));
    return send(res, 200, { status: true, message: 'Banks retrieved', data: banks });
  }
  const accountNumber = url.searchParams.get('account_number') ?? '';
  const bank = SIM_BANKS.find((entry) => entry.code === url.searchParams.get('bank_code') && ['NGN', 'GHS'].includes(entry.currency));
  if (!/^\d{6,20}$/.test(accountNumber) || !bank) return refuse(res, 'Could not resolve account name. Check parameters or try again.', 422);
  if (accountNumber.endsWith('0000')) return refuse(res, 'Could not resolve account name. Check parameters or try again.', 422);
  return send(res, 200, { status: true, message: 'Account number resolved', data: { account_number: accountNumber, account_name: holderName(accountNumber), bank_id: SIM_BANKS.indexOf(bank) + 1 } });
}

/** `POST /transferrecipient`: validates the type, currency, bank and number; an existing account returns its record. */
export function handleRecipient(state: SimulatorState, body: unknown, res: ServerResponse): void {
  const input = (body ?? {}) as Record<string, unknown>;
  const type = String(input.type ?? '');
  const currency = input.currency === undefined ? SIM_RECIPIENT_TYPES[type] : String(input.currency);
  if (!SIM_RECIPIENT_TYPES[type]) return refuse(res, 'Invalid recipient type');
  if (currency !== SIM_RECIPIENT_TYPES[type]) return refuse(res, `Currency ${String(currency)} is not supported for ${type}`);
  if (typeof input.name !== 'string' || input.name.trim() === '') return refuse(res, 'Name is required');
  const accountNumber = String(input.account_number ?? '');
  if (!/^\d{5,20}$/.test(accountNumber)) return refuse(res, 'Account number is invalid');
  const bank = SIM_BANKS.find((entry) => entry.code === input.bank_code && entry.currency === currency && entry.type === type);
  if (!bank) return refuse(res, 'Invalid bank code');

  const existing = [...state.recipients.values()].find(
    (recipient) => recipient.type === type && recipient.details.bank_code === bank.code && recipient.details.account_number === accountNumber,
  );
  const recipient: SimRecipient = existing ?? {
    id: (sequence += 1), recipient_code: code('RCP'), type, name: input.name, currency,
    details: { account_number: accountNumber, account_name: null, bank_code: bank.code, bank_name: bank.name },
    createdAt: new Date().toISOString(),
  };
  state.recipients.set(recipient.recipient_code, recipient);
  return send(res, 201, { status: true, message: 'Transfer recipient created successfully', data: { ...recipient, domain: state.domain, active: true, is_deleted: false } });
}

/**
 * `POST /transfer`: validates source, amount (integer subunits), recipient, reference and currency;
 * refuses a reference already used; then follows the plan (faults) for the answer and the outcome.
 */
export function handleTransfer(state: SimulatorState, body: unknown, res: ServerResponse): void {
  const input = (body ?? {}) as Record<string, unknown>;
  if (input.source !== 'balance') return refuse(res, 'Invalid source');
  if (typeof input.amount !== 'number' || !Number.isSafeInteger(input.amount) || input.amount <= 0) return refuse(res, 'Invalid amount');
  const recipient = state.recipients.get(String(input.recipient ?? ''));
  if (!recipient) return refuse(res, 'Recipient specified is invalid');
  const reference = String(input.reference ?? '');
  if (!REFERENCE_RULE.test(reference)) return refuse(res, 'The transfer reference passed to the API contains illegal special characters');
  const currency = input.currency === undefined ? 'NGN' : String(input.currency);
  if (currency !== recipient.currency) return refuse(res, 'Currency mismatch between transfer and recipient');
  if (state.transfers.has(reference)) return refuse(res, 'This reference has already been used on a prior transfer');

  const plan = planFor(recipient.details.account_number, state.faults);
  if (plan.submit === 'error_before') return refuse(res, 'An error occurred', 500);
  if (plan.submit === 'insufficient_balance') return refuse(res, 'Insufficient balance');
  const now = new Date().toISOString();
  const transfer: SimTransfer = {
    id: (sequence += 1), transfer_code: code('TRF'), reference, amount: input.amount, currency, recipient, plan,
    status: 'pending', transferred_at: null, gateway_response: null, createdAt: now, updatedAt: now,
  };
  state.transfers.set(reference, transfer);
  settle(state, transfer);
  if (plan.submit === 'error_after') return refuse(res, 'An error occurred', 500);
  const answer = { status: true, message: 'Transfer has been queued', data: { ...transferBody(transfer, state.domain), recipient: recipient.id } };
  if (plan.submit === 'hold') {
    state.held.push(Object.assign(res, { heldBody: answer }));
    return;
  }
  return send(res, 200, answer);
}

/** `GET /transfer`: filters `from`/`to` on creation time, newest first, `page` and `perPage` (or `per_page`), with `meta`. */
export function listTransfers(state: SimulatorState, url: URL, res: ServerResponse): void {
  const from = Date.parse(url.searchParams.get('from') ?? '');
  const to = Date.parse(url.searchParams.get('to') ?? '');
  if ((url.searchParams.has('from') && Number.isNaN(from)) || (url.searchParams.has('to') && Number.isNaN(to))) {
    return refuse(res, 'Invalid from parameter');
  }
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
  const perPage = Math.min(state.maxPerPage, Math.max(1, Number(url.searchParams.get('perPage') ?? url.searchParams.get('per_page') ?? 50) || 50));
  const all = [...state.transfers.values()]
    .filter((transfer) => (Number.isNaN(from) || Date.parse(transfer.createdAt) >= from) && (Number.isNaN(to) || Date.parse(transfer.createdAt) <= to))
    .reverse();
  const data = all.slice((page - 1) * perPage, page * perPage).map((transfer) => transferBody(transfer, state.domain));
  return send(res, 200, {
    status: true, message: 'Transfers retrieved', data,
    meta: { total: all.length, skipped: (page - 1) * perPage, perPage, page, pageCount: Math.max(1, Math.ceil(all.length / perPage)) },
  });
}

/** Runs the plan after `resultDelayMs`: final status, webhook (none for abandoned, blocked, rejected, undocumented), and for `reversed` a later reversal. */
function settle(state: SimulatorState, transfer: SimTransfer): void {
  if (transfer.plan.outcome === 'pending') return;
  later(state, state.resultDelayMs, () => {
    const outcome = transfer.plan.outcome;
    if (outcome === 'abandoned' || outcome === 'blocked' || outcome === 'rejected') return state.change(transfer, outcome);
    if (outcome === 'undocumented') return state.change(transfer, UNDOCUMENTED_STATUS);
    if (transfer.plan.outcome === 'reversed_unpaid') {
      transfer.gateway_response = 'Transfer could not be completed; amount returned (simulated)';
      state.change(transfer, 'reversed');
      return deliver(state, transfer, 'transfer.reversed');
    }
    const failed = transfer.plan.outcome === 'failed';
    if (failed) transfer.gateway_response = 'Account could not be credited (simulated)';
    else transfer.transferred_at = new Date().toISOString();
    state.change(transfer, failed ? 'failed' : 'success');
    deliver(state, transfer, failed ? 'transfer.failed' : 'transfer.success');
    if (transfer.plan.outcome !== 'reversed') return;
    later(state, state.resultDelayMs, () => {
      transfer.gateway_response = 'Transfer reversed by the beneficiary bank (simulated)';
      state.change(transfer, 'reversed');
      deliver(state, transfer, 'transfer.reversed');
    });
  });
}

/** Sends the webhook as the plan says, with the transfer as it is now (a later change does not leak into a delayed one). */
function deliver(state: SimulatorState, transfer: SimTransfer, event: string): void {
  const snapshot: SimTransfer = { ...transfer };
  switch (transfer.plan.callback) {
    case 'missing':
      return;
    case 'duplicated':
      state.sendWebhook(event, snapshot);
      state.sendWebhook(event, snapshot);
      return;
    case 'delayed':
      later(state, state.delayedCallbackMs, () => state.sendWebhook(event, snapshot));
      return;
    default:
      state.sendWebhook(event, snapshot);
  }
}

function later(state: SimulatorState, ms: number, run: () => void): void {
  const timer = setTimeout(() => {
    state.timers.delete(timer);
    run();
  }, ms);
  state.timers.add(timer);
}
