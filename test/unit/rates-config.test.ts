import { ConfigError, loadConfig } from '../../src/app/config';

/** The problems loadConfig refuses `env` with (fails when it accepts it). */
function problems(env: Record<string, string>): ConfigError['problems'] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

describe('live-rate configuration (README "Configuration"; docs/decisions.md § FX quotes: live rates)', () => {
  it('defaults: no source (every tenant on catalog rates), quorum 2, band 2 %, jump 5 % in 10 minutes, no spread', () => {
    const config = loadConfig({});
    expect(config.RATES_SOURCES).toEqual([]);
    expect([config.RATES_QUORUM, config.RATES_BAND_PERCENT, config.RATES_JUMP_PERCENT, config.RATES_JUMP_WINDOW_MINUTES]).toEqual([2, '2', '5', 10]);
    // Open Exchange Rates publishes hourly: its own default age (docs/providers.md § Rates: coverage).
    expect([config.RATES_SPREAD_PERCENT, config.RATES_SPREADS, config.RATES_SOURCE_MAX_AGE_SECONDS]).toEqual(['0', {}, { oxr: 4_500_000 }]);
    expect([config.RATES_OXR_BASE_URL, config.RATES_OXR_APP_ID, config.RATES_OXR_INTERVAL_SECONDS]).toEqual(['https://openexchangerates.org/api', undefined, 600]);
    expect([config.RATES_REFRESH_INTERVAL_MS, config.RATES_MAX_AGE_SECONDS, config.RATES_COINBASE_BASE_URL]).toEqual([15_000, 120, 'https://api.coinbase.com']);
    expect(config.RATES_VALR_MARKETS).toEqual([{ symbol: 'USDCZAR', stablecoin: 'USDC', fiat: 'ZAR' }, { symbol: 'USDTZAR', stablecoin: 'USDT', fiat: 'ZAR' }]);
  });

  it('parses sources, per-source ages, markets and spreads', () => {
    const config = loadConfig({
      RATES_SOURCES: 'coinbase, valr,coinbase', RATES_SOURCE_MAX_AGE_SECONDS: 'coinbase=300,luno=60',
      RATES_LUNO_MARKETS: 'usdcngn', RATES_SPREADS: 'KE:MOMO=0.5,*:BANK=0.75', RATES_SPREAD_PERCENT: '1.25',
    });
    expect(config.RATES_SOURCES).toEqual(['coinbase', 'valr']);
    expect(config.RATES_SOURCE_MAX_AGE_SECONDS).toEqual({ coinbase: 300_000, luno: 60_000, oxr: 4_500_000 });
    expect(loadConfig({ RATES_SOURCE_MAX_AGE_SECONDS: 'oxr=900' }).RATES_SOURCE_MAX_AGE_SECONDS).toEqual({ oxr: 900_000 });
    expect(config.RATES_LUNO_MARKETS).toEqual([{ symbol: 'USDCNGN', stablecoin: 'USDC', fiat: 'NGN' }]);
    expect(config.RATES_SPREADS).toEqual({ 'KE:MOMO': '0.5', '*:BANK': '0.75' });
    expect(config.RATES_SPREAD_PERCENT).toBe('1.25');
  });

  it('parses per-pair quorums (RATES_PAIR_QUORUMS), none by default', () => {
    expect(loadConfig({}).RATES_PAIR_QUORUMS).toEqual({});
    expect(loadConfig({ RATES_PAIR_QUORUMS: 'USDCKES=1, usdtkes=1,USDCZAR=3' }).RATES_PAIR_QUORUMS).toEqual({ 'USDC/KES': 1, 'USDT/KES': 1, 'USDC/ZAR': 3 });
  });

  it.each([
    [{ RATES_SOURCES: 'coinbase,bloomberg' }, 'RATES_SOURCES', '"bloomberg" is not one of coinbase, luno, valr, oxr'],
    [{ RATES_SOURCES: 'coinbase,oxr' }, 'RATES_OXR_APP_ID', 'RATES_OXR_APP_ID is required when RATES_SOURCES names oxr'],
    [{ RATES_SOURCES: 'oxr', RATES_OXR_APP_ID: 'not-a-hex-app-id-of-32-characters' }, 'RATES_OXR_APP_ID', 'must be an Open Exchange Rates App ID'],
    [{ RATES_OXR_INTERVAL_SECONDS: '-1' }, 'RATES_OXR_INTERVAL_SECONDS', ''],
    [{ RATES_LUNO_MARKETS: 'USDCZAR,XBTZAR' }, 'RATES_LUNO_MARKETS', '"XBTZAR" is not a USDC or USDT market'],
    [{ RATES_SPREADS: 'KE-MOMO=0.5' }, 'RATES_SPREADS', '"KE-MOMO=0.5" is not <country or *>:<method>=<percent>'],
    [{ RATES_SOURCE_MAX_AGE_SECONDS: 'coinbase:300' }, 'RATES_SOURCE_MAX_AGE_SECONDS', '"coinbase:300" is not <source>=<seconds>'],
    [{ RATES_BAND_PERCENT: '-1' }, 'RATES_BAND_PERCENT', 'must be a percentage'],
    [{ RATES_SPREAD_PERCENT: '100' }, 'RATES_SPREAD_PERCENT', 'must be a percentage'],
    [{ RATES_QUORUM: '0' }, 'RATES_QUORUM', ''],
    [{ RATES_PAIR_QUORUMS: 'USDCKES=0' }, 'RATES_PAIR_QUORUMS', '"USDCKES=0" is not <stablecoin><fiat>=<quorum 1 to 10>'],
    [{ RATES_PAIR_QUORUMS: 'USDCEUR=1' }, 'RATES_PAIR_QUORUMS', '"USDCEUR=1" is not'],
    [{ RATES_PAIR_QUORUMS: 'USDC/KES=1' }, 'RATES_PAIR_QUORUMS', '"USDC/KES=1" is not'],
  ])('refuses %j naming %s', (env, variable, text) => {
    const [problem, ...more] = problems(env);
    expect(more).toEqual([]);
    expect(problem!.variables).toEqual([variable]);
    expect(problem!.message).toContain(text);
  });

  it('turns Open Exchange Rates on with its App ID, and never echoes the App ID when refusing it', () => {
    const appId = '0123456789abcdef0123456789ABCDEF';
    const config = loadConfig({ RATES_SOURCES: 'coinbase,oxr', RATES_OXR_APP_ID: appId, RATES_OXR_INTERVAL_SECONDS: '0' });
    expect([config.RATES_SOURCES, config.RATES_OXR_APP_ID, config.RATES_OXR_INTERVAL_SECONDS]).toEqual([['coinbase', 'oxr'], appId, 0]);
    // An App ID set while oxr is off is kept for later, not refused.
    expect(loadConfig({ RATES_OXR_APP_ID: appId }).RATES_SOURCES).toEqual([]);
    const secretLike = `${appId}0`;
    const refused = problems({ RATES_SOURCES: 'oxr', RATES_OXR_APP_ID: secretLike });
    expect(refused.map((p) => p.variables)).toEqual([['RATES_OXR_APP_ID']]);
    expect(JSON.stringify(refused)).not.toContain(appId);
  });
});
