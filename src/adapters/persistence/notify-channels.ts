import type { DepositView } from '../../core/deposits/deposit';
import type { OutboxEvent } from '../../core/events/outbox-event';

/**
 * The PostgreSQL NOTIFY channels this service writes to, and what each payload carries. Payment
 * changes and the work they make due are notified AFTER their transaction commits
 * (commit-notices.ts: a wake-up, never the data); deposit events and key revocations still notify
 * inside their transaction. The process's one listener (src/adapters/notifications) hands them to
 * their readers.
 */

/** NOTIFY channel carrying the id of each revoked API key (every replica drops it from its caches and closes its sockets). */
export const API_KEY_REVOKED_CHANNEL = 'api_key_revoked';

/**
 * NOTIFY channel telling every replica's workers that a queue got work due now (docs/decisions.md
 * § Performance): the payload names the queue (`payouts`, `webhooks`, `kyc`). Sent after the
 * commit that made the work due (a customer's `kyc` inside it).
 */
export const WORK_DUE_CHANNEL = 'work_due';

/**
 * PostgreSQL NOTIFY channel saying that payment events committed (docs/decisions.md § GraphQL):
 * sent after the commit, with an empty payload; every replica's live feed then reads the events
 * committed since the last ones it read (PaymentEventReader.eventsSince), in commit order. A
 * notice carries no data, so a lost, late or repeated one changes nothing but when the feed looks.
 */
export const PAYMENT_EVENTS_CHANNEL = 'payment_events';

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
