import { randomBytes, randomInt } from 'node:crypto';
import { generateApiKey } from '../../src/app/api-keys';
import { loadConfig } from '../../src/app/config';
import { apiKeyEntropyBits, MIN_SECRET_BITS, patternBits, secretTextEntropyBits, shannonBits, weakSecretProblems } from '../../src/app/key-strength';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomText = (length: number, alphabet = BASE62) => Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');

describe('key strength: the production rule for API keys and the webhook key', () => {
  it.each([
    ['all zeros', 'sk_live_00000000000000000000000000000000'],
    ['one letter', `sk_live_${'a'.repeat(40)}`],
    ['an ascending sequence', 'sk_live_abcdefghijklmnopqrstuvwxyzABCDEF'],
    ['a descending digit run', 'sk_live_98765432109876543210987654321098'],
    ['two letters alternating', `sk_live_${'ac'.repeat(16)}`],
    ['a short block repeated', `sk_live_${'Xk9pQ2'.repeat(6)}`],
    ['a random block written twice', `sk_live_${'q7RzK2mWx9BfT4nL'.repeat(2)}`],
    ['half of it one character', `sk_live_${'aXaYaZaWaVaUaTaSaRaQaPaOaNaMaLaK'}`],
    ['a malformed key', 'sk_live_short'],
  ])('refuses %s', (_name, key) => {
    expect(apiKeyEntropyBits(key)).toBeLessThan(MIN_SECRET_BITS);
  });

  it('accepts generated keys and random 32-character keys, every time', () => {
    for (let i = 0; i < 2000; i++) {
      expect(apiKeyEntropyBits(generateApiKey('live'))).toBeGreaterThanOrEqual(MIN_SECRET_BITS);
      expect(apiKeyEntropyBits(`sk_sandbox_${randomText(32)}`)).toBeGreaterThanOrEqual(MIN_SECRET_BITS);
      expect(apiKeyEntropyBits(`sk_live_${randomText(48, '0123456789abcdef')}`)).toBeGreaterThanOrEqual(MIN_SECRET_BITS);
    }
  });

  it('scores with the smaller of the two estimates', () => {
    expect(shannonBits('0000')).toBe(0);
    // Two symbols, evenly: 1 bit each plus the Miller–Madow term 1/(2·8·ln 2) each.
    expect(shannonBits('abababab')).toBeCloseTo(8 + 8 / (16 * Math.LN2), 6);
    // 'a' and 'b' free (one step by one is chance), then 'ababab' repeats what came before: one more.
    expect(patternBits('abababab')).toBeCloseTo(3 * Math.log2(26), 6);
    // A run that keeps stepping by one, or repeating, is free only for its first two characters.
    expect(patternBits('abcdefgh')).toBeCloseTo(2 * Math.log2(26), 6);
    expect(patternBits('1111')).toBeCloseTo(2 * Math.log2(10), 6);
    expect(patternBits('a1')).toBeCloseTo(2 * Math.log2(36), 6);
    expect(apiKeyEntropyBits(`sk_live_${'ab'.repeat(16)}`)).toBe(Math.min(shannonBits('ab'.repeat(16)), patternBits('ab'.repeat(16))));
  });

  it('names each weak variable with its estimate and never its value', () => {
    const problems = weakSecretProblems({
      SANDBOX_API_KEY: `sk_sandbox_${'Xk9pQ2'.repeat(6)}`, ADMIN_API_KEY: generateApiKey('live'),
      WEBHOOK_SECRET_KEY: Buffer.alloc(32).toString('base64'),
    });
    expect(problems).toEqual([
      expect.stringMatching(/^SANDBOX_API_KEY is too weak: its random part is estimated at \d+ bits, at least 128 are required/),
      expect.stringMatching(/^WEBHOOK_SECRET_KEY is too weak: its bytes are estimated at 0 bits/),
    ]);
    expect(problems.join(' ')).not.toContain('Xk9pQ2');
    expect(weakSecretProblems({ WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') })).toEqual([]);
    expect(weakSecretProblems({})).toEqual([]);
  });

  it('holds the callbacks\' path secrets to the same rule: weak ones named with their estimate, never their value', () => {
    const weak = {
      // Valid for the providers' own check (32-128 of A-Za-z0-9_-), guessable all the same.
      MPESA_CALLBACK_PATH_SECRET: 'cb_0123456789abcdefghijklmnopqrstuvwxyz',
      MTN_MOMO_CALLBACK_SECRET: `${'Ab1-'.repeat(8)}`,
    };
    const problems = weakSecretProblems(weak);
    expect(problems).toEqual([
      expect.stringMatching(/^MPESA_CALLBACK_PATH_SECRET is too weak: it is estimated at \d+ bits, at least 128 are required/),
      expect.stringMatching(/^MTN_MOMO_CALLBACK_SECRET is too weak: it is estimated at \d+ bits, at least 128 are required/),
    ]);
    expect(problems.join(' ')).not.toMatch(/cb_0123|Ab1-/);
    for (const secret of Object.values(weak)) expect(secretTextEntropyBits(secret)).toBeLessThan(MIN_SECRET_BITS);
    const urlSafe = `${BASE62}-_`;
    for (let i = 0; i < 500; i++) {
      const secrets = { MPESA_CALLBACK_PATH_SECRET: randomText(32, urlSafe), MTN_MOMO_CALLBACK_SECRET: randomBytes(32).toString('hex') };
      expect(weakSecretProblems(secrets)).toEqual([]);
    }
    expect(secretTextEntropyBits('')).toBe(0);
  });

  it('holds Flutterwave\'s webhook secret hash to the same rule, through the configuration in production', () => {
    expect(weakSecretProblems({ FLUTTERWAVE_WEBHOOK_SECRET_HASH: 'flutterwave-hash-0000000000000000' })).toEqual([
      expect.stringMatching(/^FLUTTERWAVE_WEBHOOK_SECRET_HASH is too weak: it is estimated at \d+ bits, at least 128 are required/),
    ]);
    expect(weakSecretProblems({ FLUTTERWAVE_WEBHOOK_SECRET_HASH: randomBytes(32).toString('hex') })).toEqual([]);
    const flutterwave = {
      FLUTTERWAVE_SECRET_KEY: 'FLWSECK-0123456789abcdef0123456789abcdef-X', FLUTTERWAVE_WEBHOOK_SECRET_HASH: 'flutterwave-hash-0000000000000000',
      FLUTTERWAVE_SENDER_NAME: 'Payout Gateway Ltd', FLUTTERWAVE_SENDER_COUNTRY: 'KE', FLUTTERWAVE_SENDER_MOBILE: '254700000001',
    };
    const strong = { ADMIN_API_KEY: generateApiKey('live'), SANDBOX_API_KEY: generateApiKey('sandbox'), WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') };
    expect(() => loadConfig({ ...strong, ...flutterwave, NODE_ENV: 'production' })).toThrow(/FLUTTERWAVE_WEBHOOK_SECRET_HASH is too weak/);
    expect(() => loadConfig({ ...strong, ...flutterwave, FLUTTERWAVE_WEBHOOK_SECRET_HASH: randomBytes(32).toString('hex'), NODE_ENV: 'production' })).not.toThrow();
  });

  it('applies in production only, as a configuration error listing every problem', () => {
    const weak = { ADMIN_API_KEY: 'sk_live_00000000000000000000000000000000', WEBHOOK_SECRET_KEY: Buffer.alloc(32).toString('base64') };
    expect(() => loadConfig({ ...weak, NODE_ENV: 'development' })).not.toThrow();
    expect(() => loadConfig({ ...weak, NODE_ENV: 'production' })).toThrow(/ADMIN_API_KEY is too weak[\s\S]*WEBHOOK_SECRET_KEY is too weak/);
    expect(() => loadConfig({
      NODE_ENV: 'production', ADMIN_API_KEY: generateApiKey('live'), SANDBOX_API_KEY: generateApiKey('sandbox'),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    })).not.toThrow();
  });

  it('holds pawaPay\'s callback path secret to the rule in production, naming it and never its value', () => {
    const strong = {
      NODE_ENV: 'production', ADMIN_API_KEY: generateApiKey('live'), SANDBOX_API_KEY: generateApiKey('sandbox'),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
      PAWAPAY_BASE_URL: 'https://api.pawapay.io', PAWAPAY_API_TOKEN: randomBytes(32).toString('hex'), PAWAPAY_ENVIRONMENT: 'production',
      PAWAPAY_CALLBACK_ALLOWED_IPS: '18.192.208.15/32', PAWAPAY_CALLBACK_SECRET: randomBytes(32).toString('hex'),
    };
    expect(() => loadConfig(strong)).not.toThrow();
    let message = '';
    try {
      loadConfig({ ...strong, PAWAPAY_CALLBACK_SECRET: 'Ab1-'.repeat(8) });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/PAWAPAY_CALLBACK_SECRET is too weak: it is estimated at \d+ bits/);
    expect(message).not.toContain('Ab1-');
  });
});
