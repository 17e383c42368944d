import { MtnMomoConfigError, parseMtnMomoConfig } from '../../src/adapters/providers/mtn-momo/mtn-momo-config';
import { CALLBACK_SECRET } from './support/mtn-momo-harness';

// The MTN_MOMO_* configuration's refusals, word for word (an operator reads them at start-up), and
// the URLs it keeps (docs/decisions.md § Personal data and secrets: no secret in a message).
const complete = {
  MTN_MOMO_BASE_URL: 'https://proxy.momoapi.mtn.com',
  MTN_MOMO_SUBSCRIPTION_KEY: 'sub-key-value-123',
  MTN_MOMO_API_USER: '7c1e3b4a-2f5d-4e8a-9b6c-1d2e3f4a5b6c',
  MTN_MOMO_API_KEY: 'api-key-value-456',
  MTN_MOMO_TARGET_ENVIRONMENT: 'mtnuganda',
  MTN_MOMO_CALLBACK_BASE_URL: 'https://pay.example.com/callbacks/mtn_momo',
  MTN_MOMO_CALLBACK_SECRET: CALLBACK_SECRET,
  MTN_MOMO_CALLBACK_ALLOWED_IPS: '196.201.214.0/24',
};

function refusal(env: Record<string, string>): string {
  let thrown: unknown;
  try {
    parseMtnMomoConfig(env);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(MtnMomoConfigError);
  return (thrown as Error).message;
}

describe('MTN MoMo configuration messages', () => {
  it('partly configured: one refusal listing every missing required variable, comma-separated, before any shape check', () => {
    // The API user given is not a UUID: the missing variables are what the operator hears about first.
    expect(refusal({ MTN_MOMO_API_KEY: 'api-key-value-456', MTN_MOMO_API_USER: 'not-a-uuid' })).toBe(
      'MTN MoMo is partly configured: missing MTN_MOMO_BASE_URL, MTN_MOMO_SUBSCRIPTION_KEY, MTN_MOMO_TARGET_ENVIRONMENT, '
      + 'MTN_MOMO_CALLBACK_BASE_URL, MTN_MOMO_CALLBACK_SECRET',
    );
    // An optional variable alone switches the provider on, so the required ones are all missing.
    expect(refusal({ MTN_MOMO_POLL_INTERVAL_MS: '1000' })).toBe(
      'MTN MoMo is partly configured: missing MTN_MOMO_BASE_URL, MTN_MOMO_SUBSCRIPTION_KEY, MTN_MOMO_API_USER, MTN_MOMO_API_KEY, '
      + 'MTN_MOMO_TARGET_ENVIRONMENT, MTN_MOMO_CALLBACK_BASE_URL, MTN_MOMO_CALLBACK_SECRET',
    );
  });

  it('several invalid shapes are named together, "; "-separated, each as VARIABLE: rule', () => {
    expect(refusal({ ...complete, MTN_MOMO_API_USER: 'not-a-uuid', MTN_MOMO_CALLBACK_SECRET: 'short' })).toBe(
      'Invalid MTN MoMo configuration: MTN_MOMO_API_USER: must be the API user UUID; '
      + 'MTN_MOMO_CALLBACK_SECRET: must be 32 to 128 letters, digits, _ or -',
    );
  });

  it('several broken production rules are named together, "; "-separated', () => {
    expect(refusal({ ...complete, MTN_MOMO_CALLBACK_BASE_URL: 'http://pay.example.com/cb', MTN_MOMO_CALLBACK_ALLOWED_IPS: '' })).toBe(
      'Invalid MTN MoMo configuration: MTN_MOMO_CALLBACK_BASE_URL must be https outside the sandbox; '
      + 'MTN_MOMO_CALLBACK_ALLOWED_IPS is required outside the sandbox',
    );
  });

  it('a URL must start with http(s)://: one that only contains it further on is refused', () => {
    expect(refusal({ ...complete, MTN_MOMO_BASE_URL: 'ftp://mirror.example.com/http://proxy.momoapi.mtn.com' }))
      .toBe('Invalid MTN MoMo configuration: MTN_MOMO_BASE_URL: must be an http(s) URL');
  });

  it('every trailing slash is dropped from the base URLs, so paths and the callback secret join with one slash', () => {
    expect(parseMtnMomoConfig({
      ...complete, MTN_MOMO_BASE_URL: 'https://proxy.momoapi.mtn.com//', MTN_MOMO_CALLBACK_BASE_URL: 'https://pay.example.com/callbacks/mtn_momo/',
    })).toMatchObject({ baseUrl: 'https://proxy.momoapi.mtn.com', callbackBaseUrl: 'https://pay.example.com/callbacks/mtn_momo' });
    expect(parseMtnMomoConfig(complete)).toMatchObject({ baseUrl: 'https://proxy.momoapi.mtn.com', callbackBaseUrl: 'https://pay.example.com/callbacks/mtn_momo' });
  });
});
