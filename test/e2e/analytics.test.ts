import { randomUUID } from 'node:crypto';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

interface Paid { id: string; status: string; amountStablecoin: string; sourceCurrency: string; createdAt: string; updatedAt: string }

/** Sums decimal strings of scale 6 exactly (micro-units). */
const sum6 = (amounts: string[]) => (amounts.reduce((s, a) => s + BigInt(a.replace('.', '')), 0n)).toString().padStart(7, '0').replace(/(\d{6})$/, '.$1');
/** Median of seconds from creation to success (updatedAt is the payment.succeeded time for a succeeded payment). */
const medianSeconds = (paid: Paid[]) => {
  const s = paid.map((p) => (Date.parse(p.updatedAt) - Date.parse(p.createdAt)) / 1000).sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

describe('GET /v1/analytics/summary', () => {
  let service: TestService;
  let apiKey: string;
  const from = new Date(Date.now() - 60_000).toISOString();
  const to = () => new Date(Date.now() + 60_000).toISOString();
  let paid: Paid[] = [];
  const ugx = { country: 'UG', destinationCurrency: 'UGX', paymentCode: 'MTN', accountNumber: '256712345678' };
  // Sandbox outcomes by the account number's last four digits (README): known statuses, known amounts.
  const plan: [Record<string, unknown>, string][] = [
    [moneyOutBody(), 'succeeded'],
    [moneyOutBody(), 'succeeded'],
    [moneyOutBody({ accountNumber: '254712340000' }), 'failed'],
    [moneyOutBody({ accountNumber: '254712342222' }), 'refunded'],
    [moneyOutBody({ accountNumber: '254712343333' }), 'provider_accepted'],
    [moneyOutBody({ ...ugx, fiatAmount: 1000 }), 'succeeded'],
    [moneyOutBody({ ...ugx, fiatAmount: 2000, sourceCurrency: 'USDT' }), 'succeeded'],
  ];

  beforeAll(async () => {
    service = await startTestService();
    ({ apiKey } = await service.newTenant());
    const ids: string[] = [];
    for (const [body] of plan) {
      const res = await service.call('POST', '/v1/payments/moneyout', { apiKey, body, headers: { 'idempotency-key': randomUUID() } });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    paid = await eventually(async () => {
      const now = await Promise.all(ids.map(async (id) => (await service.call('GET', `/v1/payments/${id}`, { apiKey })).body as Paid));
      return now.length === plan.length && now.every((p, i) => p.status === plan[i]![1]) ? now : undefined;
    });
  });
  afterAll(() => service.close());

  const summary = (query: string, key = apiKey) => service.call('GET', `/v1/analytics/summary?${query}`, { apiKey: key });
  const grouped = (groupBy: string) => summary(`from=${from}&to=${to()}&groupBy=${groupBy}`);
  const coin = (rows: Paid[], currency: string) => sum6(rows.filter((p) => p.sourceCurrency === currency).map((p) => p.amountStablecoin));

  it('groups by status: counts and volumes of each status exactly', async () => {
    const res = await grouped('status');
    expect(res.status).toBe(200);
    const succeeded = paid.filter((p) => p.status === 'succeeded');
    expect(res.body).toEqual([
      { key: 'failed', count: 1, fiatVolume: { KES: '1500.00' }, stablecoinVolume: { USDC: paid[2]!.amountStablecoin }, successRate: '0', medianSecondsToSuccess: null },
      { key: 'provider_accepted', count: 1, fiatVolume: { KES: '1500.00' }, stablecoinVolume: { USDC: paid[4]!.amountStablecoin }, successRate: null, medianSecondsToSuccess: null },
      { key: 'refunded', count: 1, fiatVolume: { KES: '1500.00' }, stablecoinVolume: { USDC: paid[3]!.amountStablecoin }, successRate: '0', medianSecondsToSuccess: null },
      {
        key: 'succeeded', count: 4, fiatVolume: { KES: '3000.00', UGX: '3000' },
        stablecoinVolume: { USDC: coin(succeeded, 'USDC'), USDT: coin(succeeded, 'USDT') }, successRate: '1', medianSecondsToSuccess: expect.any(Number),
      },
    ]);
    expect(res.body[3].medianSecondsToSuccess).toBeCloseTo(medianSeconds(succeeded), 2);
  });

  it('groups by currency: volumes per currency, success rate over final payments, median time to success', async () => {
    const res = await grouped('currency');
    const kes = paid.slice(0, 5);
    const ugxPaid = paid.slice(5);
    expect(res.body).toEqual([
      // 2 succeeded of 4 final (the provider_accepted one is not final yet).
      { key: 'KES', count: 5, fiatVolume: { KES: '7500.00' }, stablecoinVolume: { USDC: coin(kes, 'USDC') }, successRate: '0.5', medianSecondsToSuccess: expect.any(Number) },
      { key: 'UGX', count: 2, fiatVolume: { UGX: '3000' }, stablecoinVolume: { USDC: paid[5]!.amountStablecoin, USDT: paid[6]!.amountStablecoin }, successRate: '1', medianSecondsToSuccess: expect.any(Number) },
    ]);
    expect(res.body[0].medianSecondsToSuccess).toBeCloseTo(medianSeconds(kes.filter((p) => p.status === 'succeeded')), 2);
    expect(res.body[1].medianSecondsToSuccess).toBeCloseTo(medianSeconds(ugxPaid), 2);
  });

  it('groups by day (UTC) and method', async () => {
    const day = await grouped('day');
    expect(day.body).toEqual([expect.objectContaining({ key: new Date().toISOString().slice(0, 10), count: 7, successRate: '0.6667', fiatVolume: { KES: '7500.00', UGX: '3000' } })]);
    expect((await grouped('method')).body).toEqual([expect.objectContaining({ key: 'MOMO', count: 7, successRate: '0.6667' })]);
  });

  it('counts from inclusive and to exclusive', async () => {
    const first = paid.reduce((a, b) => (a.createdAt <= b.createdAt ? a : b));
    const sameTime = paid.filter((p) => p.createdAt === first.createdAt).length;
    expect((await summary(`from=${from}&to=${first.createdAt}&groupBy=method`)).body).toEqual([]);
    expect((await summary(`from=${first.createdAt}&to=${to()}&groupBy=method`)).body[0].count).toBe(7);
    const upToFirst = new Date(Date.parse(first.createdAt) + 1).toISOString();
    expect((await summary(`from=${from}&to=${upToFirst}&groupBy=method`)).body[0].count).toBe(sameTime);
  });

  it("sees only the caller's payments", async () => {
    const other = await service.newTenant();
    expect((await summary(`from=${from}&to=${to()}`, other.apiKey)).body).toEqual([]);
    const res = await service.call('POST', '/v1/payments/moneyout', { apiKey: other.apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    expect(res.status).toBe(201);
    expect((await summary(`from=${from}&to=${to()}&groupBy=method`, other.apiKey)).body).toEqual([expect.objectContaining({ key: 'MOMO', count: 1 })]);
    expect((await grouped('method')).body).toEqual([expect.objectContaining({ count: 7 })]);
  });

  it('refuses bad ranges and groupings in shape A, and non-issuer keys', async () => {
    const at = '2026-01-01T00:00:00Z';
    for (const query of [
      `from=${to()}&to=${from}`, `from=${at}&to=${at}`, 'from=2020-01-01T00:00:00Z&to=2021-01-02T00:00:01Z', `from=${from}&to=${to()}&groupBy=week`,
      'from=yesterday&to=today', `from=${from}`, `to=${to()}`, 'from=2026-01-01&to=2026-01-02', `from=${from}&to=${to()}&tenantId=x`,
    ]) {
      const res = await summary(query);
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'validation_error' });
    }
    // 366 days, leap day included, is the longest range accepted.
    expect((await summary('from=2024-01-01T00:00:00Z&to=2025-01-01T00:00:00Z')).status).toBe(200);
    expect((await summary(`from=${from}&to=${to()}`, await service.newAdminKey())).status).toBe(403);
  });
});
