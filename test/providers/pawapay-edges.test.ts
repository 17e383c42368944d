import { ulid } from 'ulid';
import { parsePawapayCallback } from '../../src/adapters/providers/pawapay/pawapay-callbacks';
import { PawapayClient } from '../../src/adapters/providers/pawapay/pawapay-client';
import { parsePawapayConfig, PawapayConfigError } from '../../src/adapters/providers/pawapay/pawapay-config';
import { PawapayPayoutProvider } from '../../src/adapters/providers/pawapay/pawapay-payout-provider';
import { payoutRequestOf } from '../../src/adapters/providers/pawapay/pawapay-payout-request';
import { paymentIdOfPayout, payoutIdOf } from '../../src/adapters/providers/pawapay/pawapay-wire';
import { PAWAPAY_CALLBACK_SECRET, pawapayPayment, startPawapayHarness } from './support/pawapay-harness';

const base = {
  PAWAPAY_BASE_URL: 'https://api.pawapay.io', PAWAPAY_API_TOKEN: 'x'.repeat(40), PAWAPAY_ENVIRONMENT: 'production',
  PAWAPAY_CALLBACK_SECRET, PAWAPAY_CALLBACK_ALLOWED_IPS: '18.192.208.15/32',
};

describe('pawaPay payoutId', () => {
  it('is a UUID v4 derived from the payment id alone, and reads back to it', () => {
    for (let i = 0; i < 50; i += 1) {
      const id = `pay_${ulid()}`;
      const payoutId = payoutIdOf(id);
      expect(payoutId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(payoutIdOf(id)).toBe(payoutId);
      expect(paymentIdOfPayout(payoutId)).toBe(id);
    }
    expect(payoutIdOf('pay_01J00000000000000000000000')).not.toBe(payoutIdOf('pay_01J00000000000000000000001'));
  });

  it('refuses what is not a payment id, and reads nothing from a non-v4 UUID', () => {
    expect(() => payoutIdOf('pay_short')).toThrow('not a payment id');
    expect(paymentIdOfPayout('00000000-0000-1000-8000-000000000000')).toBeUndefined();
  });
});

describe('pawaPay payout body', () => {
  it.each([
    [{ paymentMethod: 'BANK' as const }, 'only mobile money'],
    [{ country: 'NG' as const }, 'not configured for NG'],
    [{ paymentCode: 'MPESA' }, 'does not pay MPESA in UG'],
    [{ destinationCurrency: 'KES' as const }, 'pays UGX in UG, not KES'],
    [{ fiatAmount: '150.5' }, 'at most 0 decimal places'],
    [{ accountNumber: '+254700000000' }, 'starting with +256'],
  ])('refuses %j: %s', (overrides, reason) => {
    const result = payoutRequestOf(pawapayPayment('00', overrides));
    expect(result).toEqual({ ok: false, reason: expect.stringContaining(reason) });
  });

  it('maps each catalog operator to its pawaPay provider code', () => {
    const cases = [
      ['TZ', 'TZS', '255', 'TIGO', 'TIGO_TZA'], ['SN', 'XOF', '221', 'WAVE', 'WAVE_SEN'], ['CI', 'XOF', '225', 'ORANGE', 'ORANGE_CIV'],
      ['BF', 'XOF', '226', 'MOOV', 'MOOV_BFA'], ['CM', 'XAF', '237', 'ORANGE', 'ORANGE_CMR'], ['ZM', 'ZMW', '260', 'AIRTEL', 'AIRTEL_OAPI_ZMB'],
    ] as const;
    for (const [country, currency, dial, code, provider] of cases) {
      const result = payoutRequestOf(pawapayPayment('00', { country, destinationCurrency: currency, accountNumber: `+${dial}70000000`, paymentCode: code, fiatAmount: '2500' }));
      expect(result).toMatchObject({ ok: true, body: { currency, recipient: { accountDetails: { provider } } } });
    }
  });
});

describe('pawaPay configuration', () => {
  it('is off when nothing is set, and refuses partial settings naming what is missing', () => {
    expect(parsePawapayConfig({})).toBeUndefined();
    expect(() => parsePawapayConfig({ PAWAPAY_API_TOKEN: 'x' })).toThrow('missing PAWAPAY_BASE_URL, PAWAPAY_ENVIRONMENT, PAWAPAY_CALLBACK_SECRET');
  });

  it('accepts a production configuration', () => {
    expect(parsePawapayConfig(base)).toMatchObject({ environment: 'production', callbackAllowedIps: ['18.192.208.15/32'], pollIntervalMs: 300_000 });
  });

  it.each([
    [{ PAWAPAY_BASE_URL: 'http://api.pawapay.io' }, 'PAWAPAY_BASE_URL must be https in production'],
    [{ PAWAPAY_API_TOKEN: 'short' }, 'PAWAPAY_API_TOKEN is too short'],
    [{ PAWAPAY_CALLBACK_ALLOWED_IPS: '' }, 'PAWAPAY_CALLBACK_ALLOWED_IPS is required in production'],
    [{ PAWAPAY_CALLBACK_SECRET: 'weak' }, 'PAWAPAY_CALLBACK_SECRET: must be 32 to 128'],
    [{ PAWAPAY_ENVIRONMENT: 'live' }, 'PAWAPAY_ENVIRONMENT'],
    [{ PAWAPAY_CALLBACK_ALLOWED_IPS: 'not-an-ip' }, 'PAWAPAY_CALLBACK_ALLOWED_IPS: must be a comma-separated list'],
  ])('refuses %j without echoing a value', (change, message) => {
    let error: unknown;
    try {
      parsePawapayConfig({ ...base, ...change });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PawapayConfigError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('x'.repeat(40));
  });

  it('lets the sandbox take any source and http', () => {
    expect(parsePawapayConfig({ ...base, PAWAPAY_ENVIRONMENT: 'sandbox', PAWAPAY_BASE_URL: 'http://127.0.0.1:1', PAWAPAY_CALLBACK_ALLOWED_IPS: '' })).toMatchObject({ callbackAllowedIps: [] });
  });
});

describe('pawaPay callback verification', () => {
  const config = { callbackSecret: PAWAPAY_CALLBACK_SECRET, callbackAllowedIps: ['3.64.89.224/32'], pollIntervalMs: 1000 };
  const payoutId = payoutIdOf(`pay_${ulid()}`);
  const body = (value: unknown) => Buffer.from(JSON.stringify(value));
  const good = body({ payoutId, status: 'COMPLETED', amount: '100', currency: 'UGX' });

  it('accepts a callback from an allowed address with the path secret', () => {
    expect(parsePawapayCallback({ rawBody: good, remoteAddress: '3.64.89.224', pathSecret: PAWAPAY_CALLBACK_SECRET }, config))
      .toMatchObject({ ok: true, status: 200, report: { provider: 'pawapay', paymentId: paymentIdOfPayout(payoutId), outcome: { kind: 'succeeded' } } });
  });

  it.each([
    ['an unlisted address, right secret', '10.0.0.1', PAWAPAY_CALLBACK_SECRET, good, 'unknown_source', 403],
    ['an unlisted address, wrong secret', '10.0.0.1', 'nope', good, 'unknown_source', 403],
    ['a wrong secret', '3.64.89.224', 'nope', good, 'bad_path_secret', 404],
    ['no secret', '3.64.89.224', '', good, 'bad_path_secret', 404],
    ['a body that is not JSON', '3.64.89.224', PAWAPAY_CALLBACK_SECRET, Buffer.from('{'), 'unparseable', 400],
    ['a payoutId that is not ours', '3.64.89.224', PAWAPAY_CALLBACK_SECRET, body({ payoutId: 'abc', status: 'COMPLETED' }), 'unparseable', 400],
  ])('refuses %s', (_what, remoteAddress, pathSecret, rawBody, refusal, status) => {
    expect(parsePawapayCallback({ rawBody, remoteAddress, pathSecret }, config)).toMatchObject({ ok: false, refusal, status });
  });
});

describe('pawaPay authentication answers', () => {
  it.each([['a wrong token', 'wrong-token', 403, 'AUTHENTICATION_ERROR'], ['no token', '', 401, 'NO_AUTHENTICATION']])(
    '%s (HTTP %s %s) is refused before processing: retry (another provider may carry it), never a rejection', async (_what, token, status, code) => {
      const h = await startPawapayHarness();
      try {
        const bad = new PawapayPayoutProvider(h.config, new PawapayClient({ ...h.config, apiToken: token }));
        const payment = pawapayPayment('00');
        expect(await bad.submit(payment)).toMatchObject({ kind: 'retry', afterMs: 60_000, reason: expect.stringContaining(`HTTP ${status} REJECTED ${code}`) });
        expect(h.sim.payouts().filter((p) => p.payoutId === payoutIdOf(payment.id))).toEqual([]);
      } finally {
        await h.close();
      }
    },
  );

  it('a request that never reaches pawaPay is a retry', async () => {
    const provider = new PawapayPayoutProvider({ pollIntervalMs: 1000 }, new PawapayClient({
      baseUrl: 'http://127.0.0.1:1', apiToken: 't', environment: 'sandbox', callbackSecret: PAWAPAY_CALLBACK_SECRET, callbackAllowedIps: [],
      connectTimeoutMs: 500, responseTimeoutMs: 500, pollIntervalMs: 1000,
    }));
    expect(await provider.submit(pawapayPayment('00'))).toMatchObject({ kind: 'retry', afterMs: 10_000 });
  });
});
