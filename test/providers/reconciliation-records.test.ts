import { reconciliationSources } from '../../src/app/reconciliation-sources';
import { MpesaPayoutProvider } from '../../src/adapters/providers/mpesa/mpesa-payout-provider';
import { startMpesaSimulator, type MpesaSimulator } from '../../simulators/mpesa/mpesa-simulator';
import { certificateFile, configOf, keKesPayment, mpesaEnv, startCallbackReceiver, type CallbackReceiver } from './mpesa-harness';
import { momoPayment, startMomoHarness, waitFor, type MomoHarness } from './support/mtn-momo-harness';
import type { SimTransfer } from '../../simulators/mtn-momo/mtn-momo-sim-ledger';
import type { SimPayout } from '../../simulators/pawapay/pawapay-sim-ledger';
import { payoutIdOf } from '../../src/adapters/providers/pawapay/pawapay-wire';
import { pawapayPayment, startPawapayHarness } from './support/pawapay-harness';

const WINDOW = { from: new Date(Date.now() - 60_000), to: new Date(Date.now() + 60_000) };

/**
 * The report's per-payment readers (docs/decisions.md § Reconciliation) against the providers'
 * simulators over real HTTP: MTN MoMo answers each status query at once; M-Pesa answers on its
 * ResultURL, so its payments are asked and reported unconfirmed.
 */
describe('reconciliation records by status query', () => {
  it('MTN MoMo: a settled transfer is a record with its outcome; a payment never sent has none', async () => {
    const h: MomoHarness = await startMomoHarness();
    try {
      const sent = momoPayment('00');
      const never = momoPayment('00');
      const settled = waitFor<[SimTransfer]>(h.sim.events, 'settled', (t) => t.externalId === sent.id);
      expect((await h.provider.submit(sent)).kind).toBe('accepted');
      await settled;
      const [reader] = reconciliationSources([h.provider]);
      expect(reader!.provider).toBe('mtn_momo');
      expect(await reader!.recordsFor([sent, never], WINDOW)).toEqual([{ paymentId: sent.id, outcome: 'succeeded', providerStatus: 'succeeded' }]);
    } finally {
      await h.close();
    }
  });

  it('pawaPay: settled payouts are records with their outcomes; a payment never sent has none', async () => {
    const h = await startPawapayHarness();
    try {
      const sent = pawapayPayment('00');
      const failed = pawapayPayment('10');
      const never = pawapayPayment('00');
      const settled = Promise.all([sent, failed].map((p) => waitFor<[SimPayout]>(h.sim.events, 'settled', (s) => s.payoutId === payoutIdOf(p.id))));
      expect((await h.provider.submit(sent)).kind).toBe('accepted');
      expect((await h.provider.submit(failed)).kind).toBe('accepted');
      await settled;
      const [reader] = reconciliationSources([h.provider]);
      expect(reader!.provider).toBe('pawapay');
      const records = await reader!.recordsFor([sent, failed, never], WINDOW);
      expect(records).toHaveLength(2);
      expect(records).toEqual(expect.arrayContaining([
        { paymentId: sent.id, outcome: 'succeeded', providerStatus: 'succeeded' },
        { paymentId: failed.id, outcome: 'failed', providerStatus: 'failed' },
      ]));
    } finally {
      await h.close();
    }
  });

  describe('M-Pesa', () => {
    let sim: MpesaSimulator;
    let receiver: CallbackReceiver;
    let mpesa: MpesaPayoutProvider;
    beforeAll(async () => {
      sim = await startMpesaSimulator({ port: 0 });
      let env: Record<string, string> = {};
      receiver = await startCallbackReceiver(() => configOf(env));
      env = mpesaEnv(sim, receiver.url, certificateFile(sim));
      mpesa = MpesaPayoutProvider.create(configOf(env));
    });
    afterAll(async () => {
      await mpesa.close();
      await receiver.close();
      await sim.close();
    });

    it('asks Transaction Status for each payment and reports it unconfirmed, never a mismatch', async () => {
      const payment = keKesPayment();
      expect(await mpesa.submit(payment)).toMatchObject({ kind: 'accepted' });
      await receiver.next(payment.id, 'result');
      const [reader] = reconciliationSources([mpesa]);
      expect(await reader!.recordsFor([{ ...payment, providerRef: payment.id, status: 'succeeded' } as typeof payment], WINDOW))
        .toEqual([{ paymentId: payment.id, outcome: 'unconfirmed', providerStatus: 'asked' }]);
      // The answer comes later, to the status callback, where callbacks apply it to the payment.
      expect((await receiver.next(payment.id, 'status')).parsed).toMatchObject({ ok: true, report: { paymentId: payment.id, outcome: { kind: 'succeeded' } } });
    });
  });
});
