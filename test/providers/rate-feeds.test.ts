import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CoinbaseRateFeed } from '../../src/adapters/providers/rates/coinbase-rate-feed';
import { LunoRateFeed } from '../../src/adapters/providers/rates/luno-rate-feed';
import { OxrRateFeed } from '../../src/adapters/providers/rates/oxr-rate-feed';
import { systemClock } from '../../src/adapters/providers/system';
import { RateHttpClient } from '../../src/adapters/providers/rates/rate-http';
import { ValrRateFeed } from '../../src/adapters/providers/rates/valr-rate-feed';
import { parseVenueMarkets } from '../../src/adapters/providers/rates/venue-pairs';
import type { FeedReading, RateFeed } from '../../src/core/quotes/rate-feed';
import { startCoinbaseSimulator } from '../../simulators/coinbase/coinbase-simulator';
import { startLunoSimulator } from '../../simulators/luno/luno-simulator';
import { OXR_SIM_APP_ID, startOxrSimulator } from '../../simulators/oxr/oxr-simulator';
import type { RateSimulator } from '../../simulators/rate-sim/rate-sim';
import { startValrSimulator } from '../../simulators/valr/valr-simulator';

/**
 * Each rate source adapter against its protocol simulator over real HTTP (docs/providers.md § Rates):
 * the rate and the source's own timestamp it reads, and each simulator mode (stale, skewed, failing,
 * jumping) as the adapter sees it.
 */
const http = new RateHttpClient(2000);
afterAll(() => http.close());

const rateOf = (reading: FeedReading, fiat: string, stablecoin = 'USDC') => reading.rates.find((r) => r.fiat === fiat && r.stablecoin === stablecoin);
const ageS = (at: Date | undefined) => (Date.now() - (at?.getTime() ?? 0)) / 1000;

interface Case {
  readonly name: string;
  readonly start: () => Promise<RateSimulator>;
  readonly feed: (url: string) => RateFeed;
  /** The ZAR per USDC rate the simulator starts with, as the adapter reads it. */
  readonly zar: string;
}

const CASES: readonly Case[] = [
  {
    name: 'coinbase', start: () => startCoinbaseSimulator(), zar: '17.85',
    feed: (url) => new CoinbaseRateFeed(http, url, [{ fiat: 'ZAR', stablecoin: 'USDC' }, { fiat: 'KES', stablecoin: 'USDC' }, { fiat: 'NGN', stablecoin: 'USDT' }]),
  },
  { name: 'luno', start: () => startLunoSimulator(), zar: '17.86', feed: (url) => new LunoRateFeed(http, url, parseVenueMarkets('USDCZAR,USDTNGN', 'RATES_LUNO_MARKETS')) },
  { name: 'valr', start: () => startValrSimulator(), zar: '17.84', feed: (url) => new ValrRateFeed(http, url, parseVenueMarkets('USDCZAR,USDTZAR', 'RATES_VALR_MARKETS')) },
  {
    name: 'oxr', start: () => startOxrSimulator(), zar: '17.86',
    feed: (url) => new OxrRateFeed(http, { baseUrl: `${url}/api`, appId: OXR_SIM_APP_ID, intervalMs: 0 }, [{ fiat: 'ZAR', stablecoin: 'USDC' }, { fiat: 'KES', stablecoin: 'USDT' }], systemClock),
  },
];

