import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { CatalogRouting } from '../../src/adapters/providers/catalog-routing';
import { SandboxKycProvider } from '../../src/adapters/providers/sandbox-kyc';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { startCoinbaseSimulator } from '../../simulators/coinbase/coinbase-simulator';
import { OXR_SIM_APP_ID, startOxrSimulator, type OxrSimulator } from '../../simulators/oxr/oxr-simulator';
import type { RateSimulator } from '../../simulators/rate-sim/rate-sim';
import { captureLog } from '../support/captured-log';
import { liveTenant } from '../support/live-tenant';
import { ScriptedProvider } from '../support/scripted-provider';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

/**
 * A currency Coinbase alone covered is priced live with the default quorum of 2 once Open Exchange
 * Rates is on (docs/providers.md § Rates: coverage): KES at the median of the two, over HTTP against
 * both simulators, with no RATES_QUORUM nor RATES_PAIR_QUORUMS set. The refresher's loop is slowed to
 * 10 minutes; each test moves the simulators and refreshes the book itself.
 */
describe('KES priced live from Coinbase and Open Exchange Rates', () => {
  let service: TestService;
  let admin: string;
  let live: { tenantId: string; apiKey: string };
  let coinbase: RateSimulator;
  let oxr: OxrSimulator;
  const log = captureLog('info');

  beforeAll(async () => {
    coinbase = await startCoinbaseSimulator({ rates: { 'USDC:KES': '129.00', 'USDT:KES': '128.90' } });
    oxr = await startOxrSimulator({ rates: { KES: '129.60' } });
    const catalog = loadCatalog('data/corridors.json');
    const sandbox = { payouts: new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 }), kyc: new SandboxKycProvider(systemClock, 50) };
    service = await startTestService({
      RATES_SOURCES: 'coinbase,oxr',
      RATES_COINBASE_BASE_URL: coinbase.url, RATES_OXR_BASE_URL: oxr.baseUrl, RATES_OXR_APP_ID: OXR_SIM_APP_ID, RATES_OXR_INTERVAL_SECONDS: '0',
      RATES_REFRESH_INTERVAL_MS: '600000', WORKER_ENABLED: 'false',
    }, { routing: new CatalogRouting(catalog, sandbox, [new ScriptedProvider('mpesa')], () => true) }, { logger: log.logger });
    admin = await service.newAdminKey();
    live = await liveTenant(service, admin);
  });
  afterAll(async () => {
    await service.close();
    await Promise.all([coinbase.close(), oxr.close()]);
  });

  async function refresh(modes: { coinbase?: Parameters<RateSimulator['setMode']>[0]; oxr?: Parameters<RateSimulator['setMode']>[0] } = {}): Promise<void> {
    coinbase.setMode(modes.coinbase ?? 'normal');
    oxr.setMode(modes.oxr ?? 'normal');
    await service.container.rates.refreshNow();
  }
  const quote = () => service.call('GET', '/fx/convert?amount=1500&sourceCurrency=KES&destinationCurrency=USDC&country=KE&paymentMethod=MOMO', { apiKey: live.apiKey });
  /**
   * The rate a KE MOMO quote shows for mid 129.3: spreads are platform-wide, and other files on the
   * worker's database may have set theirs (the corridor's own, else the default).
   */
  const priced1293 = async () => {
    const { spreads } = (await service.call('GET', '/v1/admin/rates', { apiKey: admin })).body as { spreads: { default: string; byCorridor: Record<string, string> } };
    return new Decimal('129.3').times(new Decimal(1).minus(new Decimal(spreads.byCorridor['KE:MOMO'] ?? spreads.default).div(100))).toString();
  };
  const kesPair = async (pair: string) => (await service.call('GET', '/v1/admin/rates', { apiKey: admin })).body.pairs.find((p: { pair: string }) => p.pair === pair);

  it('quotes and pays KES at the median of the two sources (quorum 2, the default); USDT too, from the same USD rate', async () => {
    await refresh();
    // median(129.00, 129.60) = 129.3, the corridor's spread on top.
    const rate = await priced1293();
    const priced = await quote();
    expect([priced.status, priced.body.exchangeRate]).toEqual([200, rate]);
    const paid = await service.call('POST', '/v1/payments/moneyout', { apiKey: live.apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    expect([paid.status, paid.body.exchangeRate]).toEqual([201, rate]);
    const usdc = await kesPair('USDC/KES');
    expect(usdc).toMatchObject({ status: 'live', mid: '129.3' });
    expect(usdc.sources.map((s: { source: string; rate: string; used: boolean }) => [s.source, s.rate, s.used])).toEqual([['coinbase', '129', true], ['oxr', '129.6', true]]);
    // Open Exchange Rates' own timestamp, in whole seconds.
    expect(new Date(usdc.sources[1].at).getMilliseconds()).toBe(0);
    // median(128.90, 129.60) = 129.25.
    expect(await kesPair('USDT/KES')).toMatchObject({ status: 'live', mid: '129.25' });
  });

  it('the Open Exchange Rates rate too old (its own timestamp, 2 h back): one fresh source, below the quorum: 503 rate_unavailable', async () => {
    await refresh({ oxr: { mode: 'stale', staleSeconds: 7200 } });
    const refused = await quote();
    expect([refused.status, refused.body.code, refused.headers.get('retry-after')]).toEqual([503, 'rate_unavailable', '600']);
    const pair = await kesPair('USDC/KES');
    expect(pair.status).toBe('unavailable');
    expect(pair.sources.find((s: { source: string }) => s.source === 'oxr')).toMatchObject({ used: false, reason: 'stale' });
    await refresh();
    expect((await quote()).body.exchangeRate).toBe(await priced1293());
  });

  it('a refused App ID is logged with the documented word, never the App ID; the last rate stands until its own time is too old', async () => {
    oxr.failNext('invalid_app_id');
    await refresh();
    expect((await quote()).body.exchangeRate).toBe(await priced1293());
    const problems = log.lines.filter((line) => line.msg === 'rate source problems' && line.source === 'oxr');
    expect(problems.at(-1)).toMatchObject({ level: 40, problems: ['HTTP 401 invalid_app_id: App ID refused (RATES_OXR_APP_ID)'] });
    expect(log.text()).not.toContain(OXR_SIM_APP_ID);
  });
});
