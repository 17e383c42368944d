import {
  maskRecipient, MAX_RECIPIENT_BATCH, paymentRecipients, webhookHealth, WEBHOOK_HEALTH_WINDOW_HOURS,
  type OperationsReader, type PaymentRecipientRow, type WebhookHealthRow,
} from '../../src/core/operations/operations-reads';

/** The operations console's reads (docs/decisions.md § Operations console), on a fake reader port. */
function reader(rows: { recipients?: PaymentRecipientRow[]; health?: WebhookHealthRow[] }): OperationsReader & { calls: unknown[][] } {
  const calls: unknown[][] = [];
  return {
    calls,
    async recipients(tenantId, ids) {
      calls.push(['recipients', tenantId, [...ids]]);
      return (rows.recipients ?? []).filter((r) => ids.includes(r.paymentId));
    },
    async paymentEvents() {
      return [];
    },
    async webhookHealth(tenantId, since) {
      calls.push(['webhookHealth', tenantId, since]);
      return rows.health ?? [];
    },
  };
}

describe('maskRecipient', () => {
  it.each([
    ['254712345678', '••••5678'],
    ['123456', '••••3456'],
    ['12345', '••••2345'],
    ['1234', '••••'],
    ['', '••••'],
  ])('%s shows as %s: never more than the last 4 characters, none of a number that short', (number, shown) => {
    expect(maskRecipient(number)).toBe(shown);
  });
});

describe('paymentRecipients', () => {
  const row = (paymentId: string, accountNumber: string): PaymentRecipientRow => ({ paymentId, country: 'KE', paymentMethod: 'MOMO', accountNumber });

  it('answers in the order asked, masked, undefined for an id the tenant does not have', async () => {
    const operations = reader({ recipients: [row('pay_B', '254700001111'), row('pay_A', '254700002222')] });
    const result = await paymentRecipients({ operations }, 'ten_1', ['pay_A', 'pay_X', 'pay_B']);
    expect(result).toEqual({ ok: true, value: [
      { paymentId: 'pay_A', country: 'KE', recipient: '••••2222' },
      undefined,
      { paymentId: 'pay_B', country: 'KE', recipient: '••••1111' },
    ] });
    expect(operations.calls).toEqual([['recipients', 'ten_1', ['pay_A', 'pay_X', 'pay_B']]]);
  });

  it('refuses more than a page of ids and reads nothing', async () => {
    const operations = reader({});
    const ids = Array.from({ length: MAX_RECIPIENT_BATCH + 1 }, (_, i) => `pay_${i}`);
    const result = await paymentRecipients({ operations }, 'ten_1', ids);
    expect(result).toMatchObject({ ok: false, code: 'validation_error' });
    expect(operations.calls).toEqual([]);
  });
});

describe('webhookHealth', () => {
  const health = (url: string, figures: Partial<WebhookHealthRow>): WebhookHealthRow => ({
    webhookId: url, url, status: 'active', failed: 0, retrying: 0, delivered: 0, lastError: null, lastErrorAt: null, ...figures,
  });

  it('looks back the window from the clock, and lists failing endpoints first, newest error first', async () => {
    const now = new Date('2026-11-23T12:00:00Z');
    const operations = reader({ health: [
      health('https://b.example/ok', { delivered: 5 }),
      health('https://a.example/ok', { delivered: 1 }),
      health('https://old.example/fails', { failed: 1, lastError: 'HTTP 500', lastErrorAt: new Date('2026-11-23T09:00:00Z') }),
      health('https://new.example/retries', { retrying: 2, lastError: 'timeout', lastErrorAt: new Date('2026-11-23T11:00:00Z') }),
      health('https://gone.example/', { status: 'disabled' }),
    ] });
    const views = await webhookHealth({ operations, clock: { now: () => now } }, 'ten_1');
    expect(operations.calls).toEqual([['webhookHealth', 'ten_1', new Date(now.getTime() - WEBHOOK_HEALTH_WINDOW_HOURS * 3_600_000)]]);
    expect(views.map((v) => [v.url, v.failing])).toEqual([
      ['https://new.example/retries', true],
      ['https://old.example/fails', true],
      ['https://gone.example/', true],
      ['https://a.example/ok', false],
      ['https://b.example/ok', false],
    ]);
    expect(views[0]).toMatchObject({ lastError: 'timeout', lastErrorAt: '2026-11-23T11:00:00.000Z' });
  });
});
