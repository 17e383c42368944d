import { MpesaConfigError, parseMpesaConfig } from '../../src/adapters/providers/mpesa/mpesa-config';

// The MPESA_* variables read value by value (docs/decisions.md § Personal data and secrets): the
// certificate is read through the injected reader, so nothing here touches the disk.
const SECRET = 'cb_0123456789abcdefghijklmnopqrstuvwxyz';
const CERT = Buffer.from('-----BEGIN PUBLIC KEY-----\n...\n-----END PUBLIC KEY-----\n');
const env: Record<string, string> = {
  MPESA_BASE_URL: 'https://sandbox.safaricom.co.ke', MPESA_CONSUMER_KEY: 'ck', MPESA_CONSUMER_SECRET: 'cs', MPESA_SHORTCODE: '600980',
  MPESA_INITIATOR_NAME: 'testapi', MPESA_INITIATOR_PASSWORD: 'pw', MPESA_CERTIFICATE_PATH: '/certs/mpesa.cer',
  MPESA_CALLBACK_BASE_URL: 'https://pay.example.com/cb/mpesa', MPESA_CALLBACK_PATH_SECRET: SECRET,
};
const read = (path: string) => {
  if (path !== '/certs/mpesa.cer') throw new Error('ENOENT');
  return CERT;
};
const parse = (over: Record<string, string | undefined> = {}) => parseMpesaConfig({ ...env, ...over }, read);
const message = (over: Record<string, string | undefined>) => {
  try {
    parse(over);
  } catch (error) {
    expect(error).toBeInstanceOf(MpesaConfigError);
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('M-Pesa configuration values', () => {
  it('all set: every value, with the defaults of the optional ones', () => {
    const config = parse();
    expect({ ...config, callbackAllowList: undefined }).toEqual({
      baseUrl: 'https://sandbox.safaricom.co.ke', consumerKey: 'ck', consumerSecret: 'cs', shortcode: '600980', b2bShortcode: '600980',
      initiatorName: 'testapi', initiatorPassword: 'pw', certificate: CERT, b2cCommandId: 'BusinessPayment',
      callbackBaseUrl: 'https://pay.example.com/cb/mpesa', callbackPathSecret: SECRET, callbackAllowList: undefined,
      connectTimeoutMs: 5_000, responseTimeoutMs: 30_000, resultWaitMs: 60_000,
    });
    expect(config?.callbackAllowList).toBeUndefined();
  });

  it('values are trimmed, URLs lose trailing slashes, and optional ones are read', () => {
    expect(parse({
      MPESA_BASE_URL: ' http://127.0.0.1:9000// ', MPESA_SHORTCODE: ' 600980 ', MPESA_B2B_SHORTCODE: '600000', MPESA_B2C_COMMAND_ID: 'SalaryPayment',
      MPESA_CONNECT_TIMEOUT_MS: '100', MPESA_RESPONSE_TIMEOUT_MS: '120000', MPESA_RESULT_WAIT_MS: '3600000',
    })).toMatchObject({
      baseUrl: 'http://127.0.0.1:9000', shortcode: '600980', b2bShortcode: '600000', b2cCommandId: 'SalaryPayment',
      connectTimeoutMs: 100, responseTimeoutMs: 120_000, resultWaitMs: 3_600_000,
    });
  });

  it('none set is off, blank values included; any one set, optional or not, asks for every missing required one', () => {
    const blank = Object.fromEntries(Object.keys(env).map((k) => [k, '  ']));
    expect(parseMpesaConfig(blank, read)).toBeUndefined();
    expect(parseMpesaConfig({}, read)).toBeUndefined();
    const onlyOptional = () => parseMpesaConfig({ MPESA_RESULT_WAIT_MS: '5000' }, read);
    expect(onlyOptional).toThrow('M-Pesa is partly configured: set MPESA_BASE_URL, MPESA_CONSUMER_KEY, MPESA_CONSUMER_SECRET, MPESA_SHORTCODE, '
      + 'MPESA_INITIATOR_NAME, MPESA_INITIATOR_PASSWORD, MPESA_CERTIFICATE_PATH, MPESA_CALLBACK_BASE_URL, MPESA_CALLBACK_PATH_SECRET (or unset every MPESA_ variable)');
    expect(message({ MPESA_SHORTCODE: ' ' })).toBe('M-Pesa is partly configured: set MPESA_SHORTCODE (or unset every MPESA_ variable)');
  });

  it('names each invalid variable with its rule, and a secret one without its value', () => {
    expect(message({ MPESA_BASE_URL: 'ftp://files.example.com', MPESA_SHORTCODE: '1234' }))
      .toBe('Invalid M-Pesa configuration: MPESA_BASE_URL must be an http(s) URL; MPESA_SHORTCODE must be an M-Pesa shortcode of 5 to 7 digits');
    expect(message({ MPESA_B2B_SHORTCODE: '12345678' })).toBe('Invalid M-Pesa configuration: MPESA_B2B_SHORTCODE must be an M-Pesa shortcode of 5 to 7 digits');
    expect(message({ MPESA_CALLBACK_PATH_SECRET: 'short secret' })).toBe('Invalid M-Pesa configuration: MPESA_CALLBACK_PATH_SECRET is invalid');
    expect(message({ MPESA_B2C_COMMAND_ID: 'Payment' })).toMatch(/^Invalid M-Pesa configuration: MPESA_B2C_COMMAND_ID /);
    expect(message({ MPESA_CONNECT_TIMEOUT_MS: '99' })).toMatch(/^Invalid M-Pesa configuration: MPESA_CONNECT_TIMEOUT_MS /);
    expect(message({ MPESA_RESPONSE_TIMEOUT_MS: '120001' })).toMatch(/^Invalid M-Pesa configuration: MPESA_RESPONSE_TIMEOUT_MS /);
    expect(message({ MPESA_CALLBACK_ALLOWED_IPS: '10.0.0.0/8, nowhere' })).toBe('Invalid M-Pesa configuration: MPESA_CALLBACK_ALLOWED_IPS must be a comma-separated list of addresses or CIDR ranges');
  });

  it('production needs an allow-list and an https callback URL, both named at once', () => {
    expect(message({ NODE_ENV: 'production', MPESA_CALLBACK_BASE_URL: 'http://pay.example.com/cb/mpesa' })).toBe('Invalid M-Pesa configuration: '
      + 'MPESA_CALLBACK_ALLOWED_IPS must list Safaricom\'s callback addresses in production; MPESA_CALLBACK_BASE_URL must be https in production (the path secret travels in it)');
    expect(parse({ NODE_ENV: 'production', MPESA_CALLBACK_ALLOWED_IPS: '196.201.214.0/24' })).toMatchObject({ callbackBaseUrl: 'https://pay.example.com/cb/mpesa' });
    expect(parse({ NODE_ENV: 'development', MPESA_CALLBACK_BASE_URL: 'http://127.0.0.1:3000/cb' })).toBeDefined();
  });

  it('the certificate is read from MPESA_CERTIFICATE_PATH; an unreadable one is named', () => {
    expect(parse()?.certificate).toBe(CERT);
    expect(message({ MPESA_CERTIFICATE_PATH: '/elsewhere.cer' })).toBe('MPESA_CERTIFICATE_PATH cannot be read');
  });

  it('the allow-list takes addresses and CIDR ranges, IPv4-mapped forms too; an unreadable address is outside', () => {
    const allowed = parse({ MPESA_CALLBACK_ALLOWED_IPS: ' 196.201.214.0/24 , 10.1.2.3,, ' })!.callbackAllowList!;
    expect(allowed('196.201.214.200')).toBe(true);
    expect(allowed('::ffff:196.201.214.7')).toBe(true);
    expect(allowed('10.1.2.3')).toBe(true);
    expect(allowed('10.1.2.4')).toBe(false);
    expect(allowed('196.201.215.1')).toBe(false);
    expect(allowed('not an address')).toBe(false);
    expect(parse({ MPESA_CALLBACK_ALLOWED_IPS: ' , ' })!.callbackAllowList).toBeUndefined();
  });
});
