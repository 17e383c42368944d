import { randomUUID } from 'node:crypto';
import { gql } from '../support/graphql-client';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

/**
 * A failed or refunded payment carries `failureCode` beside `failureReason` (docs/api.md § Failure
 * codes) on every surface: REST reads and lists, GraphQL (`Payment.failureCode`, the timeline's
 * entries), and the webhook's `data`. The sandbox ends payments by the account number's last four
 * digits (docs/decisions.md § Sandbox values): 0000 rejected, 1111 failed, 2222 refunded.
 */
describe('failure codes over REST, GraphQL and webhooks', () => {
  let service: TestService;
  let hook: Receiver;
  let apiKey: string;

  beforeAll(async () => {
    service = await startTestService({ WEBHOOK_RETRY_SCHEDULE_MS: '0,50,50' });
    hook = await startReceiver();
    ({ apiKey } = await service.newTenant());
    expect((await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: hook.url } })).status).toBe(201);
  });
  afterAll(async () => {
    await service.close();
    await hook.close();
  });

  /** A sandbox payment to an account ending `magic`, once it is final, as REST reads it. */
  async function ended(magic: string): Promise<Record<string, unknown>> {
    const created = await service.call('POST', '/v1/payments/moneyout', {
      apiKey, body: moneyOutBody({ accountNumber: `25471234${magic}` }), headers: { 'idempotency-key': randomUUID() },
    });
    expect([created.status, created.body.failureCode]).toEqual([201, null]);
    return eventually(async () => {
      const res = await service.call('GET', `/v1/payments/${created.body.id}`, { apiKey });
      return ['succeeded', 'failed', 'refunded'].includes(res.body.status) ? res.body : undefined;
    });
  }

  /** The `data` of the webhook of `type` about `paymentId`, once delivered. */
  const delivered = (paymentId: string, type: string) => eventually(async () => hook.received
    .map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> })
    .find((event) => event.type === type && event.data.id === paymentId)?.data);

  it.each([
    ['0000', 'failed', 'payment.failed', 'recipient_account_invalid', 'RECIPIENT_ACCOUNT_INVALID'],
    ['1111', 'failed', 'payment.failed', 'declined', 'DECLINED'],
    ['2222', 'refunded', 'payment.refunded', 'reversed', 'REVERSED'],
  ])('an account ending %s ends %s with its code on every surface', async (magic, status, eventType, code, enumName) => {
    const payment = await ended(magic);
    expect(payment).toMatchObject({ status, failureReason: expect.any(String), failureCode: code });

    const listed = await service.call('GET', `/v1/payments?reference=${encodeURIComponent(String(payment.reference))}`, { apiKey });
    expect(listed.body).toEqual([payment]);

    const read = await gql(service.baseUrl, `query P($id: ID!) {
      payment(id: $id) { status failureReason failureCode }
      paymentTimeline(id: $id) { events { status failureReason failureCode } }
    }`, { id: payment.id }, apiKey);
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.payment).toEqual({ status: status.toUpperCase(), failureReason: payment.failureReason, failureCode: enumName });
    const last = read.body.data.paymentTimeline.events.at(-1);
    expect(last).toEqual({ status: status.toUpperCase(), failureReason: payment.failureReason, failureCode: enumName });
    expect(read.body.data.paymentTimeline.events[0]).toMatchObject({ status: 'INITIATED', failureCode: null });

    // The payment's events carry it without its refund, which has events of its own (docs/api.md § Refunds).
    const { refund: _refund, ...data } = payment;
    expect(await delivered(String(payment.id), eventType)).toEqual(data);
  });

  it('a succeeded payment has no failure code anywhere, its events included', async () => {
    const payment = await ended('5678');
    expect(payment).toMatchObject({ status: 'succeeded', failureReason: null, failureCode: null });
    const { refund: _refund, ...data } = payment;
    expect(await delivered(String(payment.id), 'payment.succeeded')).toEqual(data);
    const read = await gql(service.baseUrl, 'query P($id: ID!) { payment(id: $id) { failureCode } }', { id: payment.id }, apiKey);
    expect(read.body.data.payment).toEqual({ failureCode: null });
  });

  it('the schema lists every code of the closed set, in order', async () => {
    const res = await gql(service.baseUrl, '{ __type(name: "PaymentFailureCode") { enumValues { name } } }', {}, apiKey);
    expect(res.body.data.__type.enumValues.map((v: { name: string }) => v.name)).toEqual([
      'RECIPIENT_ACCOUNT_INVALID', 'LIMIT_EXCEEDED', 'INSUFFICIENT_PROVIDER_BALANCE', 'DECLINED', 'EXPIRED', 'REVERSED',
      'UNSUPPORTED_BY_PROVIDER', 'PROVIDER_ERROR', 'UNKNOWN', 'COMPLIANCE_REJECTED',
    ]);
  });
});
