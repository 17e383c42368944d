import { randomUUID } from 'node:crypto';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { CatalogRouting } from '../../src/adapters/providers/catalog-routing';
import { SandboxKycProvider } from '../../src/adapters/providers/sandbox-kyc';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import type { Payment } from '../../src/core/payments/payment';
import type { PayoutProvider, StatusOutcome, SubmitOutcome } from '../../src/core/payments/payout-provider';
import { liveTenant } from '../support/live-tenant';
import { seededRandom } from '../support/seeded-random';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

/**
 * A provider at the core's edge: accepts every submission and reports success at its first status
 * query, except that `failEvery` of each 10 submissions (the 3rd, 6th and 9th for 3) are
 * rejected as its own fault (`provider_error`).
 */
class FlakyProvider implements PayoutProvider {
  readonly submitted: string[] = [];
  constructor(readonly name: string, private readonly failEvery: number) {}
  async submit(payment: Payment): Promise<SubmitOutcome> {
    this.submitted.push(payment.id);
    const n = this.submitted.length % 10;
    return [3, 6, 9].slice(0, this.failEvery).includes(n)
      ? { kind: 'rejected', reason: 'provider system error', code: 'provider_error' }
      : { kind: 'accepted', providerRef: `${this.name}_${payment.id}` };
  }
  async status(): Promise<StatusOutcome> {
    return { kind: 'succeeded' };
  }
}

/**
 * Routing on measured success end to end (docs/decisions.md § Payout providers: routing on
 * measured success): two providers on KE MOMO MPESA, the first in table order failing 30 % of its
 * payouts. Once its figures pass the minimum sample, traffic shifts to the other within the
 * window, while the hedged share keeps reaching it; each decision is on the admin payment view
 * (never the issuer's) and in metrics. Figures live in PostgreSQL; randomness is seeded.
 */
describe('success-rate routing with two providers on one corridor', () => {
  let service: TestService;
  let admin: string;
  const flaky = new FlakyProvider('flaky', 3);
  const steady = new FlakyProvider('steady', 0);
  const catalog = loadCatalog('data/corridors.json');
  // A corridor code of its own, so figures left by earlier files on this database are not summed.
  const table = {
    ...catalog,
    payoutRoutes: [{ country: 'KE' as const, method: 'MOMO' as const, codes: ['AIRTEL'], providers: ['flaky', 'steady'], strategy: 'success_rate' as const }],
  };

  beforeAll(async () => {
    const sandbox = { payouts: new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 }), kyc: new SandboxKycProvider(systemClock, 50) };
    service = await startTestService(
      { ROUTING_MIN_SAMPLES: '10', ROUTING_HEDGE_PERCENT: '10', ROUTING_WINDOW_MS: '600000' },
      { routing: new CatalogRouting(table, sandbox, [flaky, steady]), routingRandom: seededRandom(2611) },
    );
    admin = await service.newAdminKey();
    // Earlier files' figures on this corridor (a rerun on the same database) would skew the start.
    await service.database.orm.em.fork().getConnection().execute(`delete from payout_provider_outcomes where country = 'KE' and payment_code = 'AIRTEL'`);
  });
  afterAll(() => service.close());

  /** Pays `n` money-outs one after another, each to its end; returns the provider each went to first. */
  async function pay(apiKey: string, n: number): Promise<Array<{ id: string; provider: string; status: string }>> {
    const done: Array<{ id: string; provider: string; status: string }> = [];
    for (let i = 0; i < n; i += 1) {
      const res = await service.call('POST', '/v1/payments/moneyout', {
        apiKey, headers: { 'idempotency-key': randomUUID() }, body: moneyOutBody({ paymentCode: 'AIRTEL', accountNumber: '254733123456' }),
      });
      expect(res.status).toBe(201);
      const id = res.body.id as string;
      const view = await eventually(async () => {
        const got = await service.call('GET', `/v1/admin/payments/${id}`, { apiKey: admin });
        return ['succeeded', 'failed'].includes(got.body.status) ? got.body : undefined;
      }, 20_000);
      done.push({ id, provider: view.provider, status: view.status });
    }
    return done;
  }
  const share = (payments: Array<{ provider: string }>, name: string) => payments.filter((p) => p.provider === name).length / payments.length;

  it('shifts traffic away from the provider failing 30 % within the window, and the hedged share still reaches it', async () => {
    const { apiKey } = await liveTenant(service, admin);
    // Both unknown at first (neutral): the table's order puts flaky first, bar hedges.
    const warmUp = await pay(apiKey, 20);
    expect(share(warmUp.slice(0, 10), 'flaky')).toBeGreaterThanOrEqual(0.7);
    expect(warmUp.filter((p) => p.provider === 'flaky' && p.status === 'failed').length).toBeGreaterThan(0);

    const later = await pay(apiKey, 60);
    expect(share(later, 'steady')).toBeGreaterThanOrEqual(0.8);
    const hedgedToFlaky = later.filter((p) => p.provider === 'flaky');
    expect(hedgedToFlaky.length).toBeGreaterThanOrEqual(1);
    // Every later payment at flaky went there as a hedge, every one at steady on its rank.
    for (const p of later) {
      const routing = (await service.call('GET', `/v1/admin/payments/${p.id}`, { apiKey: admin })).body.routing;
      expect([p.provider, routing.reason, routing.hedged, routing.order[0]]).toEqual(
        p.provider === 'flaky' ? ['flaky', 'hedged', true, 'flaky'] : ['steady', 'ranked', false, 'steady'],
      );
    }

    // The admin view shows the decision and its inputs; the issuer's view shows neither it nor the provider.
    const last = later.at(-1)!;
    const adminView = (await service.call('GET', `/v1/admin/payments/${last.id}`, { apiKey: admin })).body;
    expect(adminView.routing).toMatchObject({ strategy: 'success_rate', decidedAt: expect.any(String) });
    const figures = Object.fromEntries(adminView.routing.candidates.map((c: { name: string }) => [c.name, c]));
    expect(figures.flaky).toMatchObject({ healthy: true, successRate: expect.any(Number) });
    expect(figures.flaky.successRate).toBeLessThan(0.8);
    expect(figures.steady).toMatchObject({ healthy: true, successRate: 1 });
    expect(figures.steady.successes).toBeGreaterThan(40);
    expect(figures.steady.meanLatencyMs).toEqual(expect.any(Number));
    const issuerView = (await service.call('GET', `/v1/payments/${last.id}`, { apiKey })).body;
    expect(issuerView).not.toHaveProperty('routing');
    expect(issuerView).not.toHaveProperty('provider');

    const metrics = (await service.call('GET', '/metrics', { apiKey: admin })).text;
    expect(metrics).toMatch(/payout_routing_decisions_total\{provider="steady",corridor="KE\/MOMO\/AIRTEL",strategy="success_rate",reason="ranked"\} \d+/);
    expect(metrics).toMatch(/payout_routing_decisions_total\{provider="flaky",corridor="KE\/MOMO\/AIRTEL",strategy="success_rate",reason="hedged"\} \d+/);
  }, 180_000);
});
