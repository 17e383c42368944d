import { WEBHOOK_EVENT_TYPES, type OutboxEvent } from '../../core/events/outbox-event';
import type { PaymentStatus } from '../../core/payments/payment';
import { isFinal } from '../../core/payments/payment-state';
import { PAYMENT_EVENTS_CHANNEL, WORK_DUE_CHANNEL } from './notify-channels';

/** One wake-up sent after a commit: a NOTIFY channel and its payload (a short word, never data). */
export interface ChannelNotice {
  readonly channel: string;
  readonly payload: string;
}

/**
 * Where a committed transaction's wake-ups go (docs/decisions.md § Performance: NOTIFY after
 * commit): to this process's listeners at once and to every other replica's by NOTIFY. Called only
 * after the commit succeeded, never inside the transaction; it must not throw (a lost wake-up only
 * delays: readers also look on their own schedule).
 */
export interface AfterCommitNotifier {
  notify(notices: Iterable<ChannelNotice>): void;
}

/** A notifier that sends nothing (tests and tools that write without listeners). */
export const NO_NOTIFIER: AfterCommitNotifier = { notify: () => undefined };

/**
 * The wake-ups one transaction collects while it writes, each kept once, sent after it commits by
 * whoever runs the transaction (the units of work, the one-trip writer). Dropped on rollback.
 */
export class CommitNotices {
  private readonly byKey = new Map<string, ChannelNotice>();

  /** Adds the wake-ups `event` calls for (noticesOfEvent). */
  addEvent(event: OutboxEvent): void {
    for (const notice of noticesOfEvent(event)) this.byKey.set(`${notice.channel}\u0000${notice.payload}`, notice);
  }

  /** The collected wake-ups, each once. */
  values(): ChannelNotice[] {
    return [...this.byKey.values()];
  }
}

/**
 * The wake-ups a committed outbox event calls for. Pure. A payment event: PAYMENT_EVENTS_CHANNEL
 * (the live feeds read the committed events), `payouts` on WORK_DUE_CHANNEL while its status can
 * still move, `webhooks` when its type is a webhook event (its deliveries were written with it).
 * Another webhook event: `webhooks`. A deposit event: none here (it notifies inside its own
 * transaction, with the deposit as payload: docs/decisions.md § Onchain deposits).
 */
export function noticesOfEvent(event: OutboxEvent): ChannelNotice[] {
  if (event.type.startsWith('deposit.')) return [];
  const notices: ChannelNotice[] = [];
  if (event.type.startsWith('payment.')) {
    notices.push({ channel: PAYMENT_EVENTS_CHANNEL, payload: '' });
    const status = event.payload.status;
    if (typeof status === 'string' && !isFinal(status as PaymentStatus)) notices.push({ channel: WORK_DUE_CHANNEL, payload: 'payouts' });
  }
  if ((WEBHOOK_EVENT_TYPES as readonly string[]).includes(event.type)) notices.push({ channel: WORK_DUE_CHANNEL, payload: 'webhooks' });
  return notices;
}
