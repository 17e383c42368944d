import { CommitNotices, noticesOfEvent } from '../../src/adapters/persistence/commit-notices';
import type { OutboxEvent } from '../../src/core/events/outbox-event';

const event = (type: string, status?: string): OutboxEvent => ({
  id: '00000000-0000-4000-8000-000000000000', tenantId: 'ten_1', type: type as OutboxEvent['type'], entityId: 'pay_1',
  payload: status === undefined ? {} : { status }, createdAt: new Date(0),
});
const feed = { channel: 'payment_events', payload: '' };
const payouts = { channel: 'work_due', payload: 'payouts' };
const webhooks = { channel: 'work_due', payload: 'webhooks' };

/** The wake-ups sent after a commit, per event (docs/decisions.md § Performance). */
describe('noticesOfEvent', () => {
  it.each([
    ['payment.initiated', 'initiated', [feed, payouts]],
    ['payment.processing', 'provider_accepted', [feed, payouts, webhooks]],
    ['payment.succeeded', 'succeeded', [feed, webhooks]],
    ['payment.failed', 'failed', [feed, webhooks]],
    ['payment.refunded', 'refunded', [feed, webhooks]],
    ['customer.kyc.updated', undefined, [webhooks]],
  ])('%s (status %s)', (type, status, expected) => {
    expect(noticesOfEvent(event(type, status))).toEqual(expected);
  });

  it('a payment event without a status still wakes the feed, and no payout worker', () => {
    expect(noticesOfEvent(event('payment.initiated'))).toEqual([feed]);
  });

  it('deposit events notify inside their own transaction: none here', () => {
    expect(noticesOfEvent(event('deposit.credited', 'credited'))).toEqual([]);
  });

  it('an event that is neither a payment nor a webhook event wakes nothing', () => {
    expect(noticesOfEvent(event('refund.attempted'))).toEqual([]);
  });
});

describe('CommitNotices', () => {
  it('keeps each wake-up once, whatever the number of events', () => {
    const notices = new CommitNotices();
    notices.addEvent(event('payment.initiated', 'initiated'));
    notices.addEvent(event('payment.initiated', 'initiated'));
    notices.addEvent(event('payment.succeeded', 'succeeded'));
    expect(notices.values()).toEqual([feed, payouts, webhooks]);
  });

  it('holds nothing until an event is added', () => {
    expect(new CommitNotices().values()).toEqual([]);
  });
});
