import { randomUUID } from 'node:crypto';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { CatalogRouting } from '../../src/adapters/providers/catalog-routing';
import { SandboxKycProvider } from '../../src/adapters/providers/sandbox-kyc';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { applySpread } from '../../src/core/quotes/spread';
import { startCoinbaseSimulator } from '../../simulators/coinbase/coinbase-simulator';
import { startLunoSimulator } from '../../simulators/luno/luno-simulator';
import type { RateSimulator } from '../../simulators/rate-sim/rate-sim';
import { startValrSimulator } from '../../simulators/valr/valr-simulator';
import { liveTenant, REFUND_ADDRESS } from '../support/live-tenant';
import { ScriptedProvider } from '../support/scripted-provider';
import { startTestService, type TestService } from '../support/test-service';

/** A South African bank money-out (routed to Paystack, here a scripted provider). */
const zaBankBody = (overrides: Record<string, unknown> = {}) => ({
  fiatAmount: '1810', sourceCurrency: 'USDC', destinationCurrency: 'ZAR', country: 'ZA', blockchain: 'SOLANA', paymentMethod: 'BANK',
  accountName: 'Thandi Nkosi', accountNumber: '4012345678', paymentCode: '632005', reference: `ref-${randomUUID()}`,
  refundAddress: REFUND_ADDRESS, optionalIssuerFee: 'NO', ...overrides,
});

interface SourceRecord { source: string; rate: string; at: string | null }

/**
 * Pricing records over HTTP (docs/decisions.md § FX quotes: pricing records): a live tenant's quote
 * stores the mid, the spread, each simulator's rate with the simulator's own timestamp, and the fee;
 * a money-out that uses the quote carries the quote's basis; one priced at the current rate carries
 * its own; a sandbox tenant's names the catalog. The refresher's loop is slowed to 10 minutes: each
 * test sets the simulators and refreshes the book itself.
 */
