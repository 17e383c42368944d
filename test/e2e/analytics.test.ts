import { randomUUID } from 'node:crypto';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

describe('GET /v1/analytics/summary', () => {
  let service: TestService;
  let apiKey: string;
  const from = new Date(Date.now() - 60_000).toISOString();
  const to = () => new Date(Date.now() + 60_000).toISOString();
  const created: { id: string; amountStablecoin: string }[] = [];

  beforeAll(async () => {
    service = await startTestService();
    ({ apiKey } = await service.newTenant());
    const bodies = [
      moneyOutBody(), moneyOutBody(), moneyOutBody({ accountNumber: '254712340000' }), moneyOutBody({ accountNumber: '254712342222' }),
      moneyOutBody({ accountNumber: '254712343333' }),
      moneyOutBody({ country: 'UG', destinationCurrency: 'UGX', paymentCode: 'MTN', fiatAmount: 1000, accountNumber: '256712345678' }),
    ];
    for (const body of bodies) {
      const res = await service.call('POST', '/v1/payments/moneyout', { apiKey, body, headers: { 'idempotency-key': randomUUID() } });
      created.push(res.body);
    }
    await eventually(async () => {
      const statuses = await Promise.all(created.map(async (p) => (await service.call('GET', `/v1/payments/${p.id}`, { apiKey })).body.status));
      return statuses.filter((s) => s === 'provider_accepted').length === 1 && !statuses.includes('initiated') ? true : undefined;
    });
  });
  afterAll(() => service.close());

  const summary = (groupBy: string) => service.call('GET', `/v1/analytics/summary?from=${from}&to=${to()}&groupBy=${groupBy}`, { apiKey });

  it('groups by status with exact counts', async () => {
    const res = await summary('status');
    expect(res.status).toBe(200);
    expect(res.body.map((g: { key: string; count: number }) => [g.key, g.count])).toEqual([
      ['failed', 1], ['provider_accepted', 1], ['refunded', 1], ['succeeded', 3],
    ]);
  });

  it('groups by currency with volumes, success rate and median time to success', async () => {
    const res = await summary('currency');
    const [kes, ugx] = res.body;
    const kesCoin = created.slice(0, 5).reduce((sum, p) => sum + Math.round(Number(p.amountStablecoin) * 1e6), 0) / 1e6;
    expect(kes).toMatchObject({ key: 'KES', count: 5, fiatVolume: { KES: '7500.00' }, successRate: '0.5' });
    expect(kes.stablecoinVolume.USDC).toBe(kesCoin.toFixed(6));
    expect(ugx).toMatchObject({ key: 'UGX', count: 1, fiatVolume: { UGX: '1000' }, successRate: '1', stablecoinVolume: { USDC: created[5]!.amountStablecoin } });
    expect(kes.medianSecondsToSuccess).toBeGreaterThan(0);
    expect(kes.medianSecondsToSuccess).toBeLessThan(10);
  });

  it('groups by day and method, and sees only the caller', async () => {
    expect((await summary('day')).body).toEqual([expect.objectContaining({ key: new Date().toISOString().slice(0, 10), count: 6 })]);
    expect((await summary('method')).body).toEqual([expect.objectContaining({ key: 'MOMO', count: 6 })]);
    const other = await service.newTenant();
    expect((await service.call('GET', `/v1/analytics/summary?from=${from}&to=${to()}`, { apiKey: other.apiKey })).body).toEqual([]);
  });

  it('refuses bad ranges and groupings in shape A', async () => {
    for (const query of [`from=${to()}&to=${from}`, 'from=2020-01-01T00:00:00Z&to=2022-01-01T00:00:00Z', `from=${from}&to=${to()}&groupBy=week`, 'from=yesterday&to=today']) {
      const res = await service.call('GET', `/v1/analytics/summary?${query}`, { apiKey });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
  });
});
