import { request } from 'undici';
import { transferReferenceOf } from '../../src/adapters/providers/mtn-momo/mtn-momo-wire';
import type { SimTransfer } from '../../simulators/mtn-momo/mtn-momo-sim-ledger';
import { momoPayment, startMomoHarness, waitFor, withMomoHarness, type MomoHarness } from './support/mtn-momo-harness';

// The MTN MoMo adapter against its protocol simulator over real HTTP (adapter ⇄ simulator ⇄ callback endpoint).
describe('MTN MoMo Disbursements adapter', () => {
  let h: MomoHarness;
  beforeAll(async () => {
    h = await startMomoHarness();
  });
  afterAll(() => h.close());

  const settled = (paymentId: string) => waitFor<[SimTransfer]>(h.sim.events, 'settled', (t) => t.externalId === paymentId);
  const callbackFor = (paymentId: string) => waitFor(h.callbackEvents, 'result', (r: any) => r.ok && r.report.paymentId === paymentId);
  const heldFor = (paymentId: string) => h.sim.transfers().filter((t) => t.externalId === paymentId);

  it('success: 202 accepted, the callback reports succeeded, status agrees; the request is MTN-shaped', async () => {
    const payment = momoPayment('00');
    const callback = callbackFor(payment.id);
    const ref = transferReferenceOf(payment.id);
    expect(await h.provider.submit(payment)).toEqual({ kind: 'accepted', providerRef: ref });
    const [result] = await callback;
    expect(result).toMatchObject({ ok: true, ack: { status: 200 }, report: { provider: 'mtn_momo', paymentId: payment.id, outcome: { kind: 'succeeded', providerRef: ref } } });
    expect(await h.provider.status(payment)).toEqual({ kind: 'succeeded', providerRef: ref });
    const [held] = heldFor(payment.id);
    // Sandbox currency by configuration; UGX has no minor unit; MSISDN without '+'; no apostrophe sent.
    expect(held).toMatchObject({ referenceId: ref, amount: '15000', currency: 'EUR', payee: { partyIdType: 'MSISDN', partyId: payment.accountNumber.slice(1) }, payeeNote: 'Invoice 42s payout' });
    expect(ref).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(transferReferenceOf(payment.id)).toBe(ref);
  });

  it('failure: FAILED with a string or an object reason maps to failed with the reason', async () => {
    const notFound = momoPayment('10');
    const noFunds = momoPayment('11');
    const callbacks = Promise.all([callbackFor(notFound.id), callbackFor(noFunds.id)]);
    expect((await h.provider.submit(notFound)).kind).toBe('accepted');
    expect((await h.provider.submit(noFunds)).kind).toBe('accepted');
    const [[a], [b]] = (await callbacks) as any;
    expect(a.report.outcome).toEqual({ kind: 'failed', reason: expect.stringContaining('(PAYEE_NOT_FOUND)') });
    expect(b.report.outcome).toEqual({ kind: 'failed', reason: expect.stringContaining('(NOT_ENOUGH_FUNDS)') });
    expect(await h.provider.status(noFunds)).toEqual(b.report.outcome);
  });

  it('a duplicated callback parses twice to the same report', async () => {
    const payment = momoPayment('21');
    const both = waitFor(h.sim.events, 'callback', (t: SimTransfer) => t.externalId === payment.id && t.callbacksSent === 2);
    await h.provider.submit(payment);
    await both; // the simulator saw both answers, so the endpoint parsed both
    const mine = h.callbacks.filter((r) => r.ok && r.report.paymentId === payment.id);
    expect(mine).toHaveLength(2);
    expect(mine[1]).toEqual(mine[0]);
  });

  it('a delayed callback arrives after status() already answered, with the same outcome', async () => {
    const payment = momoPayment('20');
    const late = callbackFor(payment.id);
    const done = settled(payment.id);
    await h.provider.submit(payment);
    await done;
    const polled = await h.provider.status(payment);
    expect(h.callbacks.some((r) => r.ok && r.report.paymentId === payment.id)).toBe(false);
    const [result] = (await late) as any;
    expect(result.report.outcome).toEqual(polled);
  });

  it('a lost callback is resolved by status()', async () => {
    const payment = momoPayment('22');
    const done = settled(payment.id);
    expect((await h.provider.submit(payment)).kind).toBe('accepted');
    await done;
    expect(await h.provider.status(payment)).toEqual({ kind: 'succeeded', providerRef: transferReferenceOf(payment.id) });
    expect(h.callbacks.some((r) => r.ok && r.report.paymentId === payment.id)).toBe(false);
  });

  it('a submit that times out after the simulator recorded it is unknown; status finds it; a resubmit is the same transfer', async () => {
    const payment = momoPayment('40');
    const done = settled(payment.id);
    const outcome = await h.provider.submit(payment);
    expect(outcome.kind).toBe('unknown');
    await done;
    expect((await h.provider.status(payment)).kind).toBe('succeeded');
    expect(await h.provider.submit(payment)).toEqual({ kind: 'accepted', providerRef: transferReferenceOf(payment.id) });
    expect(heldFor(payment.id)).toHaveLength(1);
  });

  it('a submit lost before recording is unknown, status says not_found, and sending again pays once', async () => {
    const payment = momoPayment('00');
    await control({ submit: 'hang_unrecorded' });
    expect((await h.provider.submit(payment)).kind).toBe('unknown');
    await control({ submit: null, releaseHeld: true });
    expect(await h.provider.status(payment)).toEqual({ kind: 'not_found' });
    expect((await h.provider.submit(payment)).kind).toBe('accepted');
    expect(heldFor(payment.id)).toHaveLength(1);
  });

  it('5xx: INTERNAL_PROCESSING_ERROR is unknown whether or not MTN recorded the transfer', async () => {
    const before = momoPayment('30');
    const after = momoPayment('31');
    expect((await h.provider.submit(before)).kind).toBe('unknown');
    expect(await h.provider.status(before)).toEqual({ kind: 'not_found' });
    expect((await h.provider.submit(after)).kind).toBe('unknown');
    expect((await h.provider.status(after)).kind).not.toBe('not_found');
    expect(heldFor(after.id)).toHaveLength(1);
  });

  it('a second submit of the same payment is the same transfer (409 RESOURCE_ALREADY_EXIST confirmed by GET)', async () => {
    const payment = momoPayment('50');
    const first = await h.provider.submit(payment);
    expect(await h.provider.submit(payment)).toEqual(first);
    expect(heldFor(payment.id)).toHaveLength(1);
    expect(await h.provider.status(payment)).toEqual({ kind: 'pending', afterMs: 1000, providerRef: transferReferenceOf(payment.id) });
  });

  it('409 whose follow-up GET finds nothing (404) is unknown, never retry: MTN said the reference exists', async () => {
    const payment = momoPayment('61');
    expect(await h.provider.submit(payment)).toEqual({
      kind: 'unknown', reason: 'MTN MoMo answered HTTP 409 RESOURCE_ALREADY_EXIST and the transfer\'s status is not available',
    });
    expect(await h.provider.status(payment)).toEqual({ kind: 'not_found' });
    expect(heldFor(payment.id)).toHaveLength(0);
  });

  it('409 whose follow-up GET fails (500) is unknown too', async () => {
    const payment = momoPayment('50');
    expect((await h.provider.submit(payment)).kind).toBe('accepted');
    await control({ statusQuery: 'error_500' });
    try {
      expect(await h.provider.submit(payment)).toMatchObject({ kind: 'unknown', reason: expect.stringContaining('HTTP 409') });
    } finally {
      await control({ statusQuery: null });
    }
    expect(heldFor(payment.id)).toHaveLength(1);
  });

  it('400 from MTN, confirmed absent by GET, is rejected; amounts and numbers the rail cannot carry are rejected unsent', async () => {
    expect(await h.provider.submit(momoPayment('60'))).toEqual({ kind: 'rejected', reason: expect.stringContaining('HTTP 400') });
    const cases = [
      momoPayment('00', { fiatAmount: '15000.5' }),
      momoPayment('00', { accountNumber: '+233241234500' }),
      momoPayment('00', { country: 'KE', destinationCurrency: 'KES', paymentCode: 'MPESA' }),
      momoPayment('00', { destinationCurrency: 'GHS' }),
    ];
    for (const payment of cases) {
      expect((await h.provider.submit(payment)).kind).toBe('rejected');
      expect(heldFor(payment.id)).toHaveLength(0);
    }
  });

  it('token: one token request for many calls, a new one on expiry and once after a 401', async () => {
    const start = h.sim.tokenRequests();
    const payments = ['00', '00', '00'].map((s) => momoPayment(s));
    for (const p of payments) await h.provider.submit(p);
    for (const p of payments) await h.provider.status(p);
    expect(h.sim.tokenRequests() - start).toBeLessThanOrEqual(1);
    const cached = h.sim.tokenRequests();
    h.clock.ms += 3600_000;
    await h.provider.status(payments[0]!);
    expect(h.sim.tokenRequests()).toBe(cached + 1);
    await control({ revokeTokens: true });
    expect((await h.provider.status(payments[1]!)).kind).not.toBe('not_found');
    expect(h.sim.tokenRequests()).toBe(cached + 2);
  });

  async function control(body: unknown): Promise<void> {
    const res = await request(`${h.sim.url}/__simulator/faults`, { method: 'POST', body: JSON.stringify(body) });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
  }
});

