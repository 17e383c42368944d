import { parseSmileIdConfig, SmileIdConfigError } from '../../src/adapters/providers/smile-id/smile-id-config';
import { ConfigError, loadConfig } from '../../src/app/config';

const KEY = 'a-real-looking-smile-id-api-key-0123456789';
const FULL = {
  SMILE_ID_PARTNER_ID: '085', SMILE_ID_API_KEY: KEY, SMILE_ID_BASE_URL: 'https://testapi.smileidentity.com/v1/',
  SMILE_ID_CALLBACK_BASE_URL: 'https://gateway.example.com/callbacks/smile-id', SMILE_ID_CALLBACK_SECRET: 'cb-secret-0123456789abcdefghij',
};

/** The Smile ID variables (docs/providers.md § Smile ID): all or none, never echoing the key. */
describe('Smile ID configuration', () => {
  it('is off when no SMILE_ID_ variable is set', () => {
    expect(parseSmileIdConfig({ PAYSTACK_SECRET_KEY: 'sk_test_x' })).toBeUndefined();
  });

  it('reads a full set: the partner id as given, the base URL without its trailing slash, the callback URL ending in the secret', () => {
    expect(parseSmileIdConfig(FULL)).toMatchObject({
      partnerId: '085', apiKey: KEY, baseUrl: 'https://testapi.smileidentity.com/v1',
      callbackUrl: 'https://gateway.example.com/callbacks/smile-id/cb-secret-0123456789abcdefghij',
      authorityAttempts: 4, authorityRetryMs: 60_000, pollMs: 60_000,
    });
  });

  it.each(Object.keys(FULL))('a set without %s stops the start, naming it', (missing) => {
    const partial = Object.fromEntries(Object.entries(FULL).filter(([name]) => name !== missing));
    expect(() => parseSmileIdConfig(partial)).toThrow(SmileIdConfigError);
    expect(() => parseSmileIdConfig(partial)).toThrow(new RegExp(`set ${missing}\\b`));
  });

  it('an optional variable alone is a partial set naming every required one', () => {
    expect(() => parseSmileIdConfig({ SMILE_ID_POLL_MS: '1000' }))
      .toThrow('Smile ID is partly configured: set SMILE_ID_PARTNER_ID, SMILE_ID_API_KEY, SMILE_ID_BASE_URL, SMILE_ID_CALLBACK_BASE_URL, SMILE_ID_CALLBACK_SECRET');
  });

  it('a malformed value is named, and the API key is never echoed', () => {
    const bad = { ...FULL, SMILE_ID_API_KEY: 'short key', SMILE_ID_PARTNER_ID: 'abc' };
    let message = '';
    try {
      parseSmileIdConfig(bad);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/SMILE_ID_API_KEY/);
    expect(message).toMatch(/SMILE_ID_PARTNER_ID/);
    expect(message).not.toContain('short key');
    expect(message).not.toContain('abc');
  });

  it('the service refuses to start on a partial set, naming the variables and not the key', () => {
    let error: unknown;
    try {
      loadConfig({ SMILE_ID_API_KEY: KEY, SMILE_ID_PARTNER_ID: '085' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variables).toEqual(expect.arrayContaining(['SMILE_ID_BASE_URL', 'SMILE_ID_CALLBACK_BASE_URL', 'SMILE_ID_CALLBACK_SECRET']));
    expect((error as Error).message).not.toContain(KEY);
  });

  it('a full set reaches the service configuration', () => {
    expect(loadConfig(FULL).smileId).toMatchObject({ partnerId: '085', baseUrl: 'https://testapi.smileidentity.com/v1' });
  });
});

describe('Smile ID configuration in production', () => {
  const production = { NODE_ENV: 'production', WEBHOOK_SECRET_KEY: Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7 + 1)).toString('base64') };
  it('a guessable callback secret is refused in production, named with its estimate and never its value', () => {
    let error: unknown;
    try {
      loadConfig({ ...production, ...FULL, SMILE_ID_CALLBACK_SECRET: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaa' });
    } catch (caught) {
      error = caught;
    }
    expect((error as ConfigError).variables).toContain('SMILE_ID_CALLBACK_SECRET');
    expect((error as Error).message).not.toContain('aaaaaaaaaaaaaaaaaaaaaaaaaaaa');
  });
});
