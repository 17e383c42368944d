import { MpesaPayoutProvider } from '../../src/adapters/providers/mpesa/mpesa-payout-provider';
import { startMpesaSimulator, type MpesaSimulator } from '../../simulators/mpesa/mpesa-simulator';
import {
  certificateFile, configOf, keKesPayment, mpesaEnv, startCallbackReceiver, type CallbackReceiver,
} from './mpesa-harness';

// The M-Pesa Daraja adapter against its protocol simulator, over real HTTP both ways
// (docs/decisions.md § Payments: states and events).
let sim: MpesaSimulator;
let receiver: CallbackReceiver;
let certPath: string;
let env: Record<string, string>;
let mpesa: MpesaPayoutProvider;
const providers: MpesaPayoutProvider[] = [];

function provider(extra: Record<string, string> = {}, now?: () => number): MpesaPayoutProvider {
  const created = MpesaPayoutProvider.create(configOf({ ...env, ...extra }), now ? { now } : {});
  providers.push(created);
  return created;
}
const transfersOf = (ocid: string) => sim.transfers().filter((t) => t.originatorConversationId === ocid);

beforeAll(async () => {
  sim = await startMpesaSimulator({ port: 0, delayedCallbackMs: 300 });
  certPath = certificateFile(sim);
  receiver = await startCallbackReceiver(() => configOf(env));
  env = mpesaEnv(sim, receiver.url, certPath);
  mpesa = provider();
});
afterAll(async () => {
  await Promise.all(providers.map((p) => p.close()));
  await receiver.close();
  await sim.close();
});

