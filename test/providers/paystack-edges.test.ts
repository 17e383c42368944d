import { createHmac } from 'node:crypto';
import { PaystackAccountDirectory } from '../../src/adapters/providers/paystack/paystack-account-directory';
import { parsePaystackCallback } from '../../src/adapters/providers/paystack/paystack-callbacks';
import { PAYSTACK_DOCUMENTED_WEBHOOK_IPS, parsePaystackConfig } from '../../src/adapters/providers/paystack/paystack-config';
import { startPaystackSimulator, type PaystackSimulator } from '../../simulators/paystack/paystack-simulator';
import { clientPool, configFor } from './paystack-harness';

const SECRET = 'sk_test_edges0123';
const PAYMENT_ID = 'pay_01JB8Z6Q3M4N5P6R7S8T9V0W1X';

function signed(event: unknown, overrides: { signature?: string; remoteAddress?: string; allowedIps?: readonly string[] } = {}) {
  const rawBody = Buffer.from(typeof event === 'string' ? event : JSON.stringify(event));
  const signature = overrides.signature ?? createHmac('sha512', SECRET).update(rawBody).digest('hex');
  return parsePaystackCallback(
    { headers: { 'x-paystack-signature': signature }, rawBody, remoteAddress: overrides.remoteAddress ?? '127.0.0.1' },
    { secretKey: SECRET, allowedIps: overrides.allowedIps ?? [] },
  );
}

const transferEvent = (event: string, status: string, reference = PAYMENT_ID.toLowerCase()) => ({
  event,
  data: { amount: 150000, currency: 'NGN', reference, status, transfer_code: 'TRF_abc123', gateway_response: null, created_at: '2026-01-01T00:00:00.000Z' },
});

describe('Paystack webhook verification', () => {
  it('reads a signed transfer event into a report, the amount alongside for comparison', () => {
    const result = signed(transferEvent('transfer.reversed', 'reversed'));
    expect(result).toEqual({
      ok: true,
      report: { provider: 'paystack', paymentId: PAYMENT_ID, outcome: { kind: 'refunded', reason: expect.any(String), code: 'reversed' }, providerEventId: 'TRF_abc123:transfer.reversed' },
      transfer: { reference: PAYMENT_ID.toLowerCase(), transferCode: 'TRF_abc123', amount: 150000, currency: 'NGN' },
      ack: { status: 200, body: 'OK' },
    });
  });

  it('refuses a wrong, missing or re-serialised-body signature with 401', () => {
    const event = transferEvent('transfer.success', 'success');
    const other = createHmac('sha512', 'sk_test_other').update(JSON.stringify(event)).digest('hex');
    expect(signed(event, { signature: other })).toMatchObject({ ok: false, reason: 'bad_signature', ack: { status: 401 } });
    expect(signed(event, { signature: '' })).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(signed(event, { signature: 'abc' })).toMatchObject({ ok: false, reason: 'bad_signature' });
    const pretty = JSON.stringify(event, null, 2);
    const compactSignature = createHmac('sha512', SECRET).update(JSON.stringify(event)).digest('hex');
    expect(signed(pretty, { signature: compactSignature })).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(signed(event, { signature: createHmac('sha512', SECRET).update(JSON.stringify(event)).digest('hex').toUpperCase() }).ok).toBe(true);
  });

  it('refuses an address outside the allow-list with 403, before the signature; accepts IPv4-mapped IPv6', () => {
    const event = transferEvent('transfer.success', 'success');
    const allowedIps = PAYSTACK_DOCUMENTED_WEBHOOK_IPS;
    expect(signed(event, { remoteAddress: '10.0.0.8', allowedIps })).toMatchObject({ ok: false, reason: 'unknown_source', ack: { status: 403 } });
    expect(signed(event, { remoteAddress: '10.0.0.8', allowedIps, signature: 'x' })).toMatchObject({ reason: 'unknown_source' });
    expect(signed(event, { remoteAddress: '::ffff:52.49.173.169', allowedIps }).ok).toBe(true);
  });

  it('refuses signed bodies it cannot read (400), ignores other events and foreign references (200, no report)', () => {
    expect(signed('not json')).toMatchObject({ ok: false, reason: 'unparseable', ack: { status: 400 } });
    expect(signed({ event: 'transfer.success', data: { reference: PAYMENT_ID.toLowerCase() } })).toMatchObject({ ok: false, reason: 'unparseable' });
    expect(signed(transferEvent('transfer.success', 'failed'))).toMatchObject({ ok: false, reason: 'unparseable' });
    expect(signed({ event: 'charge.success', data: {} })).toEqual({ ok: true, report: null, ack: { status: 200, body: 'OK' } });
    expect(signed(transferEvent('transfer.success', 'success', 'someone-elses-reference-1234'))).toMatchObject({ ok: true, report: null });
  });
});

