import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OxrRateFeed } from '../../src/adapters/providers/rates/oxr-rate-feed';
import { numbersAsText, RateHttpClient } from '../../src/adapters/providers/rates/rate-http';
import type { RatePair } from '../../src/core/quotes/rate-feed';
import { OXR_SIM_APP_ID, OXR_SIM_ERRORS, startOxrSimulator, type OxrSimulator } from '../../simulators/oxr/oxr-simulator';

/**
 * The Open Exchange Rates adapter over HTTP against its simulator (docs/providers.md § Rates):
 * each answer of `latest.json` it maps, the documented errors, the App ID's way (a header, never
 * the URL nor a problem) and the spacing of calls that keeps a plan within its quota. The modes
 * shared with the other sources are in rate-feeds.test.ts.
 */
const http = new RateHttpClient(2000);
afterAll(() => http.close());

const KES_BOTH: RatePair[] = [{ fiat: 'KES', stablecoin: 'USDC' }, { fiat: 'KES', stablecoin: 'USDT' }];
const feedOf = (baseUrl: string, pairs: readonly RatePair[] = KES_BOTH, settings: { appId?: string; intervalMs?: number; now?: () => Date } = {}) =>
  new OxrRateFeed(http, { baseUrl, appId: settings.appId ?? OXR_SIM_APP_ID, intervalMs: settings.intervalMs ?? 0 }, pairs, { now: settings.now ?? (() => new Date()) });

describe('Open Exchange Rates feed against its simulator', () => {
  let sim: OxrSimulator;
  beforeAll(async () => {
    sim = await startOxrSimulator({ rates: { KES: '129.12345678901234567', UGX: '3681', ZAR: '17.86' } });
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.setMode('normal'));

  it('gives the USD rate to both USDC and USDT, exactly as sent (a JSON number, never a float), timed by the body\'s timestamp', async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const reading = await feedOf(sim.baseUrl, [...KES_BOTH, { fiat: 'UGX', stablecoin: 'USDC' }]).read();
    expect(reading.problems).toEqual([]);
    expect(reading.rates.map((r) => [r.stablecoin, r.fiat, r.rate])).toEqual([
      ['USDC', 'KES', '129.12345678901234567'], ['USDT', 'KES', '129.12345678901234567'], ['USDC', 'UGX', '3681'],
    ]);
    // Unix seconds: a whole second, not our read time in milliseconds.
    const at = reading.rates[0]!.at.getTime();
    expect(at % 1000).toBe(0);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
  });

  it('stale timestamp: the rates keep the published time, an hour back', async () => {
    sim.setMode({ mode: 'stale', staleSeconds: 3600 });
    const reading = await feedOf(sim.baseUrl).read();
    expect(reading.rates).toHaveLength(2);
    const ageS = (Date.now() - reading.rates[0]!.at.getTime()) / 1000;
    expect(ageS).toBeGreaterThan(3599);
    expect(ageS).toBeLessThan(3605);
  });

  it('a currency missing from the answer is a problem for that currency only', async () => {
    const reading = await feedOf(sim.baseUrl, [{ fiat: 'GHS', stablecoin: 'USDC' }, { fiat: 'ZAR', stablecoin: 'USDT' }]).read();
    expect(reading.rates.map((r) => [r.stablecoin, r.fiat, r.rate])).toEqual([['USDT', 'ZAR', '17.86']]);
    expect(reading.problems).toEqual(['USD/GHS: no rate']);
  });

  it.each([
    ['not_found', undefined, 'HTTP 404 not_found: route not found (check RATES_OXR_BASE_URL)'],
    ['not_allowed', undefined, 'HTTP 429 not_allowed: the plan does not allow this route or feature'],
    ['access_restricted', undefined, 'HTTP 403 access_restricted: access restricted (over-use, or the reason on the Open Exchange Rates dashboard)'],
    ['access_restricted', 429, 'HTTP 429 access_restricted: access restricted (over-use, or the reason on the Open Exchange Rates dashboard)'],
    ['invalid_base', undefined, 'HTTP 400 invalid_base: base currency refused (the free plan has USD only)'],
  ])('documented error %s (HTTP %s): no rates, the word and its meaning, never the description', async (message, status, problem) => {
    sim.failNext(message, status);
    const reading = await feedOf(sim.baseUrl).read();
    expect(reading).toEqual({ rates: [], problems: [problem] });
    expect(reading.problems[0]).not.toContain(OXR_SIM_ERRORS[message]!.description);
  });

  it('HTTP 401: a refused App ID is invalid_app_id, none at all missing_app_id; the App ID is never in a problem', async () => {
    const wrong = 'abcdefabcdefabcdefabcdefabcdef12';
    const invalid = await feedOf(sim.baseUrl, KES_BOTH, { appId: wrong }).read();
    expect(invalid).toEqual({ rates: [], problems: ['HTTP 401 invalid_app_id: App ID refused (RATES_OXR_APP_ID)'] });
    const missing = await feedOf(sim.baseUrl, KES_BOTH, { appId: '' }).read();
    expect(missing).toEqual({ rates: [], problems: ['HTTP 401 missing_app_id: no App ID sent (RATES_OXR_APP_ID)'] });
    expect(JSON.stringify([invalid, missing])).not.toContain(wrong);
  });

  it('calls at most once per interval: a read before then answers nothing and asks nothing, failed call or not', async () => {
    let now = new Date('2026-11-27T10:00:00Z');
    const feed = feedOf(sim.baseUrl, KES_BOTH, { intervalMs: 600_000, now: () => now });
    const calls = () => sim.state.requests;
    const start = calls();
    expect((await feed.read()).rates).toHaveLength(2);
    now = new Date('2026-11-27T10:09:59Z');
    expect(await feed.read()).toEqual({ rates: [], problems: [] });
    expect(calls()).toBe(start + 1);
    now = new Date('2026-11-27T10:10:00Z');
    sim.failNext('not_allowed');
    expect((await feed.read()).problems).toEqual([expect.stringContaining('HTTP 429 not_allowed')]);
    now = new Date('2026-11-27T10:15:00Z');
    expect(await feed.read()).toEqual({ rates: [], problems: [] });
    expect(calls()).toBe(start + 2);
  });

  it('unreachable: the socket error as the problem, never a throw, never the App ID', async () => {
    const other = await startOxrSimulator();
    const url = other.baseUrl;
    await other.close();
    const reading = await feedOf(url).read();
    expect(reading.rates).toEqual([]);
    expect(reading.problems).toEqual([expect.stringMatching(/^ECONNREFUSED/)]);
    expect(reading.problems[0]).not.toContain(OXR_SIM_APP_ID);
  });
});