describe('submit and result callbacks', () => {
  it('B2C: accepted under the payment id, then a ResultCode 0 result succeeds with the receipt', async () => {
    const payment = keKesPayment();
    expect(await mpesa.submit(payment)).toEqual({ kind: 'accepted', providerRef: payment.id, recheckAfterMs: 60_000 });
    const [transfer] = transfersOf(payment.id);
    // ResultCode 0 also proves the SecurityCredential decrypted to the initiator password.
    expect(transfer).toMatchObject({ api: 'b2c', commandId: 'BusinessPayment', partyB: '254712345600', amount: '1500', resultCode: '0' });
    const got = await receiver.next(payment.id, 'result');
    expect(got.parsed).toMatchObject({
      ok: true, ack: { status: 200 },
      report: { provider: 'mpesa', paymentId: payment.id, outcome: { kind: 'succeeded', providerRef: transfer!.receipt } },
      observed: { amount: '1500', receipt: transfer!.receipt },
    });
  });

  it('PAYBILL goes by BusinessPayBill with the account reference, TILL by BusinessBuyGoods', async () => {
    const paybill = keKesPayment({ paymentMethod: 'PAYBILL', businessNumber: '888880', accountNumber: 'ACC-42' });
    const paid = await mpesa.submit(paybill);
    expect(paid.kind).toBe('accepted');
    const ocid = paid.kind === 'accepted' ? paid.providerRef : '';
    expect(transfersOf(ocid)).toEqual([expect.objectContaining({ api: 'b2b', commandId: 'BusinessPayBill', partyB: '888880', accountReference: 'ACC-42' })]);
    expect((await receiver.next(paybill.id, 'result')).parsed).toMatchObject({ ok: true, report: { outcome: { kind: 'succeeded' } }, observed: { amount: '1500.00' } });

    const till = keKesPayment({ paymentMethod: 'TILL', accountNumber: '5123400' });
    const tilled = await mpesa.submit(till);
    expect(transfersOf(tilled.kind === 'accepted' ? tilled.providerRef : '')).toEqual([expect.objectContaining({ commandId: 'BusinessBuyGoods', partyB: '5123400' })]);
    expect((await receiver.next(till.id, 'result')).parsed).toMatchObject({ ok: true, report: { outcome: { kind: 'succeeded' } } });
  });

  it('a non-zero ResultCode fails the payment, numeric or alphanumeric', async () => {
    const declined = keKesPayment({ last2: '11' });
    const unknownOperator = keKesPayment({ last2: '12' });
    expect((await mpesa.submit(declined)).kind).toBe('accepted');
    expect((await mpesa.submit(unknownOperator)).kind).toBe('accepted');
    expect((await receiver.next(declined.id, 'result')).parsed).toMatchObject({ ok: true, report: { outcome: { kind: 'failed', reason: expect.stringContaining('2040') } } });
    expect((await receiver.next(unknownOperator.id, 'result')).parsed).toMatchObject({ ok: true, report: { outcome: { kind: 'failed', reason: expect.stringContaining('SFC_IC0003') } } });
  });

  it('a wrong initiator password gives a SecurityCredential the simulator cannot open: result 2001', async () => {
    const payment = keKesPayment();
    expect((await provider({ MPESA_INITIATOR_PASSWORD: 'not-the-password' }).submit(payment)).kind).toBe('accepted');
    expect((await receiver.next(payment.id, 'result')).parsed).toMatchObject({ report: { outcome: { kind: 'failed', reason: expect.stringContaining('2001') } } });
  });

  it('a duplicated result callback parses to the same report both times', async () => {
    const payment = keKesPayment({ last2: '22' });
    await mpesa.submit(payment);
    const [first, second] = [await receiver.next(payment.id, 'result', 1), await receiver.next(payment.id, 'result', 2)];
    expect(first.parsed.ok && second.parsed.ok).toBe(true);
    expect(second.parsed).toEqual(first.parsed);
  });

  it('a delayed result comes after the acknowledgement, and says the same', async () => {
    const payment = keKesPayment({ last2: '21' });
    const acceptedAt = Date.now();
    expect((await mpesa.submit(payment)).kind).toBe('accepted');
    expect((await receiver.next(payment.id, 'result')).parsed).toMatchObject({ report: { outcome: { kind: 'succeeded' } } });
    expect(Date.now() - acceptedAt).toBeGreaterThanOrEqual(250);
  });

  it('a lost result is found by status(): a Transaction Status query whose result comes to the status callback', async () => {
    const payment = keKesPayment({ last2: '23' });
    const accepted = await mpesa.submit(payment);
    expect(accepted.kind).toBe('accepted');
    const asked = { ...payment, status: 'provider_accepted', providerRef: payment.id } as typeof payment;
    expect(await mpesa.status(asked)).toMatchObject({ kind: 'pending' });
    const got = await receiver.next(payment.id, 'status');
    expect(got.parsed).toMatchObject({ ok: true, report: { outcome: { kind: 'succeeded', providerRef: transfersOf(payment.id)[0]!.receipt } } });
    expect(receiver.got.filter((g) => g.paymentId === payment.id && g.kind === 'result')).toHaveLength(0);
  });

  it('a queue timeout asks for status at once, and status reads the expired transfer as failed', async () => {
    const payment = keKesPayment({ last2: '51' });
    await mpesa.submit(payment);
    expect((await receiver.next(payment.id, 'timeout')).parsed).toMatchObject({ ok: true, report: { outcome: { kind: 'pending', afterMs: 0 } } });
    await mpesa.status({ ...payment, providerRef: payment.id } as typeof payment);
    expect((await receiver.next(payment.id, 'status')).parsed).toMatchObject({ report: { outcome: { kind: 'failed', reason: 'M-Pesa transaction expired' } } });
  });
});