describe('Paystack configuration', () => {
  it('is off with no variable, complete with the secret key, and an error naming what is missing otherwise', () => {
    expect(parsePaystackConfig({})).toBeUndefined();
    expect(parsePaystackConfig({ PAYSTACK_SECRET_KEY: 'sk_live_abc123' })).toMatchObject({
      mode: 'live', baseUrl: 'https://api.paystack.co', webhookAllowedIps: PAYSTACK_DOCUMENTED_WEBHOOK_IPS, connectTimeoutMs: 5000, responseTimeoutMs: 30000,
    });
    expect(() => parsePaystackConfig({ PAYSTACK_BASE_URL: 'http://127.0.0.1:9' })).toThrow(/set PAYSTACK_SECRET_KEY/);
    expect(() => parsePaystackConfig({ PAYSTACK_WEBHOOK_ALLOWED_IPS: '52.31.139.75' })).toThrow(/PAYSTACK_SECRET_KEY/);
  });

  it('refuses a malformed key without echoing it, and a bad address list', () => {
    let message = '';
    try {
      parsePaystackConfig({ PAYSTACK_SECRET_KEY: 'pk_live_secretvalue99' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/PAYSTACK_SECRET_KEY/);
    expect(message).not.toContain('secretvalue99');
    expect(() => parsePaystackConfig({ PAYSTACK_SECRET_KEY: 'sk_test_a1', PAYSTACK_WEBHOOK_ALLOWED_IPS: '52.31.139.75, nope' })).toThrow(/PAYSTACK_WEBHOOK_ALLOWED_IPS/);
    expect(parsePaystackConfig({ PAYSTACK_SECRET_KEY: 'sk_test_a1', PAYSTACK_WEBHOOK_ALLOWED_IPS: '52.31.139.75, 52.49.173.169' })?.webhookAllowedIps)
      .toEqual(['52.31.139.75', '52.49.173.169']);
  });

  it('accepts webhooks from Paystack\'s three documented addresses unless told otherwise; any source only by the explicit opt-out', () => {
    expect(PAYSTACK_DOCUMENTED_WEBHOOK_IPS).toEqual(['52.31.139.75', '52.49.173.169', '52.214.14.220']);
    for (const NODE_ENV of ['production', 'development', undefined]) {
      const base = { PAYSTACK_SECRET_KEY: 'sk_live_abc123', ...(NODE_ENV ? { NODE_ENV } : {}) };
      expect(parsePaystackConfig(base)?.webhookAllowedIps).toEqual(['52.31.139.75', '52.49.173.169', '52.214.14.220']);
      // An empty value is no value: still the documented addresses, never "anyone".
      expect(parsePaystackConfig({ ...base, PAYSTACK_WEBHOOK_ALLOWED_IPS: '' })?.webhookAllowedIps).toEqual(PAYSTACK_DOCUMENTED_WEBHOOK_IPS);
      expect(() => parsePaystackConfig({ ...base, PAYSTACK_WEBHOOK_ALLOWED_IPS: ' , ' })).toThrow(/PAYSTACK_WEBHOOK_ALLOWED_IPS: must list at least one address/);
      expect(parsePaystackConfig({ ...base, PAYSTACK_WEBHOOK_ALLOW_ANY_IP: 'true' })?.webhookAllowedIps).toEqual([]);
      expect(parsePaystackConfig({ ...base, PAYSTACK_WEBHOOK_ALLOW_ANY_IP: 'false' })?.webhookAllowedIps).toEqual(PAYSTACK_DOCUMENTED_WEBHOOK_IPS);
      expect(() => parsePaystackConfig({ ...base, PAYSTACK_WEBHOOK_ALLOW_ANY_IP: 'yes' })).toThrow(/PAYSTACK_WEBHOOK_ALLOW_ANY_IP/);
      expect(() => parsePaystackConfig({ ...base, PAYSTACK_WEBHOOK_ALLOW_ANY_IP: 'true', PAYSTACK_WEBHOOK_ALLOWED_IPS: '127.0.0.1' })).toThrow(/not both/);
    }
    // The opt-out alone is a partial configuration, like any other PAYSTACK_ variable without the key.
    expect(() => parsePaystackConfig({ PAYSTACK_WEBHOOK_ALLOW_ANY_IP: 'true' })).toThrow(/set PAYSTACK_SECRET_KEY/);
  });
});

describe('Paystack account directory against the simulator', () => {
  let sim: PaystackSimulator;
  const pool = clientPool();
  let directory: PaystackAccountDirectory;

  beforeAll(async () => {
    sim = await startPaystackSimulator();
    directory = new PaystackAccountDirectory(pool.client(configFor(sim.url, sim.secretKey)));
  });
  afterAll(async () => {
    await pool.closeAll();
    await sim.close();
  });

  it('resolves a Nigerian account, answers account_not_found for one that does not resolve, upstream_unavailable for KES', async () => {
    await expect(directory.bankAccount({ accountNumber: '0123456789', currency: 'NGN', bankCode: '058' }))
      .resolves.toEqual({ ok: true, value: { accountId: '0123456789', accountName: expect.any(String) } });
    await expect(directory.bankAccount({ accountNumber: '0123450000', currency: 'NGN', bankCode: '058' }))
      .resolves.toMatchObject({ ok: false, code: 'account_not_found' });
    await expect(directory.bankAccount({ accountNumber: '0123456789', currency: 'KES', bankCode: '68' }))
      .resolves.toMatchObject({ ok: false, code: 'upstream_unavailable' });
  });

  it('lists banks as BankEntry, without mobile money, cached; covers a listed bank only', async () => {
    const kenya = await directory.banks('KE');
    expect(kenya.ok && kenya.value).toEqual(expect.arrayContaining([{ bankCode: '68', bankName: 'Equity Bank Kenya' }]));
    expect(kenya.ok && kenya.value.some((bank) => bank.bankCode === 'MPESA')).toBe(false);
    const calls = sim.requestCount('GET /bank');
    await directory.banks('KE');
    expect(sim.requestCount('GET /bank')).toBe(calls);
    await expect(directory.coversBank('NG', '058')).resolves.toBe(true);
    await expect(directory.coversBank('NG', '68')).resolves.toBe(false);
    await expect(directory.banks('UG')).resolves.toMatchObject({ ok: false, code: 'upstream_unavailable' });
  });

  it('answers upstream_unavailable when Paystack cannot be reached or refuses the key, and for merchants and wallets', async () => {
    const down = new PaystackAccountDirectory(pool.client(configFor('http://127.0.0.1:1', sim.secretKey)));
    await expect(down.bankAccount({ accountNumber: '0123456789', currency: 'NGN', bankCode: '058' })).resolves.toMatchObject({ code: 'upstream_unavailable' });
    const wrongKey = new PaystackAccountDirectory(pool.client(configFor(sim.url, 'sk_test_wrong')));
    await expect(wrongKey.banks('NG')).resolves.toMatchObject({ code: 'upstream_unavailable' });
    await expect(directory.merchant('till', '123456')).resolves.toMatchObject({ code: 'upstream_unavailable' });
    await expect(directory.mobileWallet('KE', '254700000000')).resolves.toMatchObject({ code: 'upstream_unavailable' });
  });
});
