import { ratesConfigProblems, ratesEnvSchema } from '../../src/adapters/providers/rates/rates-config';
import { decimalText } from '../../src/adapters/providers/rates/rate-http';

/**
 * The live-rate variables read by their own schema (README "Configuration"; docs/decisions.md § FX
 * quotes: live rates), each list format at its edges: what is accepted exactly at a bound, and what
 * is refused with which message, on the variable at fault.
 */
const parse = (env: Record<string, string>) => ratesEnvSchema.parse(env);
/** The issues the schema refuses `env` with, as `<variable>: <message>`; none when accepted. */
function refused(env: Record<string, string>): string[] {
  const parsed = ratesEnvSchema.safeParse(env);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('RATES_SOURCES', () => {
  it('is trimmed, de-duplicated, in order; an unknown name is refused listing the known ones', () => {
    expect(parse({ RATES_SOURCES: ' valr , coinbase,, valr ' }).RATES_SOURCES).toEqual(['valr', 'coinbase']);
    expect(parse({}).RATES_SOURCES).toEqual([]);
    expect(refused({ RATES_SOURCES: 'coinbase,bloomberg,reuters' })).toEqual([
      'RATES_SOURCES: "bloomberg" is not one of coinbase, luno, valr, oxr', 'RATES_SOURCES: "reuters" is not one of coinbase, luno, valr, oxr',
    ]);
  });

  it('Open Exchange Rates needs its App ID; no other source does', () => {
    const problem = { variables: ['RATES_OXR_APP_ID'], message: 'RATES_OXR_APP_ID is required when RATES_SOURCES names oxr (the Open Exchange Rates App ID)' };
    expect(ratesConfigProblems(parse({ RATES_SOURCES: 'coinbase,oxr' }))).toEqual([problem]);
    expect(ratesConfigProblems(parse({ RATES_SOURCES: 'oxr', RATES_OXR_APP_ID: '0123456789abcdef0123456789abcdef' }))).toEqual([]);
    expect(ratesConfigProblems(parse({ RATES_SOURCES: 'coinbase' }))).toEqual([]);
    expect(ratesConfigProblems(parse({ RATES_OXR_APP_ID: '0123456789abcdef0123456789abcdef' }))).toEqual([]);
  });
});

describe('base URLs and markets', () => {
  it('a base URL is http or https at its start', () => {
    expect(parse({ RATES_VALR_BASE_URL: 'http://127.0.0.1:8080' }).RATES_VALR_BASE_URL).toBe('http://127.0.0.1:8080');
    expect(refused({ RATES_LUNO_BASE_URL: 'ftp://files.example/https://api.luno.com' })).toEqual(['RATES_LUNO_BASE_URL: must be an http(s) URL']);
  });

  it('a venue market list is parsed; a bad symbol is named without repeating the variable', () => {
    expect(parse({ RATES_VALR_MARKETS: 'usdtzar' }).RATES_VALR_MARKETS).toEqual([{ symbol: 'USDTZAR', stablecoin: 'USDT', fiat: 'ZAR' }]);
    expect(refused({ RATES_VALR_MARKETS: 'USDCZAR,XBTZAR' })).toEqual([
      'RATES_VALR_MARKETS: "XBTZAR" is not a USDC or USDT market against a fiat currency the service pays out',
    ]);
  });
});

describe('RATES_SOURCE_MAX_AGE_SECONDS', () => {
  it('gives milliseconds per source over Open Exchange Rates\' default of 4,500 s', () => {
    expect(parse({}).RATES_SOURCE_MAX_AGE_SECONDS).toEqual({ oxr: 4_500_000 });
    expect(parse({ RATES_SOURCE_MAX_AGE_SECONDS: 'luno=99999, oxr=7' }).RATES_SOURCE_MAX_AGE_SECONDS).toEqual({ oxr: 7_000, luno: 99_999_000 });
  });

  it.each(['coinbase=123456', 'coinbase=', '1coinbase=5', 'coinbase=5x', 'Coinbase=5', 'bloomberg=5'])('refuses %s', (item) => {
    expect(refused({ RATES_SOURCE_MAX_AGE_SECONDS: item })).toEqual([`RATES_SOURCE_MAX_AGE_SECONDS: "${item}" is not <source>=<seconds>`]);
  });
});

describe('RATES_PAIR_QUORUMS', () => {
  it('gives a quorum of 1 to 10 per pair, any case', () => {
    expect(parse({ RATES_PAIR_QUORUMS: 'usdckes=1,USDTZAR=10,USDCNGN=09' }).RATES_PAIR_QUORUMS).toEqual({ 'USDC/KES': 1, 'USDT/ZAR': 10, 'USDC/NGN': 9 });
  });

  it.each(['USDCKES=0', 'USDCKES=11', 'USDCKES=100', 'USDCKES=', '1USDCKES=1', 'USDCKES=1x', 'USDCEUR=1', 'XBTKES=1', '=1'])('refuses %s', (item) => {
    expect(refused({ RATES_PAIR_QUORUMS: item })).toEqual([`RATES_PAIR_QUORUMS: "${item}" is not <stablecoin><fiat>=<quorum 1 to 10>, e.g. USDCKES=1`]);
  });
});

describe('RATES_SPREADS', () => {
  it('gives a percentage per corridor or per method (*), up to two digits and four places', () => {
    expect(parse({ RATES_SPREADS: 'KE:MOMO=1, *:BANK=12.3456,NG:BANK=0.5' }).RATES_SPREADS).toEqual({ 'KE:MOMO': '1', '*:BANK': '12.3456', 'NG:BANK': '0.5' });
  });

  it.each(['1KE:MOMO=0.5', 'KE:MOMO=0.5x', 'KE:MOMO=100', 'KE:MOMO=0.12345', 'KE:MOMO=', 'KEN:MOMO=1', 'KE:momo=1'])('refuses %s', (item) => {
    expect(refused({ RATES_SPREADS: item })).toEqual([`RATES_SPREADS: "${item}" is not <country or *>:<method>=<percent>, e.g. KE:MOMO=0.5`]);
  });
});

describe('a source\'s price text (decimalText)', () => {
  it('is a positive plain decimal; zero in any spelling, or anything after the number, is none', () => {
    expect(['129.5', '0.5', '0.05', '10', '007'].map(decimalText)).toEqual(['129.5', '0.5', '0.05', '10', '007']);
    expect(['0', '00', '0.0', '0.00', '000.000', '1.5x', '1.', '-1', '1e2', '', 12].map(decimalText)).toEqual(Array(11).fill(undefined));
  });
});
