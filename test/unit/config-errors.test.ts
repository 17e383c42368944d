import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '../../src/app/config';
import { defaultLogFormat } from '../../src/app/logger';

/** Runs loadConfig on `env` and returns the ConfigError it throws (fails when it does not throw one). */
function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

const strongSecret = randomBytes(32).toString('base64');

describe('LOG_FORMAT (docs/decisions.md § Running it)', () => {
  it('defaults to pretty in development (NODE_ENV unset or development) and to json in test and production', () => {
    expect(loadConfig({}).LOG_FORMAT).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'development' }).LOG_FORMAT).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'test' }).LOG_FORMAT).toBe('json');
    expect(loadConfig({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: strongSecret }).LOG_FORMAT).toBe('json');
    expect([undefined, '', 'development', 'test', 'production', 'staging'].map(defaultLogFormat)).toEqual(['pretty', 'pretty', 'pretty', 'json', 'json', 'json']);
  });

  it('takes json or pretty when set; anything else is refused naming the accepted values', () => {
    expect(loadConfig({ LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
    expect(loadConfig({ NODE_ENV: 'test', LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
    const refused = refusal({ LOG_FORMAT: 'yaml' });
    expect(refused.variables).toEqual(['LOG_FORMAT']);
    expect(refused.problems).toEqual([{ variables: ['LOG_FORMAT'], message: 'LOG_FORMAT: Invalid option: expected one of "json"|"pretty"' }]);
  });

  it('pretty is refused in production, where pino-pretty is not installed', () => {
    const refused = refusal({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: strongSecret, LOG_FORMAT: 'pretty' });
    expect(refused.variables).toEqual(['LOG_FORMAT']);
    expect(refused.message).toMatch(/LOG_FORMAT=pretty is for development only/);
  });
});

describe('configuration errors: every problem, the variables named, never a value', () => {
  it('production without WEBHOOK_SECRET_KEY is refused at once, with the other variables at fault', () => {
    const refused = refusal({ NODE_ENV: 'production', PORT: '70000', DATABASE_URL: 'not a url with hunter2' });
    expect(refused.variables).toEqual(['PORT', 'DATABASE_URL', 'WEBHOOK_SECRET_KEY']);
    expect(refused.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^PORT: Too big: expected number to be <=65535/),
      expect.stringMatching(/^DATABASE_URL: Invalid URL/),
      expect.stringMatching(/^WEBHOOK_SECRET_KEY is required in production/),
    ]);
    expect(refused.message).not.toContain('hunter2');
    expect(refused.message).not.toContain('70000');
  });

  it('names the variables of key-strength and provider problems from their sentences', () => {
    const refused = refusal({
      NODE_ENV: 'production', WEBHOOK_SECRET_KEY: strongSecret, ADMIN_API_KEY: 'sk_live_00000000000000000000000000000000',
      PAYSTACK_BASE_URL: 'http://127.0.0.1:1', HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000',
    });
    expect(refused.variables).toEqual(['HTTP_HEADERS_TIMEOUT_MS', 'HTTP_REQUEST_TIMEOUT_MS', 'ADMIN_API_KEY', 'PAYSTACK_SECRET_KEY']);
    expect(refused.problems.map((p) => p.variables)).toEqual([['HTTP_HEADERS_TIMEOUT_MS', 'HTTP_REQUEST_TIMEOUT_MS'], ['ADMIN_API_KEY'], ['PAYSTACK_SECRET_KEY']]);
    expect(refused.message).not.toContain('00000000000000000000');
  });

  it('BUILD_COMMIT is a git commit hash or unset', () => {
    expect(loadConfig({ BUILD_COMMIT: '39e3278' }).BUILD_COMMIT).toBe('39e3278');
    expect(loadConfig({}).BUILD_COMMIT).toBeUndefined();
    expect(refusal({ BUILD_COMMIT: 'main; rm -rf /' }).problems).toEqual([
      { variables: ['BUILD_COMMIT'], message: 'BUILD_COMMIT: must be a git commit hash: 7 to 40 lower-case hex digits' },
    ]);
  });
});
