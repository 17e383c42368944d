import { randomUUID } from 'node:crypto';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { CatalogRouting } from '../../src/adapters/providers/catalog-routing';
import { SandboxKycProvider } from '../../src/adapters/providers/sandbox-kyc';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { startCoinbaseSimulator } from '../../simulators/coinbase/coinbase-simulator';
import { startLunoSimulator } from '../../simulators/luno/luno-simulator';
import type { RateSimulator } from '../../simulators/rate-sim/rate-sim';
import { startValrSimulator } from '../../simulators/valr/valr-simulator';
import { captureLog } from '../support/captured-log';
import { gql } from '../support/graphql-client';
import { liveTenant, REFUND_ADDRESS } from '../support/live-tenant';
import { ScriptedProvider } from '../support/scripted-provider';
import { startTestService, type TestService } from '../support/test-service';

const MONEY_OUT = 'mutation($input: MoneyOutInput!, $key: String!) { createMoneyOut(input: $input, idempotencyKey: $key) { payment { id } } }';
const FX = 'query($amount: Decimal!) { fxQuote(amount: $amount, sourceCurrency: ZAR, destinationCurrency: USDC, country: ZA, paymentMethod: BANK) { exchangeRate } }';

/** A South African bank money-out (routed to Paystack, here a scripted provider). */
const zaBankBody = (overrides: Record<string, unknown> = {}) => ({
  fiatAmount: '1810', sourceCurrency: 'USDC', destinationCurrency: 'ZAR', country: 'ZA', blockchain: 'SOLANA', paymentMethod: 'BANK',
  accountName: 'Thandi Nkosi', accountNumber: '4012345678', paymentCode: '632005', reference: `ref-${randomUUID()}`,
  refundAddress: REFUND_ADDRESS, optionalIssuerFee: 'NO', ...overrides,
});

/**
 * Live FX rates over HTTP (docs/decisions.md § FX quotes: live rates): live tenants are priced from
 * the median of the Coinbase, Luno and VALR simulators' USDC/ZAR rates, spread on top; sandbox
 * tenants keep the catalog's 17.85. The refresher's own loop is slowed to 10 minutes, so each test
 * moves the simulators and then refreshes the book itself.
 */
