import type { SimPayout } from '../../simulators/pawapay/pawapay-sim-ledger';
import { payoutIdOf } from '../../src/adapters/providers/pawapay/pawapay-wire';
import { waitFor } from './support/mtn-momo-harness';
import { pawapayPayment, startPawapayHarness, type PawapayHarness } from './support/pawapay-harness';

// The pawaPay adapter against its protocol simulator over real HTTP (adapter ⇄ simulator ⇄ callback endpoint).
describe('pawaPay payouts adapter', () => {
  let h: PawapayHarness;
  beforeAll(async () => {
    h = await startPawapayHarness();
  });
  afterAll(() => h.close());

  const settled = (payoutId: string) => waitFor<[SimPayout]>(h.sim.events, 'settled', (p) => p.payoutId === payoutId);
  const callbackFor = (paymentId: string) => waitFor(h.callbackEvents, 'result', (r: any) => r.ok && r.report.paymentId === paymentId);

  it('success: ACCEPTED, the callback names the payment and reports COMPLETED, status agrees; the request is pawaPay-shaped', async () => {
    const payment = pawapayPayment('00');
    const payoutId = payoutIdOf(payment.id);
    const callback = callbackFor(payment.id);
    expect(await h.provider.submit(payment)).toEqual({ kind: 'accepted', providerRef: payoutId });
    const [result] = await callback;
    expect(result).toMatchObject({ ok: true, status: 200, report: { provider: 'pawapay', paymentId: payment.id, outcome: { kind: 'succeeded', providerRef: payoutId } } });
    expect(await h.provider.status(payment)).toEqual({ kind: 'succeeded', providerRef: payoutId });
    expect(h.sim.payouts().find((p) => p.payoutId === payoutId)).toMatchObject({
      amount: '15000', currency: 'UGX', country: 'UGA', recipient: { type: 'MMO', accountDetails: { phoneNumber: payment.accountNumber.slice(1), provider: 'MTN_MOMO_UGA' } },
    });
  });

  it.each([
    ['10', 'RECIPIENT_NOT_FOUND', 'recipient_account_invalid'],
    ['16', 'RECIPIENT_NOT_ALLOWED_TO_RECEIVE', 'recipient_account_invalid'],
    ['11', 'WALLET_LIMIT_REACHED', 'limit_exceeded'],
    ['12', 'PAWAPAY_WALLET_OUT_OF_FUNDS', 'insufficient_provider_balance'],
    ['13', 'MANUALLY_CANCELLED', 'declined'],
    ['15', 'UNKNOWN_ERROR', 'provider_error'],
    ['14', 'UNSPECIFIED_FAILURE', 'unknown'],
    ['19', 'SIM_UNLISTED_CODE', 'unknown'],
  ])('FAILED with failureCode %s→%s maps to failed %s, by callback and by status', async (suffix, failureCode, code) => {
    const payment = pawapayPayment(suffix);
    const callback = callbackFor(payment.id);
    expect((await h.provider.submit(payment)).kind).toBe('accepted');
    const [result] = (await callback) as any;
    const expected = { kind: 'failed', reason: `pawaPay: the payout failed (${failureCode})`, code };
    expect(result.report.outcome).toEqual(expected);
    expect(await h.provider.status(payment)).toEqual(expected);
  });

  it.each([['50', 'PROCESSING'], ['51', 'ENQUEUED'], ['52', 'IN_RECONCILIATION'], ['53', 'ACCEPTED']])(
    'status %s→%s is pending with the poll interval, no unknown status', async (suffix, status) => {
      const payment = pawapayPayment(suffix);
      const done = settled(payoutIdOf(payment.id));
      await h.provider.submit(payment);
      const [p] = await done;
      expect(p.status).toBe(status);
      expect(await h.provider.status(payment)).toEqual({ kind: 'pending', afterMs: 1000, providerRef: payoutIdOf(payment.id) });
    },
  );

  it('an undocumented payout status (v1 SUBMITTED) stays pending and is reported as unknown', async () => {
    const payment = pawapayPayment('70');
    const done = settled(payoutIdOf(payment.id));
    await h.provider.submit(payment);
    await done;
    expect(await h.provider.status(payment)).toEqual({ kind: 'pending', afterMs: 1000, providerRef: payoutIdOf(payment.id), unknownStatus: 'SUBMITTED' });
  });

  it('NOT_FOUND answers not_found', async () => {
    expect(await h.provider.status(pawapayPayment('00'))).toEqual({ kind: 'not_found' });
  });

  it('a resubmission is DUPLICATE_IGNORED and counts as accepted; pawaPay holds one payout', async () => {
    const payment = pawapayPayment('53');
    const payoutId = payoutIdOf(payment.id);
    await h.provider.submit(payment);
    expect(await h.provider.submit(payment)).toEqual({ kind: 'accepted', providerRef: payoutId });
    expect(h.sim.submissions(payoutId)).toBe(2);
    expect(h.sim.payouts().filter((p) => p.payoutId === payoutId)).toHaveLength(1);
  });

  it.each([
    ['60', 'INVALID_PHONE_NUMBER', 'recipient_account_invalid'],
    ['61', 'AMOUNT_OUT_OF_BOUNDS', 'limit_exceeded'],
    ['64', 'INVALID_AMOUNT', 'unsupported_by_provider'],
    ['65', 'INVALID_PARAMETER', 'provider_error'],
    ['67', 'without a failure code', 'unknown'],
  ])('REJECTED %s (%s) with no payout at pawaPay is rejected %s', async (suffix, word, code) => {
    const payment = pawapayPayment(suffix);
    expect(await h.provider.submit(payment)).toEqual({ kind: 'rejected', reason: `pawaPay refused the payout (REJECTED ${word})`, code });
  });

  it.each([['62', 'PROVIDER_TEMPORARILY_UNAVAILABLE'], ['63', 'PAWAPAY_WALLET_OUT_OF_FUNDS']])(
    'REJECTED %s (%s) is our setup for now: retry, nothing taken', async (suffix, word) => {
      const outcome = await h.provider.submit(pawapayPayment(suffix));
      expect(outcome).toMatchObject({ kind: 'retry', afterMs: 60_000, reason: expect.stringContaining(word) });
    },
  );

  it('REJECTED although pawaPay holds the payout is accepted (the status query decides)', async () => {
    const payment = pawapayPayment('66');
    expect(await h.provider.submit(payment)).toEqual({ kind: 'accepted', providerRef: payoutIdOf(payment.id) });
  });

  it('HTTP 500 UNKNOWN_ERROR is unknown, whether or not the payout was recorded; the status query tells which', async () => {
    const unrecorded = pawapayPayment('30');
    const recorded = pawapayPayment('31');
    expect(await h.provider.submit(unrecorded)).toMatchObject({ kind: 'unknown' });
    expect(await h.provider.submit(recorded)).toMatchObject({ kind: 'unknown' });
    expect(await h.provider.status(unrecorded)).toEqual({ kind: 'not_found' });
    expect((await h.provider.status(recorded)).kind).not.toBe('not_found');
  });

  it('a hung submission is unknown (lost after sending), and a recorded one is then found', async () => {
    const payment = pawapayPayment('40');
    expect(await h.provider.submit(payment)).toMatchObject({ kind: 'unknown', reason: expect.stringContaining('interrupted') });
    expect((await h.provider.status(payment)).kind).not.toBe('not_found');
  });

  it('a duplicated callback parses twice to the same report', async () => {
    const payment = pawapayPayment('21');
    const both = waitFor(h.sim.events, 'callback', (p: SimPayout) => p.payoutId === payoutIdOf(payment.id) && p.callbacksSent === 2);
    await h.provider.submit(payment);
    await both;
    const mine = h.callbacks.filter((r) => r.ok && r.report.paymentId === payment.id);
    expect(mine).toHaveLength(2);
    expect(mine[1]).toEqual(mine[0]);
  });

  it('a lost callback leaves the status query to settle it', async () => {
    const payment = pawapayPayment('22');
    const done = settled(payoutIdOf(payment.id));
    await h.provider.submit(payment);
    await done;
    expect(await h.provider.status(payment)).toEqual({ kind: 'succeeded', providerRef: payoutIdOf(payment.id) });
    expect(h.callbacks.some((r) => r.ok && r.report.paymentId === payment.id)).toBe(false);
  });

  it('a status query pawaPay cannot answer throws (asked again later), never not_found', async () => {
    const payment = pawapayPayment('00');
    await h.provider.submit(payment);
    await fetch(`${h.sim.url}/__simulator/faults`, { method: 'POST', body: JSON.stringify({ statusQuery: 'error_500' }) });
    try {
      await expect(h.provider.status(payment)).rejects.toThrow('HTTP 500');
    } finally {
      await fetch(`${h.sim.url}/__simulator/faults`, { method: 'POST', body: JSON.stringify({ statusQuery: null }) });
    }
  });
});
