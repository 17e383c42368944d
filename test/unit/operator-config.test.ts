import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '../../src/app/config';

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

const OIDC = {
  OIDC_ISSUER_URL: 'https://login.example.com/realms/ops', OIDC_CLIENT_ID: 'payout-console', OIDC_CLIENT_SECRET: 'a client secret',
  OIDC_REDIRECT_URI: 'https://payout.example.com/v1/operator/oidc/callback', OIDC_ROLE_MAP: 'payout-admins=admin',
};

/** Operator settings (docs/operations.md § Operators: OpenID Connect). */
describe('operator configuration', () => {
  it('defaults the session timeouts and the stuck threshold, and takes OIDC unset', () => {
    const config = loadConfig({});
    expect([config.OPERATOR_SESSION_IDLE_S, config.OPERATOR_SESSION_ABSOLUTE_S, config.OPERATOR_STUCK_PAYMENT_MINUTES]).toEqual([1800, 43_200, 60]);
    expect(config.OIDC_ISSUER_URL).toBeUndefined();
    expect(loadConfig(OIDC).OIDC_ROLE_CLAIM).toBe('groups');
  });

  it('refuses a partial OIDC set, naming what is missing and never a value', () => {
    const refused = refusal({ OIDC_ISSUER_URL: OIDC.OIDC_ISSUER_URL, OIDC_CLIENT_SECRET: 'a client secret' });
    expect(refused.variables).toEqual(['OIDC_CLIENT_ID', 'OIDC_REDIRECT_URI']);
    expect(refused.message).not.toContain('a client secret');
  });

  it('refuses a role map that maps nothing or names an unknown role', () => {
    expect(refusal({ ...OIDC, OIDC_ROLE_MAP: '' }).variables).toEqual(['OIDC_ROLE_MAP']);
    expect(refusal({ ...OIDC, OIDC_ROLE_MAP: 'payout-admins=superuser' }).problems[0]!.message).toMatch(/"payout-admins=superuser" must be <claim value>=<viewer\|operator\|admin>/);
  });

  it('refuses a plain-http identity provider in production only', () => {
    const http = { ...OIDC, OIDC_ISSUER_URL: 'http://127.0.0.1:8080' };
    expect(loadConfig(http).OIDC_ISSUER_URL).toBe('http://127.0.0.1:8080');
    const refused = refusal({ ...http, NODE_ENV: 'production', WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') });
    expect(refused.variables).toEqual(['OIDC_ISSUER_URL']);
  });
});
