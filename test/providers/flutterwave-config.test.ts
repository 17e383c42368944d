import { parseFlutterwaveConfig } from '../../src/adapters/providers/flutterwave/flutterwave-config';
import { SENDER_ENV, TEST_HASH } from './flutterwave-harness';

// The FLUTTERWAVE_ variables (docs/providers.md § Flutterwave Transfers; README "Going live").
const LIVE_KEY = 'FLWSECK-0123456789abcdef0123456789abcdef-X';
const base = { FLUTTERWAVE_SECRET_KEY: 'FLWSECK_TEST-0123456789abcdef-X', FLUTTERWAVE_WEBHOOK_SECRET_HASH: TEST_HASH, ...SENDER_ENV };

describe('Flutterwave configuration', () => {
  it('is off when no FLUTTERWAVE_ variable is set', () => {
    expect(parseFlutterwaveConfig({})).toBeUndefined();
  });

  it('reads a test key with the documented defaults', () => {
    expect(parseFlutterwaveConfig(base)).toEqual({
      secretKey: base.FLUTTERWAVE_SECRET_KEY, mode: 'test', webhookSecretHash: TEST_HASH, baseUrl: 'https://api.flutterwave.com',
      webhookAllowedIps: [], connectTimeoutMs: 5_000, responseTimeoutMs: 30_000, resultWaitMs: 60_000,
      sender: { name: 'Payout Gateway Ltd', country: 'KE', mobileNumber: '254700000001' },
    });
    expect(parseFlutterwaveConfig({ ...base, FLUTTERWAVE_SECRET_KEY: LIVE_KEY, FLUTTERWAVE_BASE_URL: 'http://127.0.0.1:4090/', FLUTTERWAVE_WEBHOOK_ALLOWED_IPS: '10.0.0.1, ::1' }))
      .toMatchObject({ mode: 'live', baseUrl: 'http://127.0.0.1:4090', webhookAllowedIps: ['10.0.0.1', '::1'] });
  });

  it('refuses a partial configuration, naming what is missing', () => {
    expect(() => parseFlutterwaveConfig({ ...SENDER_ENV, FLUTTERWAVE_SECRET_KEY: base.FLUTTERWAVE_SECRET_KEY }))
      .toThrow('Flutterwave is partly configured: set FLUTTERWAVE_WEBHOOK_SECRET_HASH (or unset every FLUTTERWAVE_ variable)');
    expect(() => parseFlutterwaveConfig({ FLUTTERWAVE_BASE_URL: 'https://api.flutterwave.com' }))
      .toThrow('set FLUTTERWAVE_SECRET_KEY, FLUTTERWAVE_WEBHOOK_SECRET_HASH, FLUTTERWAVE_SENDER_NAME, FLUTTERWAVE_SENDER_COUNTRY, FLUTTERWAVE_SENDER_MOBILE');
    // The sender Kenyan M-Pesa transfers carry is checked at start, not at the first Kenyan payout.
    expect(() => parseFlutterwaveConfig({ FLUTTERWAVE_SECRET_KEY: base.FLUTTERWAVE_SECRET_KEY, FLUTTERWAVE_WEBHOOK_SECRET_HASH: TEST_HASH }))
      .toThrow('set FLUTTERWAVE_SENDER_NAME, FLUTTERWAVE_SENDER_COUNTRY, FLUTTERWAVE_SENDER_MOBILE');
  });

  it('refuses a public key, a short hash and a bad address without quoting the secrets', () => {
    const attempt = () => parseFlutterwaveConfig({
      ...SENDER_ENV, FLUTTERWAVE_SECRET_KEY: 'FLWPUBK_TEST-secretvalue-X', FLUTTERWAVE_WEBHOOK_SECRET_HASH: 'shorthash', FLUTTERWAVE_WEBHOOK_ALLOWED_IPS: 'nope',
    });
    expect(attempt).toThrow('Invalid Flutterwave configuration: FLUTTERWAVE_SECRET_KEY must look like FLWSECK_TEST-…-X or FLWSECK-…-X; '
      + 'FLUTTERWAVE_WEBHOOK_SECRET_HASH must be at least 16 characters; FLUTTERWAVE_WEBHOOK_ALLOWED_IPS: "nope" is not an IP address');
    expect(attempt).not.toThrow(/secretvalue|shorthash/);
  });

  it('refuses a sender Flutterwave could not read: a country not in alpha-2, a number with + or letters, a name with control characters', () => {
    expect(() => parseFlutterwaveConfig({ ...base, FLUTTERWAVE_SENDER_COUNTRY: 'KEN' })).toThrow('FLUTTERWAVE_SENDER_COUNTRY: must be an ISO 3166-1 alpha-2 code such as KE');
    expect(() => parseFlutterwaveConfig({ ...base, FLUTTERWAVE_SENDER_COUNTRY: 'ke' })).toThrow('FLUTTERWAVE_SENDER_COUNTRY');
    expect(() => parseFlutterwaveConfig({ ...base, FLUTTERWAVE_SENDER_MOBILE: '+254700000001' })).toThrow('FLUTTERWAVE_SENDER_MOBILE: must be digits with the country code and no +');
    expect(() => parseFlutterwaveConfig({ ...base, FLUTTERWAVE_SENDER_MOBILE: '0700 000 001' })).toThrow('FLUTTERWAVE_SENDER_MOBILE');
    expect(() => parseFlutterwaveConfig({ ...base, FLUTTERWAVE_SENDER_NAME: 'Bad\nName' })).toThrow('FLUTTERWAVE_SENDER_NAME: must not contain control characters');
    expect(() => parseFlutterwaveConfig({ ...base, FLUTTERWAVE_SENDER_NAME: 'X' })).toThrow('FLUTTERWAVE_SENDER_NAME: must be at least 2 characters');
  });

  it('in production, refuses a test key and a plain-http base URL', () => {
    expect(() => parseFlutterwaveConfig({ ...base, NODE_ENV: 'production', FLUTTERWAVE_BASE_URL: 'http://api.example' }))
      .toThrow('Invalid Flutterwave configuration: FLUTTERWAVE_BASE_URL must be https in production (the secret key travels in every call); '
        + 'FLUTTERWAVE_SECRET_KEY must be a live key (FLWSECK-…) in production');
    expect(parseFlutterwaveConfig({ ...base, NODE_ENV: 'production', FLUTTERWAVE_SECRET_KEY: LIVE_KEY })).toMatchObject({ mode: 'live' });
  });
});
