import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CoinbaseRateFeed } from '../../src/adapters/providers/rates/coinbase-rate-feed';
import { OxrRateFeed } from '../../src/adapters/providers/rates/oxr-rate-feed';
import { LunoRateFeed, midOf } from '../../src/adapters/providers/rates/luno-rate-feed';
import { RateHttpClient } from '../../src/adapters/providers/rates/rate-http';
import { ratesEnvSchema, spreadTableOf } from '../../src/adapters/providers/rates/rates-config';
import { ValrRateFeed } from '../../src/adapters/providers/rates/valr-rate-feed';
import { parseVenueMarkets } from '../../src/adapters/providers/rates/venue-pairs';

/**
 * The rate feeds against answers their simulators do not give on demand, from a server of the
 * test's own over real HTTP (docs/providers.md § Rates): a Coinbase answer for another base or
 * without a `Date` header, a venue book that is crossed, empty or missing a side, and the client's
 * transport faults.
 */
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let url: string;
let handler: Handler;
let http: RateHttpClient;

beforeEach(async () => {
  http = new RateHttpClient(1000);
  server = createServer((req, res) => handler(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await http.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Answers `body` (JSON unless text) with `status`; `date: false` sends no Date header. */
const answer = (body: unknown, status = 200, date: string | false = new Date().toUTCString()): Handler => (_req, res) => {
  res.sendDate = false;
  if (date !== false) res.setHeader('date', date);
  res.statusCode = status;
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

describe('Coinbase answers', () => {
  const feed = () => new CoinbaseRateFeed(http, url, [{ fiat: 'KES', stablecoin: 'USDC' }]);

  it('the rate is timed by the Date header, exactly', async () => {
    handler = answer({ data: { currency: 'USDC', rates: { KES: '129.5' } } }, 200, 'Fri, 27 Nov 2026 06:00:00 GMT');
    expect(await feed().read()).toEqual({ rates: [{ fiat: 'KES', stablecoin: 'USDC', rate: '129.5', at: new Date('2026-11-27T06:00:00Z') }], problems: [] });
  });

  it('rates for another base, no Date header, or an unreadable one give no rate, each with its reason', async () => {
    handler = answer({ data: { currency: 'USDT', rates: { KES: '129.5' } } });
    expect(await feed().read()).toEqual({ rates: [], problems: ['USDC: answered rates for USDT'] });
    handler = answer({ data: { currency: 'USDC', rates: { KES: '129.5' } } }, 200, false);
    expect(await feed().read()).toEqual({ rates: [], problems: ['USDC: no Date header to time the rates by'] });
    handler = answer({ data: { currency: 'USDC', rates: { KES: '129.5' } } }, 200, 'not a date');
    expect(await feed().read()).toEqual({ rates: [], problems: ['USDC: no Date header to time the rates by'] });
  });

  it('a non-200 answer, even with rates, and a 200 without them are no rate', async () => {
    handler = answer({ data: { currency: 'USDC', rates: { KES: '129.5' } } }, 503);
    expect(await feed().read()).toEqual({ rates: [], problems: ['USDC: HTTP 503 without exchange rates'] });
    handler = answer({ errors: [] });
    expect(await feed().read()).toEqual({ rates: [], problems: ['USDC: HTTP 200 without exchange rates'] });
  });

  it('asks /v2/exchange-rates once per stablecoin, by the currency parameter', async () => {
    const asked: string[] = [];
    handler = (req, res) => {
      asked.push(req.url ?? '');
      const coin = new URL(req.url ?? '/', url).searchParams.get('currency');
      answer({ data: { currency: coin, rates: { KES: '129', NGN: '1500' } } })(req, res);
    };
    const reading = await new CoinbaseRateFeed(http, url, [
      { fiat: 'KES', stablecoin: 'USDC' }, { fiat: 'NGN', stablecoin: 'USDC' }, { fiat: 'KES', stablecoin: 'USDT' },
    ]).read();
    expect(asked.sort()).toEqual(['/v2/exchange-rates?currency=USDC', '/v2/exchange-rates?currency=USDT']);
    expect(reading.rates.map((r) => `${r.stablecoin}/${r.fiat}=${r.rate}`)).toEqual(['USDC/KES=129', 'USDC/NGN=1500', 'USDT/KES=129']);
  });
});

describe('venue books', () => {
  it('the mid of bid and ask, exactly; a crossed book, a missing side or a zero price gives none', () => {
    expect(midOf('18.00', '18.03')).toBe('18.015');
    expect(midOf('18.03', '18.03')).toBe('18.03');
    expect([midOf('18.04', '18.03'), midOf(undefined, '18.03'), midOf('18.00', ''), midOf('0', '18.03'), midOf('18', 18.03)])
      .toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('Luno: a crossed book is a problem; the ticker\'s own timestamp times the rate; a non-200 is no ticker', async () => {
    const feed = new LunoRateFeed(http, url, parseVenueMarkets('USDCZAR', 'RATES_LUNO_MARKETS'));
    handler = answer({ pair: 'USDCZAR', bid: '18.05', ask: '18.02', status: 'ACTIVE', timestamp: 1_795_000_000_000 });
    expect(await feed.read()).toEqual({ rates: [], problems: ['USDCZAR: no usable bid and ask'] });
    handler = answer({ pair: 'USDCZAR', bid: '18.00', ask: '18.02', status: 'ACTIVE', timestamp: 1_795_000_000_000 });
    expect(await feed.read()).toEqual({ rates: [{ fiat: 'ZAR', stablecoin: 'USDC', rate: '18.01', at: new Date(1_795_000_000_000) }], problems: [] });
    handler = answer({ pair: 'USDCZAR', bid: '18.00', ask: '18.02', status: 'ACTIVE', timestamp: 1_795_000_000_000 }, 500);
    expect(await feed.read()).toEqual({ rates: [], problems: ['USDCZAR: HTTP 500 without a ticker'] });
  });

  it('VALR: an empty side is a problem; a lower-case pair is the market asked; a non-200 is no summary', async () => {
    const feed = new ValrRateFeed(http, url, parseVenueMarkets('USDCZAR', 'RATES_VALR_MARKETS'));
    handler = answer({ currencyPair: 'USDCZAR', bidPrice: '18.00', askPrice: '0', created: '2026-11-27T06:00:00Z' });
    expect(await feed.read()).toEqual({ rates: [], problems: ['USDCZAR: no usable bid and ask'] });
    handler = answer({ currencyPair: 'usdczar', bidPrice: '18.00', askPrice: '18.02', created: '2026-11-27T06:00:00Z' });
    expect(await feed.read()).toEqual({ rates: [{ fiat: 'ZAR', stablecoin: 'USDC', rate: '18.01', at: new Date('2026-11-27T06:00:00Z') }], problems: [] });
    handler = answer({ currencyPair: 'USDCZAR', bidPrice: '18.00', askPrice: '18.02', created: 'yesterday' });
    expect(await feed.read()).toEqual({ rates: [], problems: ['USDCZAR: HTTP 200 without a market summary'] });
    handler = answer({ currencyPair: 'USDCZAR', bidPrice: '18.00', askPrice: '18.02', created: '2026-11-27T06:00:00Z' }, 429);
    expect(await feed.read()).toEqual({ rates: [], problems: ['USDCZAR: HTTP 429 without a market summary'] });
  });
});

describe('rate HTTP client', () => {
  it('sends accept: application/json and the caller\'s headers; a body that is not JSON is kept as text', async () => {
    let headers: IncomingMessage['headers'] = {};
    let method = '';
    handler = (req, res) => {
      headers = req.headers;
      method = req.method ?? '';
      answer('<html>busy</html>', 503)(req, res);
    };
    const call = await http.get(new URL('/x', url), { authorization: 'Token abc' });
    expect(call).toEqual({ kind: 'answer', httpStatus: 503, date: expect.any(Date), body: undefined, text: '<html>busy</html>' });
    expect([method, headers.accept, headers.authorization]).toEqual(['GET', 'application/json', 'Token abc']);
  });

  it('a connection cut, or no answer within the timeout, is a failed call naming the error code, never a throw', async () => {
    handler = (req) => req.socket.destroy();
    expect(await http.get(new URL('/x', url))).toEqual({ kind: 'failed', reason: expect.stringMatching(/^UND_ERR_SOCKET: /) });
    handler = () => undefined;
    const slow = new RateHttpClient(150);
    try {
      // undici's header timer is coarse: the whole-call signal (twice the timeout) may fire first.
      expect(await slow.get(new URL('/x', url))).toEqual({ kind: 'failed', reason: expect.stringMatching(/timeout/i) });
    } finally {
      await slow.close();
    }
  });

  it('after close() a call fails', async () => {
    handler = answer({});
    await http.close();
    expect(await http.get(new URL('/x', url))).toEqual({ kind: 'failed', reason: expect.stringMatching(/destroyed/i) });
    http = new RateHttpClient(1000);
  });
});

describe('each feed by name, unreachable, or answering another market', () => {
  it('coinbase, luno and valr: a refused connection is a problem per base or market, never a throw', async () => {
    const gone = url;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const feeds = [
      new CoinbaseRateFeed(http, gone, [{ fiat: 'KES', stablecoin: 'USDC' }]),
      new LunoRateFeed(http, gone, parseVenueMarkets('USDTNGN', 'RATES_LUNO_MARKETS')),
      new ValrRateFeed(http, gone, parseVenueMarkets('USDCZAR', 'RATES_VALR_MARKETS')),
    ];
    expect(feeds.map((f) => f.name)).toEqual(['coinbase', 'luno', 'valr']);
    const readings = await Promise.all(feeds.map((f) => f.read()));
    expect(readings).toEqual([
      { rates: [], problems: [expect.stringMatching(/^USDC: ECONNREFUSED: /)] },
      { rates: [], problems: [expect.stringMatching(/^USDTNGN: ECONNREFUSED: /)] },
      { rates: [], problems: [expect.stringMatching(/^USDCZAR: ECONNREFUSED: /)] },
    ]);
    server = createServer((req, res) => handler(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });

  it('Luno: a ticker for another pair gives no rate', async () => {
    handler = answer({ pair: 'USDTZAR', bid: '18.00', ask: '18.02', status: 'ACTIVE', timestamp: 1_795_000_000_000 });
    expect(await new LunoRateFeed(http, url, parseVenueMarkets('USDCZAR', 'RATES_LUNO_MARKETS')).read()).toEqual({ rates: [], problems: ['USDCZAR: answered USDTZAR'] });
  });

  it('Open Exchange Rates: a rate sent as text that only contains an exponent number is no rate, never a throw', async () => {
    handler = answer(`{"timestamp": 1795000000, "base": "USD", "rates": {"KES": "abc1e2", "ZAR": "1e2abc", "NGN": "1e2"}}`);
    const feed = new OxrRateFeed(http, { baseUrl: url, appId: '0123456789abcdef0123456789abcdef', intervalMs: 0 }, [
      { fiat: 'KES', stablecoin: 'USDC' }, { fiat: 'ZAR', stablecoin: 'USDC' }, { fiat: 'NGN', stablecoin: 'USDC' },
    ], { now: () => new Date() });
    expect(await feed.read()).toEqual({
      rates: [{ fiat: 'NGN', stablecoin: 'USDC', rate: '100', at: new Date(1_795_000_000_000) }], problems: ['USD/KES: no rate', 'USD/ZAR: no rate'],
    });
  });
});

describe('spread table', () => {
  it('is RATES_SPREAD_PERCENT by default and RATES_SPREADS by corridor', () => {
    const env = ratesEnvSchema.parse({ RATES_SPREAD_PERCENT: '1.5', RATES_SPREADS: 'KE:MOMO=0.5' });
    expect(spreadTableOf(env)).toEqual({ default: '1.5', byCorridor: { 'KE:MOMO': '0.5' } });
  });
});
