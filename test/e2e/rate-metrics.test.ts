import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { startCoinbaseSimulator } from '../../simulators/coinbase/coinbase-simulator';
import { startLunoSimulator } from '../../simulators/luno/luno-simulator';
import type { RateSimulator } from '../../simulators/rate-sim/rate-sim';
import { startValrSimulator } from '../../simulators/valr/valr-simulator';
import { startTestService, type TestService } from '../support/test-service';

/**
 * Per-source rate metrics on GET /metrics (docs/decisions.md § FX quotes: live rates): last success,
 * errors, age (from the source's own timestamp) and deviation from the median, for the Coinbase, Luno
 * and VALR simulators' USDC/ZAR. The refresher's loop is slowed to 10 minutes: the test refreshes.
 */
describe('rate source metrics', () => {
  let service: TestService;
  let admin: string;
  const sims: Record<'coinbase' | 'luno' | 'valr', RateSimulator> = {} as never;

  beforeAll(async () => {
    // Coinbase is read for every catalog pair: it lists them all, so a clean read reports no problem.
    const catalog = loadCatalog('data/corridors.json');
    const all = Object.fromEntries(Object.entries(catalog.rates).flatMap(([fiat, coins]) => Object.entries(coins ?? {}).map(([coin, rate]) => [`${coin}:${fiat}`, rate])));
    sims.coinbase = await startCoinbaseSimulator({ rates: { ...all, 'USDC:ZAR': '18.00' } });
    sims.luno = await startLunoSimulator({ rates: { USDCZAR: '18.30' } });
    sims.valr = await startValrSimulator({ rates: { USDCZAR: '18.10' } });
    service = await startTestService({
      RATES_SOURCES: 'coinbase,luno,valr',
      RATES_COINBASE_BASE_URL: sims.coinbase.url, RATES_LUNO_BASE_URL: sims.luno.url, RATES_VALR_BASE_URL: sims.valr.url,
      RATES_LUNO_MARKETS: 'USDCZAR', RATES_VALR_MARKETS: 'USDCZAR', RATES_REFRESH_INTERVAL_MS: '600000', RATES_BAND_PERCENT: '2',
      WORKER_ENABLED: 'false',
    });
    admin = await service.newAdminKey();
  });
  afterAll(async () => {
    await service.close();
    await Promise.all(Object.values(sims).map((sim) => sim.close()));
  });

  const scrape = async () => (await service.call('GET', '/metrics', { apiKey: admin })).text;
  /** The value of one series, or undefined when absent. */
  function value(text: string, name: string, labels: string): number | undefined {
    const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
    return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
  }

  it('reports each source\'s last success, errors, age and deviation from the median', async () => {
    sims.valr.setMode({ mode: 'stale', staleSeconds: 60 });
    const before = Date.now() / 1000;
    await service.container.rates.refreshNow();
    const after = Date.now() / 1000;
    let text = await scrape();
    for (const source of ['coinbase', 'luno', 'valr']) {
      const success = value(text, 'rate_source_last_success_timestamp_seconds', `source="${source}"`);
      expect([source, success! >= before - 1 && success! <= after + 1]).toEqual([source, true]);
      expect([source, value(text, 'rate_source_errors_total', `source="${source}"`)]).toEqual([source, 0]);
    }
    // VALR stamps its rate 60 s back (within RATES_MAX_AGE_SECONDS, 120); the others stamp now (Coinbase to the second of its Date header).
    expect(value(text, 'rate_source_age_seconds', 'source="valr",pair="USDC/ZAR"')).toBeGreaterThanOrEqual(59);
    expect(value(text, 'rate_source_age_seconds', 'source="luno",pair="USDC/ZAR"')).toBeLessThan(5);
    // median(18.00, 18.30, 18.10) = 18.10: Coinbase −0.5525 %, Luno +1.1050 %, VALR 0.
    expect(value(text, 'rate_source_deviation_percent', 'source="coinbase",pair="USDC/ZAR"')).toBeCloseTo(-0.5525, 3);
    expect(value(text, 'rate_source_deviation_percent', 'source="luno",pair="USDC/ZAR"')).toBeCloseTo(1.105, 3);
    expect(value(text, 'rate_source_deviation_percent', 'source="valr",pair="USDC/ZAR"')).toBe(0);

    // Luno fails: its errors count, its last success stays where it was; a skewed VALR shows its distance.
    const lunoSuccess = value(text, 'rate_source_last_success_timestamp_seconds', 'source="luno"');
    sims.luno.setMode('failing');
    sims.valr.setMode({ mode: 'skewed', skewPercent: '10' });
    await service.container.rates.refreshNow();
    text = await scrape();
    expect(value(text, 'rate_source_errors_total', 'source="luno"')).toBe(1);
    expect(value(text, 'rate_source_errors_total', 'source="coinbase"')).toBe(0);
    expect(value(text, 'rate_source_last_success_timestamp_seconds', 'source="luno"')).toBe(lunoSuccess);
    // Fresh: Coinbase 18.00, VALR 19.91, and Luno's last 18.30 (kept while fresh); VALR is 8.8 % from 18.30, out of band.
    // The median of the two used (18.00, 18.30) is 18.15: VALR +9.697 %.
    expect(value(text, 'rate_source_deviation_percent', 'source="valr",pair="USDC/ZAR"')).toBeCloseTo(9.697, 2);
    for (const sim of Object.values(sims)) sim.setMode('normal');
  });
});
