import { FlutterwavePayoutProvider } from '../../src/adapters/providers/flutterwave/flutterwave-payout-provider';
import { flutterwaveRecords } from '../../src/adapters/providers/flutterwave/flutterwave-records';
import { startFlutterwaveSimulator, type FlutterwaveSimulator } from '../../simulators/flutterwave/flutterwave-simulator';
import { SIM_FAILURE_MESSAGE, UNDOCUMENTED_STATUS } from '../../simulators/flutterwave/flutterwave-simulator-ledger';
import { bankPayment, clientPool, configFor, momoPayment } from './flutterwave-harness';

// The Flutterwave provider against the simulator over real HTTP (docs/providers.md § Flutterwave Transfers).
describe('Flutterwave provider against its simulator', () => {
  let sim: FlutterwaveSimulator;
  const pool = clientPool();
  let provider: FlutterwavePayoutProvider;
  beforeAll(async () => {
    sim = await startFlutterwaveSimulator({ resultDelayMs: 10, pageSize: 3 });
    const config = configFor(sim.url, sim.secretKey);
    provider = new FlutterwavePayoutProvider(pool.client(config), config.sender);
  });
  afterAll(async () => {
    await pool.closeAll();
    await sim.close();
  });

  it('a bank transfer is accepted as NEW, then SUCCESSFUL', async () => {
    const payment = bankPayment();
    const submitted = await provider.submit(payment);
    expect(submitted).toEqual({ kind: 'accepted', providerRef: expect.stringMatching(/^\d+$/) });
    await sim.waitFor(payment.id, 'SUCCESSFUL');
    expect(await provider.status(payment)).toEqual({ kind: 'succeeded', providerRef: (submitted as { providerRef: string }).providerRef });
  });

  it('a mobile-money transfer to Airtel Uganda is paid to the number with its country code', async () => {
    const payment = momoPayment();
    expect((await provider.submit(payment)).kind).toBe('accepted');
    const transfer = await sim.waitFor(payment.id, 'SUCCESSFUL');
    expect([transfer.bank_code, transfer.account_number, transfer.amount, transfer.currency]).toEqual(['AIRTEL', '256701234510', 50000, 'UGX']);
  });

  it('a Kenyan M-Pesa transfer (MPS, KES) carries the sender the simulator requires, as Flutterwave documents', async () => {
    const payment = momoPayment({ country: 'KE', destinationCurrency: 'KES', paymentCode: 'MPESA', accountNumber: '+254712345610', fiatAmount: '1500' });
    expect((await provider.submit(payment)).kind).toBe('accepted');
    const transfer = await sim.waitFor(payment.id, 'SUCCESSFUL');
    expect([transfer.bank_code, transfer.account_number, transfer.amount, transfer.currency]).toEqual(['MPS', '254712345610', 1500, 'KES']);
    // Without the sender the simulator refuses, as the mobile money transfers page says Flutterwave does.
    const bare = await fetch(`${sim.url}/v3/transfers`, {
      method: 'POST', headers: { authorization: `Bearer ${sim.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ account_bank: 'MPS', account_number: '254712345611', amount: 1500, currency: 'KES', reference: `ref-${Date.now()}`, beneficiary_name: 'Jane' }),
    });
    expect(bare.status).toBe(400);
  });

  it('a second submission of the same payment is refused as a duplicate reference and recognised as the same transfer', async () => {
    const payment = bankPayment();
    const first = await provider.submit(payment);
    expect(await provider.submit(payment)).toEqual(first);
    expect(sim.transfers().filter((t) => t.reference === payment.id)).toHaveLength(1);
  });

  it('a transfer that fails is failed with its message; one that stays PENDING is pending; an undocumented status is a finding', async () => {
    const failed = bankPayment({ accountNumber: '0123456791' });
    await provider.submit(failed);
    await sim.waitFor(failed.id, 'FAILED');
    expect(await provider.status(failed)).toEqual({ kind: 'failed', reason: `Flutterwave transfer failed: ${SIM_FAILURE_MESSAGE}`, code: 'unknown' });
    const pending = bankPayment({ accountNumber: '0123456799' });
    await provider.submit(pending);
    await sim.waitFor(pending.id, 'PENDING');
    expect(await provider.status(pending)).toMatchObject({ kind: 'pending', afterMs: 60_000 });
    const odd = bankPayment({ accountNumber: '0123456788' });
    await provider.submit(odd);
    await sim.waitFor(odd.id, UNDOCUMENTED_STATUS);
    expect(await provider.status(odd)).toMatchObject({ kind: 'pending', unknownStatus: UNDOCUMENTED_STATUS });
  });

  it('a 500 after recording is unknown, and the status query then finds the transfer; a 500 before recording is not_found', async () => {
    const after = bankPayment({ accountNumber: '0123456797' });
    expect((await provider.submit(after)).kind).toBe('unknown');
    expect((await provider.status(after)).kind).not.toBe('not_found');
    const before = bankPayment({ accountNumber: '0123456796' });
    expect((await provider.submit(before)).kind).toBe('unknown');
    expect(await provider.status(before)).toEqual({ kind: 'not_found' });
  });

  it('an insufficient balance before recording is retried', async () => {
    sim.setFaults({ submit: 'insufficient_balance' });
    try {
      expect(await provider.submit(bankPayment())).toMatchObject({ kind: 'retry', afterMs: 300_000 });
    } finally {
      sim.setFaults({});
    }
  });

  it('reconciliation lists every page, ours only, with amounts at the currency scale', async () => {
    const from = new Date(Date.now() - 60_000);
    const ours = [bankPayment({ fiatAmount: '1000.5' }), momoPayment({ fiatAmount: '7000' })];
    for (const payment of ours) await provider.submit(payment);
    for (const payment of ours) await sim.waitFor(payment.id, 'SUCCESSFUL');
    const records = await flutterwaveRecords(provider).recordsFor([], { from, to: new Date(Date.now() + 60_000) });
    expect(records.length).toBeGreaterThan(3);
    expect(records).toEqual(expect.arrayContaining([
      { paymentId: ours[0]!.id, outcome: 'succeeded', providerStatus: 'SUCCESSFUL', amount: '1000.50', currency: 'NGN' },
      { paymentId: ours[1]!.id, outcome: 'succeeded', providerStatus: 'SUCCESSFUL', amount: '7000', currency: 'UGX' },
    ]));
    expect(sim.requestCount('GET /v3/transfers')).toBeGreaterThan(1);
  });
});