describe('never pay twice', () => {
  it('a submit that times out after the simulator recorded it is unknown; status finds it; a second submit pays nothing more', async () => {
    const payment = keKesPayment({ last2: '41' });
    expect(await mpesa.submit(payment)).toMatchObject({ kind: 'unknown' });
    expect(transfersOf(payment.id)).toHaveLength(1);
    await mpesa.status(payment);
    expect((await receiver.next(payment.id, 'status')).parsed).toMatchObject({ report: { outcome: { kind: 'succeeded' } } });
    expect(await mpesa.submit(payment)).toMatchObject({ kind: 'unknown', reason: expect.stringContaining('OriginatorConversationID') });
    const listed = (await (await fetch(`${sim.url}/__simulator/transfers`)).json()) as { transfers: Array<{ originatorConversationId: string }> };
    expect(listed.transfers.filter((t) => t.originatorConversationId === payment.id)).toHaveLength(1);
  });

  it('a connection reset after recording is unknown, not retry', async () => {
    const payment = keKesPayment({ last2: '42' });
    expect(await mpesa.submit(payment)).toMatchObject({ kind: 'unknown' });
    expect(transfersOf(payment.id)).toHaveLength(1);
  });

  it('a second submit of an accepted payment is recognised as the same transfer (Daraja refuses the duplicate id)', async () => {
    const payment = keKesPayment();
    expect((await mpesa.submit(payment)).kind).toBe('accepted');
    expect(await mpesa.submit(payment)).toMatchObject({ kind: 'unknown' });
    expect(transfersOf(payment.id)).toHaveLength(1);
  });

  it('a 5xx is unknown; a throttled B2C request is retry (its id guards a resend), a throttled B2B one unknown', async () => {
    expect(await mpesa.submit(keKesPayment({ last2: '31' }))).toMatchObject({ kind: 'unknown' });
    expect(await mpesa.submit(keKesPayment({ last2: '32' }))).toMatchObject({ kind: 'retry' });
    const control = await fetch(`${sim.url}/__simulator/faults`, { method: 'POST', body: JSON.stringify({ next: ['throttle'] }) });
    expect(control.status).toBe(200);
    expect(await mpesa.submit(keKesPayment({ paymentMethod: 'TILL', accountNumber: '5123400' }))).toMatchObject({ kind: 'unknown' });
  });

  it('a B2B payment whose submission was unknown stays pending: no id to query, never not_found', async () => {
    const payment = keKesPayment({ paymentMethod: 'PAYBILL', businessNumber: '888880', accountNumber: 'ACC-1' });
    expect(await mpesa.status(payment)).toMatchObject({ kind: 'pending' });
  });

  it('no connection is retry; amounts and recipients M-Pesa cannot carry are rejected before sending', async () => {
    const before = sim.transfers().length;
    const offline = provider({ MPESA_BASE_URL: 'http://127.0.0.1:9' });
    expect(await offline.submit(keKesPayment())).toMatchObject({ kind: 'retry' });
    expect(await mpesa.submit(keKesPayment({ fiatAmount: '1500.50' }))).toMatchObject({ kind: 'rejected', reason: expect.stringContaining('whole shillings') });
    expect(await mpesa.submit(keKesPayment({ fiatAmount: '5' }))).toMatchObject({ kind: 'rejected' });
    expect(await mpesa.submit(keKesPayment({ paymentCode: 'AIRTEL' }))).toMatchObject({ kind: 'rejected' });
    expect(await mpesa.submit(keKesPayment({ paymentMethod: 'BANK', paymentCode: '01' }))).toMatchObject({ kind: 'rejected' });
    expect(await mpesa.submit(keKesPayment({ paymentMethod: 'PAYBILL', businessNumber: '888880', accountNumber: 'A'.repeat(14) }))).toMatchObject({ kind: 'rejected' });
    // Daraja's own validation (400.002.02): a PartyA it does not know.
    expect(await provider({ MPESA_SHORTCODE: '123456' }).submit(keKesPayment())).toMatchObject({ kind: 'rejected', reason: expect.stringContaining('PartyA') });
    expect(sim.transfers().length).toBe(before);
  });
});