describe('pricing records', () => {
  let service: TestService;
  let admin: string;
  let live: { tenantId: string; apiKey: string };
  let sandboxKey: string;
  const sims: Record<'coinbase' | 'luno' | 'valr', RateSimulator> = {} as never;
  const symbols = { coinbase: 'USDC:ZAR', luno: 'USDCZAR', valr: 'USDCZAR' } as const;

  beforeAll(async () => {
    sims.coinbase = await startCoinbaseSimulator({ rates: { [symbols.coinbase]: '18.00' } });
    sims.luno = await startLunoSimulator({ rates: { [symbols.luno]: '18.30' } });
    sims.valr = await startValrSimulator({ rates: { [symbols.valr]: '18.10' } });
    const catalog = loadCatalog('data/corridors.json');
    const sandbox = { payouts: new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 }), kyc: new SandboxKycProvider(systemClock, 50) };
    service = await startTestService({
      RATES_SOURCES: 'coinbase,luno,valr',
      RATES_COINBASE_BASE_URL: sims.coinbase.url, RATES_LUNO_BASE_URL: sims.luno.url, RATES_VALR_BASE_URL: sims.valr.url,
      RATES_LUNO_MARKETS: 'USDCZAR', RATES_VALR_MARKETS: 'USDCZAR',
      RATES_REFRESH_INTERVAL_MS: '600000', RATES_QUORUM: '2', RATES_BAND_PERCENT: '2', RATES_JUMP_PERCENT: '5',
      RATES_SPREADS: 'ZA:BANK=0.5', WORKER_ENABLED: 'false',
    }, { routing: new CatalogRouting(catalog, sandbox, [new ScriptedProvider('paystack')], () => true) });
    admin = await service.newAdminKey();
    live = await liveTenant(service, admin);
    sandboxKey = (await service.newTenant()).apiKey;
  });
  afterAll(async () => {
    await service.close();
    await Promise.all(Object.values(sims).map((sim) => sim.close()));
  });

  /** Refreshes the book; answers the window the sources were read in (their own timestamps fall in it: they stamp "now"). */
  async function refresh(): Promise<{ from: number; to: number }> {
    const from = Date.now();
    await service.container.rates.refreshNow();
    // Coinbase's timestamp is its Date header, whole seconds.
    return { from: Math.floor(from / 1000) * 1000, to: Date.now() };
  }
  const quote = (apiKey: string) => service.call('GET', '/fx/convert?amount=1810&sourceCurrency=ZAR&destinationCurrency=USDC&country=ZA&paymentMethod=BANK', { apiKey });
  const adminQuote = async (quoteId: string) => (await service.call('GET', `/v1/admin/quotes/${quoteId}`, { apiKey: admin })).body;
  const adminPayment = async (paymentId: string) => (await service.call('GET', `/v1/admin/payments/${paymentId}`, { apiKey: admin })).body;
  /** Each simulator's rate as it answers now, by source name (what the book read). */
  const published = () => Object.entries(sims).map(([source, sim]) => ({ source, rate: sim.state.price(symbols[source as keyof typeof sims])!.rate }));
  /** The record's sources, their timestamps checked to fall in `window` and then dropped. */
  function sourcesIn(record: { sources: SourceRecord[] }, window: { from: number; to: number }) {
    return record.sources.map(({ source, rate, at }) => {
      const t = Date.parse(at ?? '');
      expect([source, t >= window.from && t <= window.to]).toEqual([source, true]);
      return { source, rate };
    });
  }

  it("a live tenant's quote records the simulators' rates with their own timestamps, the mid, the spread and the fee", async () => {
    const window = await refresh();
    const res = await quote(live.apiKey);
    expect(res.status).toBe(200);
    const stored = await adminQuote(res.body.quoteId);
    expect(stored).toMatchObject({
      quoteId: res.body.quoteId, tenantId: live.tenantId, fiatCurrency: 'ZAR', stablecoin: 'USDC', exchangeRate: res.body.exchangeRate,
      payoutFee: res.body.payoutFee, usedAt: null, paymentId: null,
    });
    const { pricing } = stored;
    // median(18.00, 18.30, 18.10) = 18.10.
    expect([pricing.origin, pricing.mid, pricing.pinId, pricing.rate, pricing.fee]).toEqual(['live', '18.1', null, res.body.exchangeRate, res.body.payoutFee]);
    // Spreads are platform-wide (other files on this database may change ZA:BANK): the record's spread is the one the rate was priced with.
    expect(applySpread(pricing.mid, pricing.spreadPercent)).toBe(res.body.exchangeRate);
    expect(sourcesIn(pricing, window)).toEqual(published());
    // The book operators see holds the same rates and timestamps.
    const board = (await service.call('GET', '/v1/admin/rates', { apiKey: admin })).body.pairs.find((p: { pair: string }) => p.pair === 'USDC/ZAR');
    expect(pricing.sources).toEqual(board.sources.map((s: SourceRecord) => ({ source: s.source, rate: s.rate, at: s.at })));
  });

  it("a money-out priced by a quote carries the quote's pricing; one priced at the current rate carries its own", async () => {
    const window = await refresh();
    const taken = await quote(live.apiKey);
    const quoted = (await adminQuote(taken.body.quoteId)).pricing;

    // The market moves: median(18.40, 18.30, 18.40) = 18.40.
    sims.coinbase.setRates({ [symbols.coinbase]: '18.40' });
    sims.valr.setRates({ [symbols.valr]: '18.40' });
    const moved = await refresh();
    try {
      const locked = await service.call('POST', '/v1/payments/moneyout', {
        apiKey: live.apiKey, body: zaBankBody({ quoteId: taken.body.quoteId }), headers: { 'idempotency-key': randomUUID() },
      });
      expect(locked.status).toBe(201);
      const lockedView = await adminPayment(locked.body.id);
      expect(lockedView).toMatchObject({ id: locked.body.id, tenantId: live.tenantId, exchangeRate: taken.body.exchangeRate });
      expect(lockedView.pricing).toEqual({ ...quoted, fee: locked.body.payoutFee });
      expect(sourcesIn(lockedView.pricing, window)).toEqual([
        { source: 'coinbase', rate: '18' }, { source: 'luno', rate: '18.3' }, { source: 'valr', rate: '18.1' },
      ]);
      expect((await adminQuote(taken.body.quoteId)).paymentId).toBe(locked.body.id);

      const current = await service.call('POST', '/v1/payments/moneyout', { apiKey: live.apiKey, body: zaBankBody(), headers: { 'idempotency-key': randomUUID() } });
      expect(current.status).toBe(201);
      const own = (await adminPayment(current.body.id)).pricing;
      expect([own.origin, own.mid, own.rate, own.fee]).toEqual(['live', '18.4', current.body.exchangeRate, current.body.payoutFee]);
      expect(applySpread(own.mid, own.spreadPercent)).toBe(current.body.exchangeRate);
      expect(sourcesIn(own, moved)).toEqual([{ source: 'coinbase', rate: '18.4' }, { source: 'luno', rate: '18.3' }, { source: 'valr', rate: '18.4' }]);
    } finally {
      sims.coinbase.setRates({ [symbols.coinbase]: '18.00' });
      sims.valr.setRates({ [symbols.valr]: '18.10' });
    }
  });

  it('an operator\'s pin is recorded as the origin, with the pin\'s id and no sources', async () => {
    for (const sim of Object.values(sims)) sim.setMode('failing');
    try {
      await refresh();
      const pinned = await service.call('POST', '/v1/admin/rates/pins', {
        apiKey: admin, body: { fiat: 'ZAR', stablecoin: 'USDC', rate: '18.20', expiresInMinutes: 5, reason: 'sources down; treasury desk rate' },
      });
      expect(pinned.status).toBe(201);
      const res = await quote(live.apiKey);
      expect(res.status).toBe(200);
      const { pricing } = await adminQuote(res.body.quoteId);
      expect([pricing.origin, pricing.mid, pricing.pinId, pricing.sources]).toEqual(['pin', '18.2', pinned.body.id, []]);
      await service.database.orm.em.fork().getConnection().execute('delete from rate_pins where id = ?', [pinned.body.id]);
    } finally {
      for (const sim of Object.values(sims)) sim.setMode('normal');
      await refresh();
      await refresh();
    }
  });

  it("a sandbox tenant's quote and payment name the catalog as their source, with no spread", async () => {
    const res = await quote(sandboxKey);
    const catalogRecord = { origin: 'catalog', mid: '17.85', spreadPercent: '0', rate: '17.85', fee: res.body.payoutFee, sources: [{ source: 'catalog', rate: '17.85', at: null }], pinId: null };
    expect((await adminQuote(res.body.quoteId)).pricing).toEqual(catalogRecord);
    const paid = await service.call('POST', '/v1/payments/moneyout', { apiKey: sandboxKey, body: zaBankBody(), headers: { 'idempotency-key': randomUUID() } });
    expect([paid.status, paid.body.exchangeRate]).toEqual([201, '17.85']);
    expect((await adminPayment(paid.body.id)).pricing).toEqual({ ...catalogRecord, fee: paid.body.payoutFee });
  });

  it('an unknown quote is 404 not_found; an issuer key may not read quotes this way (403)', async () => {
    const missing = await service.call('GET', '/v1/admin/quotes/quo_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ', { apiKey: admin });
    expect([missing.status, missing.body.code]).toEqual([404, 'not_found']);
    const res = await quote(live.apiKey);
    expect((await service.call('GET', `/v1/admin/quotes/${res.body.quoteId}`, { apiKey: live.apiKey })).status).toBe(403);
  });
});
