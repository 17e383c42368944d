import { createHmac } from 'node:crypto';
import { ulid } from 'ulid';
import { startMpesaSimulator, type MpesaSimulator } from '../../simulators/mpesa/mpesa-simulator';
import { certificateFile, mpesaEnv, PATH_SECRET } from '../providers/mpesa-harness';
import { callbackCount, sqlOf } from '../support/provider-e2e';
import { eventually, startTestService, type TestService } from '../support/test-service';

const PAYSTACK_KEY = 'sk_test_callbackdedupe0123456789';

/** POSTs a Paystack webhook whose raw body is `body`, signed with PAYSTACK_KEY. */
function postPaystack(service: TestService, body: string): Promise<Response> {
  const signature = createHmac('sha512', PAYSTACK_KEY).update(body).digest('hex');
  return fetch(`${service.baseUrl}/callbacks/paystack`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-paystack-signature': signature } });
}

/** A transfer event about `paymentId` (no such payment is stored: applying it answers unknown_payment). */
const transferEvent = (paymentId: string, event: string, status: string, extra: Record<string, unknown> = {}) => JSON.stringify({
  event, data: { amount: 150000, currency: 'NGN', reference: paymentId.toLowerCase(), status, transfer_code: `TRF_${paymentId.slice(-8)}`, ...extra },
});

/** The stored provider events of a payment: outcome and verdict, oldest first. */
async function eventsOf(service: TestService, paymentId: string): Promise<Array<{ id: string; outcome: string | null; verdict: string }>> {
  return sqlOf(service)('select id, outcome, verdict from provider_events where payment_id = ? order by received_at', [paymentId]);
}

const newPaymentId = () => `pay_${ulid()}`;

describe('provider callbacks are stored once (Paystack)', () => {
  let service: TestService;
  let admin: string;
  beforeAll(async () => {
    service = await startTestService({ PAYSTACK_SECRET_KEY: PAYSTACK_KEY, PAYSTACK_BASE_URL: 'http://127.0.0.1:1', PAYSTACK_WEBHOOK_ALLOWED_IPS: '127.0.0.1' });
    admin = await service.newAdminKey();
  });
  afterAll(() => service.close());

  it('the same signed body again is acknowledged alike and not stored again, nor applied again', async () => {
    const paymentId = newPaymentId();
    const body = transferEvent(paymentId, 'transfer.success', 'success');
    const unknownBefore = await callbackCount(service, admin, 'paystack', 'unknown_payment');
    const first = await postPaystack(service, body);
    expect([first.status, await first.text()]).toEqual([200, 'OK']);
    await eventually(async () => ((await eventsOf(service, paymentId))[0]?.verdict === 'unknown_payment' ? true : undefined));
    const duplicatesBefore = await callbackCount(service, admin, 'paystack', 'duplicate');
    for (let i = 0; i < 3; i++) {
      const again = await postPaystack(service, body);
      expect([again.status, await again.text()]).toEqual([200, 'OK']);
    }
    expect(await eventsOf(service, paymentId)).toEqual([{ id: expect.any(String), outcome: 'succeeded', verdict: 'unknown_payment' }]);
    expect(await callbackCount(service, admin, 'paystack', 'duplicate')).toBe(duplicatesBefore + 3);
    expect(await callbackCount(service, admin, 'paystack', 'unknown_payment')).toBe(unknownBefore + 1);
  });

  it('the same provider event in another body (Paystack sends no event id: transfer code and event name) is stored once; another event of the transfer is stored', async () => {
    const paymentId = newPaymentId();
    expect((await postPaystack(service, transferEvent(paymentId, 'transfer.success', 'success'))).status).toBe(200);
    const reworded = await postPaystack(service, transferEvent(paymentId, 'transfer.success', 'success', { gateway_response: 'Approved', created_at: '2026-01-01T00:00:00Z' }));
    expect(reworded.status).toBe(200);
    expect((await eventsOf(service, paymentId)).map((e) => e.outcome)).toEqual(['succeeded']);
    expect((await postPaystack(service, transferEvent(paymentId, 'transfer.reversed', 'reversed'))).status).toBe(200);
    expect((await eventsOf(service, paymentId)).map((e) => e.outcome)).toEqual(['succeeded', 'refunded']);
  });

  it('deliveries of one message at once store one row', async () => {
    const paymentId = newPaymentId();
    const body = transferEvent(paymentId, 'transfer.failed', 'failed');
    const answers = await Promise.all(Array.from({ length: 10 }, () => postPaystack(service, body)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(await eventsOf(service, paymentId)).toHaveLength(1);
  });

  it('an event that concerns none of our payouts is stored once too', async () => {
    const body = JSON.stringify({ event: 'charge.success', data: { reference: `dedupe-${ulid()}` } });
    const count = async () => Number((await sqlOf(service)<{ n: string }>(
      "select count(*) as n from provider_events where provider = 'paystack' and verdict = 'not_ours'"))[0]!.n);
    const before = await count();
    for (let i = 0; i < 3; i++) expect((await postPaystack(service, body)).status).toBe(200);
    expect(await count()).toBe(before + 1);
  });

  it('a message stored but never applied (its process died first) is applied when the provider sends it again', async () => {
    const paymentId = newPaymentId();
    const body = transferEvent(paymentId, 'transfer.success', 'success');
    expect((await postPaystack(service, body)).status).toBe(200);
    await eventually(async () => ((await eventsOf(service, paymentId))[0]?.verdict === 'unknown_payment' ? true : undefined));
    // As a crash between storing and applying would leave it.
    await sqlOf(service)("update provider_events set verdict = 'received' where payment_id = ?", [paymentId]);
    expect((await postPaystack(service, body)).status).toBe(200);
    await eventually(async () => ((await eventsOf(service, paymentId))[0]?.verdict === 'unknown_payment' ? true : undefined));
    expect(await eventsOf(service, paymentId)).toHaveLength(1);
  });
});

describe('provider callbacks are stored once (M-Pesa: the path names the payment)', () => {
  let sim: MpesaSimulator;
  let service: TestService;
  beforeAll(async () => {
    sim = await startMpesaSimulator();
    service = await startTestService(mpesaEnv(sim, 'http://127.0.0.1:1/callbacks/mpesa', certificateFile(sim)));
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  it('one body on two payments\' paths is two messages; on the same path again, one', async () => {
    const [a, b] = [newPaymentId(), newPaymentId()];
    // Daraja documents no QueueTimeOutURL body: the same one may well come for every payment.
    const timeout = (paymentId: string) => fetch(`${service.baseUrl}/callbacks/mpesa/${PATH_SECRET}/timeout/${paymentId}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"Result":{"ResultCode":"SFC_IC0003"}}',
    });
    for (const paymentId of [a, b, a, b, a]) expect((await timeout(paymentId)).status).toBe(200);
    expect((await eventsOf(service, a)).map((e) => e.outcome)).toEqual(['pending']);
    expect((await eventsOf(service, b)).map((e) => e.outcome)).toEqual(['pending']);
  });
});