describe('synchronous acknowledgement: HTTP 200 with a non-zero ResponseCode', () => {
  // The codes of Daraja's error table (https://developer.safaricom.co.ke/apis/AccountBalance, ApiResponse).
  it.each(['24', '25', '29', '100000005', '100000010'])('ResponseCode %s refuses the request on validation: rejected, nothing recorded', async (code) => {
    sim.queueResponseCodes(code);
    const payment = keKesPayment();
    expect(await mpesa.submit(payment)).toEqual({ kind: 'rejected', reason: `M-Pesa refused the request (ResponseCode ${code})` });
    expect(transfersOf(payment.id)).toHaveLength(0);
  });

  it.each(['17', '26', '100000001', '100000002', '100000004', '100000007', '100000009', '100000011', '4242'])(
    'ResponseCode %s may still be processed (or is not documented): unknown, never retry or rejected', async (code) => {
      sim.queueResponseCodes(code);
      expect(await mpesa.submit(keKesPayment())).toEqual({ kind: 'unknown', reason: `Daraja answered ResponseCode ${code}` });
    },
  );

  it('ResponseCode 100000000 (cached, waiting for resending) is unknown, and the cached request is indeed paid later', async () => {
    const payment = keKesPayment({ last2: '33' });
    expect(await mpesa.submit(payment)).toEqual({ kind: 'unknown', reason: 'Daraja answered ResponseCode 100000000' });
    expect((await receiver.next(payment.id, 'result')).parsed).toMatchObject({ ok: true, report: { outcome: { kind: 'succeeded' } } });
    expect(transfersOf(payment.id)).toHaveLength(1);
  });

  it('B2B too: a cached request is unknown, a refused one rejected (PartyB digits 33 and 34)', async () => {
    const before = sim.transfers().length;
    expect(await mpesa.submit(keKesPayment({ paymentMethod: 'TILL', accountNumber: '5123433' }))).toMatchObject({ kind: 'unknown' });
    expect(await mpesa.submit(keKesPayment({ paymentMethod: 'TILL', accountNumber: '5123434' }))).toEqual({
      kind: 'rejected', reason: 'M-Pesa refused the request (ResponseCode 100000005)',
    });
    expect(sim.transfers().length - before).toBe(1);
  });

  it('the control endpoint queues ResponseCodes over HTTP and refuses anything else', async () => {
    const set = (body: unknown) => fetch(`${sim.url}/__simulator/faults`, { method: 'POST', body: JSON.stringify(body) });
    expect((await set({ responseCodes: [29] })).status).toBe(400);
    expect((await set({ responseCodes: ['0'] })).status).toBe(400);
    expect((await set({ responseCodes: ['29'] })).status).toBe(200);
    expect(await mpesa.submit(keKesPayment())).toMatchObject({ kind: 'rejected' });
  });
});

describe('access token', () => {
  it('one token serves many calls, and a new one is fetched before it expires', async () => {
    let clock = Date.now();
    const client = provider({}, () => clock);
    const before = sim.tokensIssued();
    await Promise.all([1, 2, 3].map(() => client.submit(keKesPayment())));
    for (const _ of [1, 2, 3]) expect((await client.submit(keKesPayment())).kind).toBe('accepted');
    expect(sim.tokensIssued() - before).toBe(1);
    clock += 3599_000 - 30_000;
    expect((await client.submit(keKesPayment())).kind).toBe('accepted');
    expect(sim.tokensIssued() - before).toBe(2);
  });

  it('a token Daraja refuses (another app instance took a newer one) is replaced once and the request sent again', async () => {
    const a = provider();
    const b = provider();
    expect((await a.submit(keKesPayment())).kind).toBe('accepted');
    expect((await b.submit(keKesPayment())).kind).toBe('accepted'); // invalidates a's token
    const payment = keKesPayment();
    expect(await a.submit(payment)).toEqual({ kind: 'accepted', providerRef: payment.id, recheckAfterMs: 60_000 });
    expect(transfersOf(payment.id)).toHaveLength(1);
  });
});