describe.each(CASES)('$name rate feed over HTTP', ({ start, feed, zar }) => {
  let sim: RateSimulator;
  let source: RateFeed;
  beforeAll(async () => {
    sim = await start();
    source = feed(sim.url);
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.setMode('normal'));

  it('reads every configured pair, each timed by the source within seconds of now', async () => {
    const reading = await source.read();
    expect(reading.problems).toEqual([]);
    expect(reading.rates).toHaveLength(source.pairs.length);
    expect(rateOf(reading, 'ZAR')?.rate).toBe(zar);
    expect(ageS(rateOf(reading, 'ZAR')?.at)).toBeLessThan(5);
  });

  it('stale: the rate carries the source\'s old timestamp, not the time it was read', async () => {
    sim.setMode({ mode: 'stale', staleSeconds: 900 });
    const reading = await source.read();
    expect(rateOf(reading, 'ZAR')?.rate).toBe(zar);
    expect(ageS(rateOf(reading, 'ZAR')?.at)).toBeGreaterThan(895);
    expect(ageS(rateOf(reading, 'ZAR')?.at)).toBeLessThan(905);
  });

  it('skewed: the rate read is the skewed one, exactly', async () => {
    sim.setMode({ mode: 'skewed', skewPercent: '10' });
    const reading = await source.read();
    expect(Number(rateOf(reading, 'ZAR')?.rate)).toBeCloseTo(Number(zar) * 1.1, 6);
  });

  it('jumping: the rate read moved by the jump', async () => {
    sim.setMode({ mode: 'jumping', jumpPercent: '8' });
    const reading = await source.read();
    expect(Number(rateOf(reading, 'ZAR')?.rate)).toBeCloseTo(Number(zar) * 1.08, 6);
  });

  it('failing: no rates, and a problem naming the HTTP status', async () => {
    sim.setMode('failing');
    const reading = await source.read();
    expect(reading.rates).toEqual([]);
    expect(reading.problems.join(' ')).toContain('HTTP 503');
  });
});

describe('rate feed edges', () => {
  it('a source that cannot be reached is a problem, never a throw', async () => {
    const sim = await startValrSimulator();
    const url = sim.url;
    await sim.close();
    const reading = await new ValrRateFeed(http, url, parseVenueMarkets('USDCZAR', 'RATES_VALR_MARKETS')).read();
    expect(reading.rates).toEqual([]);
    expect(reading.problems).toEqual([expect.stringMatching(/^USDCZAR: ECONNREFUSED/)]);
  });

  it('a market the venue does not list is a problem for that market only', async () => {
    const sim = await startLunoSimulator();
    try {
      const reading = await new LunoRateFeed(http, sim.url, parseVenueMarkets('USDCZAR,USDCKES', 'RATES_LUNO_MARKETS')).read();
      expect(reading.rates.map((r) => r.fiat)).toEqual(['ZAR']);
      expect(reading.problems).toEqual(['USDCKES: HTTP 404 without a ticker']);
    } finally {
      await sim.close();
    }
  });

  it("a venue answering another market, or a Luno market not ACTIVE (UNKNOWN included), gives no rate: a problem naming why", async () => {
    const bodies: Record<string, unknown> = {
      '/v1/public/USDCZAR/marketsummary': { currencyPair: 'USDTZAR', askPrice: '18.02', bidPrice: '18.00', created: new Date().toISOString() },
      '/api/1/ticker': { pair: 'USDCZAR', ask: '18.02', bid: '18.00', status: 'UNKNOWN', timestamp: Date.now() },
    };
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(bodies[new URL(req.url ?? '/', 'http://x').pathname] ?? {}));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const valr = await new ValrRateFeed(http, url, parseVenueMarkets('USDCZAR', 'RATES_VALR_MARKETS')).read();
      expect([valr.rates, valr.problems]).toEqual([[], ['USDCZAR: answered USDTZAR']]);
      const luno = await new LunoRateFeed(http, url, parseVenueMarkets('USDCZAR', 'RATES_LUNO_MARKETS')).read();
      expect([luno.rates, luno.problems]).toEqual([[], ['USDCZAR: market UNKNOWN']]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('coinbase: a currency missing from the answer is a problem for that pair only', async () => {
    const sim = await startCoinbaseSimulator({ rates: { 'USDC:KES': '130' } });
    try {
      const reading = await new CoinbaseRateFeed(http, sim.url, [{ fiat: 'KES', stablecoin: 'USDC' }, { fiat: 'ZAR', stablecoin: 'USDC' }]).read();
      expect(reading.rates.map((r) => [r.fiat, r.rate])).toEqual([['KES', '130']]);
      expect(reading.problems).toEqual(['USDC/ZAR: no rate']);
    } finally {
      await sim.close();
    }
  });

  it('a venue symbol that is not a stablecoin against a fiat the service pays out is refused at start', () => {
    expect(() => parseVenueMarkets('USDCZAR, XBTZAR', 'RATES_LUNO_MARKETS')).toThrow('RATES_LUNO_MARKETS: "XBTZAR" is not a USDC or USDT market');
    expect(() => parseVenueMarkets('USDCEUR', 'RATES_VALR_MARKETS')).toThrow('"USDCEUR"');
    expect(parseVenueMarkets(' usdtngn ,', 'X')).toEqual([{ symbol: 'USDTNGN', stablecoin: 'USDT', fiat: 'NGN' }]);
  });
});