describe('Open Exchange Rates feed against a scripted server', () => {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  let reply: { status: number; body: string } = { status: 200, body: '{}' };
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(reply.body);
  });
  let baseUrl = '';
  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('asks latest.json for our currencies only, the App ID in the Authorization header and not in the URL', async () => {
    reply = { status: 200, body: `{"timestamp": ${Math.floor(Date.now() / 1000)}, "base": "USD", "rates": {"KES": 129.5, "ZAR": 17.9}}` };
    await feedOf(baseUrl, [...KES_BOTH, { fiat: 'ZAR', stablecoin: 'USDC' }]).read();
    const call = seen.at(-1)!;
    expect(call.url).toBe('/api/latest.json?symbols=KES%2CZAR');
    expect(call.url).not.toContain(OXR_SIM_APP_ID);
    expect(call.headers.authorization).toBe(`Token ${OXR_SIM_APP_ID}`);
  });

  it.each([
    ['another base', 200, '{"timestamp": 1795750000, "base": "EUR", "rates": {"KES": 140.1}}', 'answered rates for base EUR, not USD'],
    ['no timestamp', 200, '{"base": "USD", "rates": {"KES": 129.5}}', 'HTTP 200 without latest rates'],
    ['not JSON', 200, '<html>maintenance</html>', 'HTTP 200 without latest rates'],
    ['an undocumented error word', 418, '{"error": true, "status": 418, "message": "teapot", "description": "short and stout"}', 'HTTP 418 without a documented error'],
    ['a 5xx without the error body', 502, 'Bad Gateway', 'HTTP 502 without a documented error'],
  ])('%s: no rates, one problem', async (_, status, body, problem) => {
    reply = { status, body };
    expect(await feedOf(baseUrl).read()).toEqual({ rates: [], problems: [problem] });
  });

  it('a rate that is zero, negative or not a number is no rate for that currency; an exponent is read as its plain decimal', async () => {
    reply = { status: 200, body: `{"timestamp": ${Math.floor(Date.now() / 1000)}, "base": "USD", "rates": {"KES": 0, "ZAR": -17.9, "GHS": "n/a", "UGX": 3.6815e3, "ZMW": 2.641E+1, "XOF": 6022e-1, "ETB": 1387e-01}}` };
    const feed = feedOf(baseUrl, ['KES', 'ZAR', 'GHS', 'UGX', 'ZMW', 'XOF', 'ETB'].map((fiat) => ({ fiat, stablecoin: 'USDC' }) as RatePair));
    expect(feed.name).toBe('oxr');
    const reading = await feed.read();
    expect(reading.rates.map((r) => [r.fiat, r.rate])).toEqual([['UGX', '3681.5'], ['ZMW', '26.41'], ['XOF', '602.2'], ['ETB', '138.7']]);
    expect(reading.problems).toEqual(['USD/KES: no rate', 'USD/ZAR: no rate', 'USD/GHS: no rate']);
  });
});

describe('JSON numbers read as their literal text (numbersAsText)', () => {
  it('quotes every number, exponent and sign included, and leaves strings (digits, quotes and escapes inside) alone', () => {
    expect(numbersAsText('{"note": "rate 12.5 \\"x\\" 7", "a": [1, -2.50, 1.5e-7, 1.25E+2, 2.5e-10], "t": true, "n": null}')).toEqual({
      note: 'rate 12.5 "x" 7', a: ['1', '-2.50', '1.5e-7', '1.25E+2', '2.5e-10'], t: true, n: null,
    });
  });

  it('is undefined for text that is not JSON, even when quoting its numbers would make it JSON (a leading zero)', () => {
    expect(numbersAsText('{"a": 01}')).toBeUndefined();
    expect(numbersAsText('<html>')).toBeUndefined();
  });
});
