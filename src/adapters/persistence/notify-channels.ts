import type { DepositView } from '../../core/deposits/deposit';
import type { OutboxEvent } from '../../core/events/outbox-event';

/**
 * The PostgreSQL NOTIFY channels this service writes to, and what each payload carries. Persistence
 * sends them inside the transaction that makes the change, so they are heard when, and only if, it
 * commits; the process's one listener (src/adapters/notifications) hands them to their readers.
 */

/** NOTIFY channel carrying the id of each revoked API key (every replica drops it from its caches and closes its sockets). */
export const API_KEY_REVOKED_CHANNEL = 'api_key_revoked';

/**
 * NOTIFY channel telling every replica's workers that a queue got work due now (docs/decisions.md
 * § Performance): the payload names the queue (`webhooks`, `kyc`). Payment changes need none: their
 * PAYMENT_EVENTS_CHANNEL notice wakes the payout and webhook workers.
 */
export const WORK_DUE_CHANNEL = 'work_due';

/**
 * PostgreSQL NOTIFY channel of committed payment changes (docs/decisions.md § GraphQL): the outbox
 * writer notifies it inside the transaction that changes a payment, so every replica's listener
 * hears it when, and only if, that transaction commits.
 */
export const PAYMENT_EVENTS_CHANNEL = 'payment_events';

/**
 * What a payment NOTIFY carries: ids only, well under PostgreSQL's 8000-byte payload limit. The
 * listener loads the payment view from the outbox row `id` (the view as of that event).
 */
export interface PaymentEventNotice {
  /** Outbox event id (uuid). */
  readonly id: string;
  readonly tenantId: string;
  readonly paymentId: string;
  /** The payment's status after this event. */
  readonly status: string;
}

/** The NOTIFY payload for `event`, or undefined when it is not a payment event. Pure. */
export function paymentEventNotice(event: OutboxEvent): string | undefined {
  if (!event.type.startsWith('payment.')) return undefined;
  const notice: PaymentEventNotice = {
    id: event.id, tenantId: event.tenantId, paymentId: event.entityId, status: String(event.payload.status ?? ''),
  };
  return JSON.stringify(notice);
}

/** Parses a NOTIFY payload; undefined when it is not a well-formed notice (it is then ignored). */
export function parsePaymentEventNotice(payload: string): PaymentEventNotice | undefined {
  try {
    const value = JSON.parse(payload) as Partial<PaymentEventNotice>;
    const fields = [value.id, value.tenantId, value.paymentId, value.status];
    return fields.every((f) => typeof f === 'string' && f.length > 0) ? (value as PaymentEventNotice) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * PostgreSQL NOTIFY channel of committed deposit changes (docs/decisions.md § Onchain deposits):
 * the outbox writer notifies it in the transaction of each deposit event, so every replica's
 * listener hears it when, and only if, that transaction commits. It feeds the `depositUpdated`
 * subscription and wakes the webhook workers.
 */
export const DEPOSIT_EVENTS_CHANNEL = 'deposit_events';

/** What a deposit NOTIFY carries: the tenant and the deposit as its event shows it (well under 8000 bytes: every field is bounded). */
export interface DepositEventNotice {
  readonly tenantId: string;
  readonly deposit: DepositView;
}

/** The NOTIFY payload for `event`, or undefined when it is not a deposit event. Pure. */
export function depositEventNotice(event: OutboxEvent): string | undefined {
  if (!event.type.startsWith('deposit.')) return undefined;
  const notice: DepositEventNotice = { tenantId: event.tenantId, deposit: event.payload as unknown as DepositView };
  return JSON.stringify(notice);
}

/** Parses a deposit NOTIFY payload; undefined when it is not a well-formed notice (it is then ignored). */
export function parseDepositEventNotice(payload: string): DepositEventNotice | undefined {
  try {
    const value = JSON.parse(payload) as Partial<DepositEventNotice>;
    const deposit = value.deposit as Partial<DepositView> | undefined;
    const ok = typeof value.tenantId === 'string' && typeof deposit?.id === 'string' && typeof deposit.status === 'string';
    return ok ? (value as DepositEventNotice) : undefined;
  } catch {
    return undefined;
  }
}