describe('live rates from three sources', () => {
  let service: TestService;
  let admin: string;
  let live: { tenantId: string; apiKey: string };
  let sandboxKey: string;
  const sims: Record<'coinbase' | 'luno' | 'valr', RateSimulator> = {} as never;
  const log = captureLog('info');
  const warned = (msg: string) => log.lines.filter((line) => line.msg === msg);

  beforeAll(async () => {
    sims.coinbase = await startCoinbaseSimulator({ rates: { 'USDC:ZAR': '18.00' } });
    sims.luno = await startLunoSimulator({ rates: { USDCZAR: '18.30' } });
    sims.valr = await startValrSimulator({ rates: { USDCZAR: '18.10' } });
    const catalog = loadCatalog('data/corridors.json');
    const sandbox = { payouts: new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 }), kyc: new SandboxKycProvider(systemClock, 50) };
    service = await startTestService({
      RATES_SOURCES: 'coinbase,luno,valr',
      RATES_COINBASE_BASE_URL: sims.coinbase.url, RATES_LUNO_BASE_URL: sims.luno.url, RATES_VALR_BASE_URL: sims.valr.url,
      RATES_LUNO_MARKETS: 'USDCZAR', RATES_VALR_MARKETS: 'USDCZAR',
      RATES_REFRESH_INTERVAL_MS: '600000', RATES_QUORUM: '2', RATES_BAND_PERCENT: '2', RATES_JUMP_PERCENT: '5',
      RATES_SPREADS: 'ZA:BANK=0.5', WORKER_ENABLED: 'false',
    }, { routing: new CatalogRouting(catalog, sandbox, [new ScriptedProvider('paystack')], () => true) }, { logger: log.logger });
    admin = await service.newAdminKey();
    live = await liveTenant(service, admin);
    sandboxKey = (await service.newTenant()).apiKey;
  });
  afterAll(async () => {
    await service.close();
    await Promise.all(Object.values(sims).map((sim) => sim.close()));
  });

  /** Puts every simulator in `mode` (a map per source, `normal` for those not named) and refreshes the book. */
  async function sources(modes: Partial<Record<keyof typeof sims, Parameters<RateSimulator['setMode']>[0]>> = {}, refreshes = 1): Promise<void> {
    for (const [name, sim] of Object.entries(sims)) sim.setMode(modes[name as keyof typeof sims] ?? 'normal');
    for (let i = 0; i < refreshes; i += 1) await service.container.rates.refreshNow();
  }
  const quote = (apiKey: string) => service.call('GET', '/fx/convert?amount=1810&sourceCurrency=ZAR&destinationCurrency=USDC&country=ZA&paymentMethod=BANK', { apiKey });
  const sql = <T>(text: string, params: unknown[] = []) => service.database.orm.em.fork().getConnection().execute(text, params) as Promise<T[]>;
  const writes = async (tenantId: string) => (await sql<{ n: number }>(
    `select ((select count(*) from payments where tenant_id = ?) + (select count(*) from idempotency_keys where tenant_id = ?)
          + (select count(*) from ledger_transactions where tenant_id = ? and kind = 'hold') + (select count(*) from quotes where tenant_id = ?))::int as n`,
    [tenantId, tenantId, tenantId, tenantId]))[0]!.n;

  it('prices a live tenant at the median of the three, less the corridor\'s spread; a sandbox tenant keeps the catalog rate', async () => {
    await sources();
    // median(18.00, 18.30, 18.10) = 18.10; ZA:BANK spread 0.5 %: 18.10 × 0.995 = 18.0095.
    const priced = await quote(live.apiKey);
    expect([priced.status, priced.body.exchangeRate]).toEqual([200, '18.0095']);
    const sandbox = await quote(sandboxKey);
    expect([sandbox.status, sandbox.body.exchangeRate]).toEqual([200, '17.85']);
    const paid = await service.call('POST', '/v1/payments/moneyout', { apiKey: live.apiKey, body: zaBankBody(), headers: { 'idempotency-key': randomUUID() } });
    expect([paid.status, paid.body.exchangeRate]).toEqual([201, '18.0095']);
    const graphql = await gql(service.baseUrl, FX, { amount: '1810' }, live.apiKey);
    expect(graphql.body.data?.fxQuote?.exchangeRate).toBe('18.0095');
  });

  it('leaves a stale source out: the median of the two fresh ones', async () => {
    await sources({ valr: { mode: 'stale', staleSeconds: 3600 } });
    // median(18.00, 18.30) = 18.15; × 0.995 = 18.05925.
    expect((await quote(live.apiKey)).body.exchangeRate).toBe('18.05925');
  });

  it('leaves a skewed source out: the median of the two in the band', async () => {
    await sources({ luno: { mode: 'skewed', skewPercent: '10' } });
    // Luno at 20.13 is 11 % from 18.10; median(18.00, 18.10) = 18.05; × 0.995 = 17.95975.
    expect((await quote(live.apiKey)).body.exchangeRate).toBe('17.95975');
    expect(warned('rate source left out: too far from the median').at(-1)).toMatchObject({
      level: 40, pair: 'USDC/ZAR', sources: [{ source: 'luno', rate: '20.13', deviationPercent: '11.2155' }],
    });
  });

  it('quorum lost: 503 rate_unavailable with Retry-After on every path, nothing written; the sandbox is unaffected', async () => {
    await sources({ coinbase: 'stale', valr: 'stale' });
    const before = await writes(live.tenantId);

    const fx = await quote(live.apiKey);
    expect([fx.status, fx.headers.get('retry-after'), fx.body]).toEqual([503, '600', {
      error: 503, code: 'rate_unavailable', message: 'No live exchange rate for ZAR/USDC now; retry later', details: { requestId: expect.any(String) },
    }]);
    const rest = await service.call('POST', '/v1/payments/moneyout', { apiKey: live.apiKey, body: zaBankBody(), headers: { 'idempotency-key': randomUUID() } });
    expect([rest.status, rest.headers.get('retry-after'), rest.body.code, rest.body.statusCode]).toEqual([503, '600', 'rate_unavailable', 503]);
    const legacy = await service.call('POST', '/momo/payout', {
      apiKey: live.apiKey,
      body: { amount: 1810, destination: 'Bank', accountName: 'Thandi Nkosi', accountNumber: '4012345678', reference: `legacy-${randomUUID()}`, currency: 'ZAR', country: 'ZA', code: '632005' },
    });
    expect([legacy.status, legacy.headers.get('retry-after'), legacy.body.error, legacy.body.details.retryAfterS]).toEqual([503, '600', { code: 'rate_unavailable' }, 600]);
    const graphql = await gql(service.baseUrl, MONEY_OUT, { input: zaBankBody(), key: randomUUID() }, live.apiKey);
    expect([graphql.body.data, graphql.body.errors?.[0]?.extensions?.code]).toEqual([null, 'rate_unavailable']);
    expect(await writes(live.tenantId)).toBe(before);

    expect((await quote(sandboxKey)).status).toBe(200);
    await sources();
    expect((await quote(live.apiKey)).body.exchangeRate).toBe('18.0095');
  });

  it('a jump of every source suspends the pair (503) until a second refresh confirms it, then prices at the new level', async () => {
    await sources();
    await sources({ coinbase: { mode: 'jumping', jumpPercent: '8' }, luno: { mode: 'jumping', jumpPercent: '8' }, valr: { mode: 'jumping', jumpPercent: '8' } });
    const suspended = await quote(live.apiKey);
    expect([suspended.status, suspended.body.code]).toEqual([503, 'rate_unavailable']);
    const board = await service.call('GET', '/v1/admin/rates', { apiKey: admin });
    expect(board.status).toBe(200);
    expect(board.body.live).toBe(true);
    expect(board.body.pairs.find((p: { pair: string }) => p.pair === 'USDC/ZAR')).toEqual({
      pair: 'USDC/ZAR', status: 'suspended', mid: null, reference: '18.1', candidate: '19.548', refreshedAt: expect.any(String),
      sources: [
        { source: 'coinbase', rate: '19.44', at: expect.any(String), used: true, reason: null, deviationPercent: null },
        { source: 'luno', rate: '19.764', at: expect.any(String), used: true, reason: null, deviationPercent: null },
        { source: 'valr', rate: '19.548', at: expect.any(String), used: true, reason: null, deviationPercent: null },
      ],
      pin: null,
    });
    expect(board.body.pairs.find((p: { pair: string }) => p.pair === 'USDC/KES')).toMatchObject({ status: 'unavailable', mid: null, sources: [] });
    expect((await service.call('GET', '/v1/admin/rates', { apiKey: live.apiKey })).status).toBe(403);
    // Operators are told, with the level it left and the one it jumped to.
    expect(warned('rate pair jump').at(-1)).toMatchObject({ level: 40, pair: 'USDC/ZAR', status: 'suspended', reference: '18.1', candidate: '19.548' });
    await service.container.rates.refreshNow();
    expect(warned('rate pair confirm').at(-1)).toMatchObject({ pair: 'USDC/ZAR', status: 'live', mid: '19.548' });
    // 18.10 × 1.08 = 19.548; × 0.995 = 19.45026.
    expect((await quote(live.apiKey)).body.exchangeRate).toBe('19.45026');
    await sources({}, 2);
  });

  it('a quote taken before a move still pays at its locked rate within its lifetime; a money-out without one pays the new rate', async () => {
    await sources();
    const before = await quote(live.apiKey);
    expect(before.body.exchangeRate).toBe('18.0095');
    sims.coinbase.setRates({ 'USDC:ZAR': '18.40' });
    sims.valr.setRates({ USDCZAR: '18.40' });
    await sources();
    // median(18.40, 18.30, 18.40) = 18.40; × 0.995 = 18.308.
    expect((await quote(live.apiKey)).body.exchangeRate).toBe('18.308');
    const locked = await service.call('POST', '/v1/payments/moneyout', {
      apiKey: live.apiKey, body: zaBankBody({ quoteId: before.body.quoteId }), headers: { 'idempotency-key': randomUUID() },
    });
    expect([locked.status, locked.body.exchangeRate]).toEqual([201, '18.0095']);
    const current = await service.call('POST', '/v1/payments/moneyout', { apiKey: live.apiKey, body: zaBankBody(), headers: { 'idempotency-key': randomUUID() } });
    expect([current.status, current.body.exchangeRate]).toEqual([201, '18.308']);
  });

  it('a live quote past its lifetime no longer locks its rate: the money-out is refused with quote_expired and writes nothing', async () => {
    await sources();
    const taken = await quote(live.apiKey);
    expect(taken.status).toBe(200);
    await sql('update quotes set expires_at = created_at + interval \'1 millisecond\' where id = ?', [taken.body.quoteId]);
    const before = await writes(live.tenantId);
    const late = await service.call('POST', '/v1/payments/moneyout', {
      apiKey: live.apiKey, body: zaBankBody({ quoteId: taken.body.quoteId }), headers: { 'idempotency-key': randomUUID() },
    });
    expect([late.status, late.body.code]).toEqual([422, 'quote_expired']);
    expect(await writes(live.tenantId)).toEqual(before);
  });

  it('a pinned rate prices live tenants until it expires, then the pair is unavailable again', async () => {
    await sources({ coinbase: 'failing', luno: 'stale', valr: 'stale' });
    const pinned = await service.call('POST', '/v1/admin/rates/pins', {
      apiKey: admin, body: { fiat: 'ZAR', stablecoin: 'USDC', rate: '18.30', expiresInMinutes: 5, reason: 'expiry test' },
    });
    expect(pinned.status).toBe(201);
    await service.container.rates.refreshNow();
    // 18.3 × 0.995 = 18.2085.
    expect((await quote(live.apiKey)).body.exchangeRate).toBe('18.2085');
    await sql('update rate_pins set expires_at = created_at + interval \'1 millisecond\' where id = ?', [pinned.body.id]);
    await service.container.rates.refreshNow();
    const after = await quote(live.apiKey);
    expect([after.status, after.body.code]).toEqual([503, 'rate_unavailable']);
    await sources({}, 2);
  });

  it('an operator pins a rate during an outage: it prices live tenants (spread on top), is stored with the key that pinned it, and shows in the book', async () => {
    await sources({ coinbase: 'failing', luno: 'stale', valr: 'stale' });
    expect((await quote(live.apiKey)).status).toBe(503);
    const pinned = await service.call('POST', '/v1/admin/rates/pins', {
      apiKey: admin, body: { fiat: 'ZAR', stablecoin: 'USDC', rate: '18.20', expiresInMinutes: 30, reason: 'venues stale; treasury desk rate' },
    });
    expect(pinned.status).toBe(201);
    expect(pinned.body).toMatchObject({ pair: 'USDC/ZAR', rate: '18.2', reason: 'venues stale; treasury desk rate', createdBy: expect.stringMatching(/^key_/) });
    // 18.2 × 0.995 = 18.109.
    expect((await quote(live.apiKey)).body.exchangeRate).toBe('18.109');
    const [row] = await sql<{ rate: string; created_by: string; minutes: number }>(
      'select rate::text as rate, created_by, extract(epoch from expires_at - created_at)::int / 60 as minutes from rate_pins where id = ?', [pinned.body.id]);
    expect(row).toEqual({ rate: '18.20000000', created_by: pinned.body.createdBy, minutes: 30 });
    await service.container.rates.refreshNow();
    const board = (await service.call('GET', '/v1/admin/rates', { apiKey: admin })).body.pairs.find((p: { pair: string }) => p.pair === 'USDC/ZAR');
    expect(board).toMatchObject({ status: 'unavailable', mid: '18.2', pin: { id: pinned.body.id, rate: '18.2' } });
    const refused = await service.call('POST', '/v1/admin/rates/pins', { apiKey: admin, body: { fiat: 'ZAR', stablecoin: 'USDC', rate: '0', expiresInMinutes: 30, reason: 'x' } });
    expect([refused.status, refused.body.code, refused.body.details.fields]).toEqual([400, 'validation_error', [{ path: 'body.rate', message: 'rate must be a positive decimal string' }]]);
    await sql('delete from rate_pins where id = ?', [pinned.body.id]);
    await sources({}, 2);
  });

  it('an operator sets a corridor spread through the admin API: it prices at once, is stored with the key that set it, and shows in the book', async () => {
    await sources();
    const set = await service.call('POST', '/v1/admin/rates/spreads', {
      apiKey: admin, body: { country: 'ZA', paymentMethod: 'BANK', percent: '1', reason: 'rand volatility this week' },
    });
    expect([set.status, set.body]).toEqual([201, {
      id: expect.stringMatching(/^spr_/), corridor: 'ZA:BANK', percent: '1', reason: 'rand volatility this week', createdBy: expect.stringMatching(/^key_/), createdAt: expect.any(String),
    }]);
    // The mid is 18.40 since the quote-lock test: 18.40 × 0.99 = 18.216.
    expect((await quote(live.apiKey)).body.exchangeRate).toBe('18.216');
    await service.container.rates.refreshNow();
    expect((await quote(live.apiKey)).body.exchangeRate).toBe('18.216');
    // Spreads are platform-wide: other files on this worker's database may have set other corridors'.
    const spreads = (await service.call('GET', '/v1/admin/rates', { apiKey: admin })).body.spreads;
    expect([spreads.default, spreads.byCorridor['ZA:BANK']]).toEqual(['0', '1']);
    const [row] = await sql<{ percent: string; created_by: string }>('select percent::text as percent, created_by from rate_spreads where id = ?', [set.body.id]);
    expect(row).toEqual({ percent: '1.0000', created_by: set.body.createdBy });
    const refused = await service.call('POST', '/v1/admin/rates/spreads', { apiKey: admin, body: { country: 'ZA', paymentMethod: 'BANK', percent: '11', reason: 'x' } });
    expect([refused.status, refused.body.details.fields[0].path]).toEqual([400, 'body.percent']);
    // Back to the configured 0.5 % for the other tests of this file (a later change wins).
    await service.call('POST', '/v1/admin/rates/spreads', { apiKey: admin, body: { country: 'ZA', paymentMethod: 'BANK', percent: '0.5', reason: 'back to normal' } });
    expect((await quote(live.apiKey)).body.exchangeRate).toBe('18.308');
  });
});
