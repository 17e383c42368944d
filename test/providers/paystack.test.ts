import { PaystackPayoutProvider, PaystackUnavailableError } from '../../src/adapters/providers/paystack/paystack-payout-provider';
import { referenceOf } from '../../src/adapters/providers/paystack/paystack-transfers';
import { startPaystackSimulator, type PaystackSimulator } from '../../simulators/paystack/paystack-simulator';
import { bankPayment, clientPool, configFor, startCallbackEndpoint } from './paystack-harness';

// Paystack adapter against its simulator over real HTTP: submit, status, webhooks, faults.
describe('Paystack payout provider against the simulator', () => {
  let sim: PaystackSimulator;
  let endpoint: Awaited<ReturnType<typeof startCallbackEndpoint>>;
  const pool = clientPool();
  let provider: PaystackPayoutProvider;

  beforeAll(async () => {
    sim = await startPaystackSimulator({ port: 0, resultDelayMs: 10, delayedCallbackMs: 200 });
    endpoint = await startCallbackEndpoint(sim.secretKey);
    sim.setWebhookUrl(endpoint.url);
  });
  beforeEach(() => {
    sim.setFaults({});
    provider = new PaystackPayoutProvider(pool.client(configFor(sim.url, sim.secretKey, { PAYSTACK_RESPONSE_TIMEOUT_MS: '300' })));
  });
  afterEach(() => pool.closeAll());
  afterAll(async () => {
    await sim.close();
    await endpoint.close();
  });

  const transfersOf = (paymentId: string) => sim.transfers().filter((transfer) => transfer.reference === referenceOf(paymentId));

  it('pays: accepted with the transfer code, a signed transfer.success, and status succeeded', async () => {
    const payment = bankPayment();
    const submitted = await provider.submit(payment);
    expect(submitted).toEqual({ kind: 'accepted', providerRef: expect.stringMatching(/^TRF_/) });
    const [transfer] = transfersOf(payment.id);
    expect(transfer).toMatchObject({ amount: 1500050, currency: 'NGN', reference: payment.id.toLowerCase() });
    expect(transfer?.recipient).toMatchObject({ type: 'nuban', details: { bank_code: '058', account_number: '0123456780' } });

    await endpoint.waitForReports(payment.id, 1);
    expect(endpoint.reportsFor(payment.id)).toEqual([{
      provider: 'paystack', paymentId: payment.id, outcome: { kind: 'succeeded', providerRef: transfer?.transfer_code },
      providerEventId: `${transfer?.transfer_code}:transfer.success`,
    }]);
    await expect(provider.status(payment)).resolves.toEqual({ kind: 'succeeded', providerRef: transfer?.transfer_code });
  });

  it.each([
    ['GH', 'GHS', 'ghipss', 'GCB'],
    ['ZA', 'ZAR', 'basa', '632005'],
    ['KE', 'KES', 'kepss', '68'],
  ] as const)('creates a %s recipient of type %s in %s', async (country, currency, type, bankCode) => {
    const payment = bankPayment({ country, destinationCurrency: currency, paymentCode: bankCode, fiatAmount: '250' });
    expect((await provider.submit(payment)).kind).toBe('accepted');
    expect(transfersOf(payment.id)[0]).toMatchObject({ amount: 25000, currency, recipient: { type, currency } });
  });

  it('fails: transfer.failed maps to failed, and so does status', async () => {
    const payment = bankPayment({ accountNumber: '0123456791' });
    expect((await provider.submit(payment)).kind).toBe('accepted');
    await endpoint.waitForReports(payment.id, 1);
    expect(endpoint.reportsFor(payment.id)[0]?.outcome).toEqual({ kind: 'failed', reason: expect.stringContaining('Paystack transfer failed') });
    await expect(provider.status(payment)).resolves.toMatchObject({ kind: 'failed' });
  });

  it.each([
    ['abandoned', { accountNumber: '0123456789' }, /abandoned the transfer \(no OTP within 30 minutes\)/],
    ['blocked', {}, /blocked the transfer/],
    ['rejected', {}, /rejected the transfer/],
  ] as const)('conclusive %s (no webhook): status is failed, never pending', async (status, account, reason) => {
    if (status !== 'abandoned') sim.setFaults({ outcome: status });
    const payment = bankPayment(account);
    expect((await provider.submit(payment)).kind).toBe('accepted');
    await sim.waitFor(referenceOf(payment.id), status);
    await expect(provider.status(payment)).resolves.toEqual({ kind: 'failed', reason: expect.stringMatching(reason) });
    expect(endpoint.reportsFor(payment.id)).toEqual([]);
  });

  it('reversal: transfer.success then transfer.reversed, which maps to refunded', async () => {
    const payment = bankPayment({ accountNumber: '0123456792' });
    expect((await provider.submit(payment)).kind).toBe('accepted');
    await endpoint.waitForReports(payment.id, 2);
    expect(endpoint.reportsFor(payment.id).map((report) => report.outcome.kind)).toEqual(['succeeded', 'refunded']);
    await expect(provider.status(payment)).resolves.toEqual({ kind: 'refunded', reason: expect.stringContaining('reversed') });
  });

  it('a duplicated webhook parses twice to the same report', async () => {
    const payment = bankPayment({ accountNumber: '0123456794' });
    await provider.submit(payment);
    await endpoint.waitForReports(payment.id, 2);
    const [first, second] = endpoint.reportsFor(payment.id);
    expect(second).toEqual(first);
  });

  it('a lost webhook: status() finds the result', async () => {
    const payment = bankPayment({ accountNumber: '0123456793' });
    await provider.submit(payment);
    await sim.waitFor(referenceOf(payment.id), 'success');
    await expect(provider.status(payment)).resolves.toMatchObject({ kind: 'succeeded' });
    expect(endpoint.reportsFor(payment.id)).toEqual([]);
  });

  it('a delayed webhook arrives after the transfer settled', async () => {
    const payment = bankPayment({ accountNumber: '0123456795' });
    await provider.submit(payment);
    await sim.waitFor(referenceOf(payment.id), 'success');
    expect(endpoint.reportsFor(payment.id)).toEqual([]);
    await endpoint.waitForReports(payment.id, 1);
    expect(endpoint.reportsFor(payment.id)[0]?.outcome.kind).toBe('succeeded');
  });

  it('insufficient balance at Paystack is retry (another provider may pay), once the reference is confirmed absent', async () => {
    sim.setFaults({ submit: 'insufficient_balance' });
    const payment = bankPayment();
    await expect(provider.submit(payment)).resolves.toMatchObject({ kind: 'retry', reason: expect.stringContaining('Insufficient balance') });
    expect(transfersOf(payment.id)).toHaveLength(0);
  });

  it('the control endpoint sets faults and lists the ledger over HTTP', async () => {
    const set = await fetch(`${sim.url}/__simulator/faults`, { method: 'POST', body: JSON.stringify({ submit: 'error_after' }) });
    expect(set.status).toBe(200);
    const payment = bankPayment();
    expect((await provider.submit(payment)).kind).toBe('unknown');
    const listed = await (await fetch(`${sim.url}/__simulator/transfers`)).json() as { transfers: Array<{ reference: string }> };
    expect(listed.transfers.filter((transfer) => transfer.reference === referenceOf(payment.id))).toHaveLength(1);
  });

  it('a held answer times out after the transfer was recorded: unknown, then status finds it, and a resubmit is the same transfer', async () => {
    const payment = bankPayment({ accountNumber: '0123456798' });
    const submitted = await provider.submit(payment);
    expect(submitted).toEqual({ kind: 'unknown', reason: expect.stringContaining('UND_ERR_HEADERS_TIMEOUT') });
    const [transfer] = transfersOf(payment.id);
    await sim.waitFor(referenceOf(payment.id), 'success');
    await expect(provider.status(payment)).resolves.toEqual({ kind: 'succeeded', providerRef: transfer?.transfer_code });
    await expect(provider.submit(payment)).resolves.toEqual({ kind: 'accepted', providerRef: transfer?.transfer_code });
    expect(transfersOf(payment.id)).toHaveLength(1);
  });

  it('a 500 after recording is unknown and the transfer is found; a 500 before recording is unknown, status not_found, then it can be sent', async () => {
    const after = bankPayment({ accountNumber: '0123456797' });
    expect((await provider.submit(after)).kind).toBe('unknown');
    expect((await provider.status(after)).kind).not.toBe('not_found');

    sim.setFaults({ submit: 'error_before' });
    const before = bankPayment();
    expect((await provider.submit(before)).kind).toBe('unknown');
    await expect(provider.status(before)).resolves.toEqual({ kind: 'not_found' });
    sim.setFaults({});
    expect((await provider.submit(before)).kind).toBe('accepted');
    expect(transfersOf(after.id)).toHaveLength(1);
    expect(transfersOf(before.id)).toHaveLength(1);
  });

  it('a second submit of the same payment is the same transfer, with the recipient reused', async () => {
    const payment = bankPayment({ accountNumber: '0123456781' });
    const first = await provider.submit(payment);
    const recipientCalls = sim.requestCount('POST /transferrecipient');
    const second = await provider.submit(payment);
    expect(second).toEqual(first);
    expect(sim.requestCount('POST /transferrecipient')).toBe(recipientCalls);
    expect(transfersOf(payment.id)).toHaveLength(1);
  });

  it('caches recipient codes per account: a second payment to the account creates no recipient; a cold cache gets the same record', async () => {
    const account = { accountNumber: '0123456782', paymentCode: '011' };
    await provider.submit(bankPayment(account));
    const calls = sim.requestCount('POST /transferrecipient');
    await provider.submit(bankPayment(account));
    expect(sim.requestCount('POST /transferrecipient')).toBe(calls);

    const cold = new PaystackPayoutProvider(pool.client(configFor(sim.url, sim.secretKey)));
    const payment = bankPayment(account);
    await cold.submit(payment);
    const codes = new Set(sim.transfers().filter((t) => t.recipient.details.account_number === '0123456782').map((t) => t.recipient.recipient_code));
    expect(codes.size).toBe(1);
  });

  it('rejects what Paystack cannot carry before any call', async () => {
    const before = sim.requestCount('POST /transfer') + sim.requestCount('POST /transferrecipient');
    await expect(provider.submit(bankPayment({ paymentMethod: 'MOMO' }))).resolves.toMatchObject({ kind: 'rejected', reason: expect.stringContaining('MOMO') });
    await expect(provider.submit(bankPayment({ country: 'UG', destinationCurrency: 'UGX' }))).resolves.toMatchObject({ kind: 'rejected' });
    await expect(provider.submit(bankPayment({ destinationCurrency: 'GHS' }))).resolves.toMatchObject({ kind: 'rejected' });
    await expect(provider.submit(bankPayment({ fiatAmount: '10.005' }))).resolves.toMatchObject({ kind: 'rejected', reason: expect.stringContaining('subunits') });
    expect(sim.requestCount('POST /transfer') + sim.requestCount('POST /transferrecipient')).toBe(before);
  });

  it('a refused recipient (unknown bank) is rejected once the reference is confirmed absent', async () => {
    const payment = bankPayment({ paymentCode: '999' });
    await expect(provider.submit(payment)).resolves.toEqual({ kind: 'rejected', reason: 'Paystack refused the recipient: Invalid bank code' });
    expect(transfersOf(payment.id)).toHaveLength(0);
  });

  it('a refusal that cannot be checked against verify is unknown, and status throws while verify fails', async () => {
    const payment = bankPayment({ paymentCode: '999' });
    sim.setFaults({ verify: 'error' });
    await expect(provider.submit(payment)).resolves.toMatchObject({ kind: 'unknown' });
    await expect(provider.status(payment)).rejects.toBeInstanceOf(PaystackUnavailableError);
  });

  it('a wrong secret key: submit is retry with no transfer, status throws; an unreachable host is retry', async () => {
    const wrong = new PaystackPayoutProvider(pool.client(configFor(sim.url, 'sk_test_wrong')));
    const payment = bankPayment();
    await expect(wrong.submit(payment)).resolves.toMatchObject({ kind: 'retry' });
    await expect(wrong.status(payment)).rejects.toBeInstanceOf(PaystackUnavailableError);
    const down = new PaystackPayoutProvider(pool.client(configFor('http://127.0.0.1:1', sim.secretKey)));
    await expect(down.submit(payment)).resolves.toMatchObject({ kind: 'retry', reason: expect.stringContaining('ECONNREFUSED') });
    expect(transfersOf(payment.id)).toHaveLength(0);
  });

  it('reconciliation lists our transfers between two dates, across pages, with amounts and outcomes', async () => {
    const paged = await startPaystackSimulator({ resultDelayMs: 1, maxPerPage: 2 });
    try {
      const listing = new PaystackPayoutProvider(pool.client(configFor(paged.url, paged.secretKey)));
      const from = new Date(Date.now() - 1000);
      const payments = [bankPayment(), bankPayment({ accountNumber: '0123456791' }), bankPayment({ fiatAmount: '100' })];
      for (const payment of payments) await listing.submit(payment);
      await paged.waitFor(referenceOf(payments[1]!.id), 'failed');
      const listed = await listing.transfersBetween(from, new Date(Date.now() + 1000));
      expect(paged.requestCount('GET /transfer')).toBe(2);
      expect(listed.othersSkipped).toBe(0);
      const byId = new Map(listed.transfers.map((entry) => [entry.paymentId, entry]));
      expect(byId.get(payments[0]!.id)).toMatchObject({ amount: '15000.50', currency: 'NGN' });
      expect(byId.get(payments[1]!.id)).toMatchObject({ providerStatus: 'failed', outcome: { kind: 'failed' } });
      expect(byId.get(payments[2]!.id)).toMatchObject({ amount: '100.00' });
    } finally {
      await paged.close();
    }
  });
});