describe('MTN MoMo configuration refusals seen over HTTP', () => {
  it('bad credentials: the token is refused, nothing is sent, the outcome is retry', async () => {
    await withMomoHarness({}, { MTN_MOMO_API_KEY: 'wrong-key' }, async (h) => {
      expect(await h.provider.submit(momoPayment('00'))).toMatchObject({ kind: 'retry', reason: expect.stringContaining('HTTP 401') });
      expect(h.sim.transfers()).toHaveLength(0);
    });
  });

  it('a callback host MTN does not know (500 INVALID_CALLBACK_URL_HOST), confirmed absent, is retry', async () => {
    await withMomoHarness({ providerCallbackHost: 'callbacks.example.com' }, {}, async (h) => {
      expect(await h.provider.submit(momoPayment('00'))).toMatchObject({ kind: 'retry', reason: expect.stringContaining('INVALID_CALLBACK_URL_HOST') });
      expect(h.sim.transfers()).toHaveLength(0);
    });
  });

  it('production target environment: its own country and currency at the ISO scale, others refused', async () => {
    await withMomoHarness({ targetEnvironment: 'mtnghana', currency: 'GHS' }, {
      MTN_MOMO_TARGET_ENVIRONMENT: 'mtnghana', MTN_MOMO_SANDBOX_CURRENCY: '', MTN_MOMO_CALLBACK_BASE_URL: 'https://127.0.0.1:1/cb',
    }, async (h) => {
      const ghana = momoPayment('00', { country: 'GH', destinationCurrency: 'GHS', fiatAmount: '25.5', accountNumber: '+233241234500' });
      expect((await h.provider.submit(ghana)).kind).toBe('accepted');
      expect(h.sim.transfers()[0]).toMatchObject({ amount: '25.50', currency: 'GHS', payee: { partyId: '233241234500' } });
      expect(await h.provider.submit(momoPayment('00'))).toMatchObject({ kind: 'rejected', reason: expect.stringContaining('not configured for UG') });
    });
  });
});
