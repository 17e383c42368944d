import { randomUUID } from 'node:crypto';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { CatalogRouting } from '../../src/adapters/providers/catalog-routing';
import { SandboxKycProvider } from '../../src/adapters/providers/sandbox-kyc';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import type { PaymentMethod } from '../../src/core/catalog/catalog';
import { liveTenant, REFUND_ADDRESS } from '../support/live-tenant';
import { ScriptedProvider } from '../support/scripted-provider';
import { startTestService, type TestService } from '../support/test-service';

const catalog = loadCatalog('data/corridors.json');
const LEGACY_DESTINATION: Record<PaymentMethod, string> = { BANK: 'Bank', MOMO: 'MoMo', PAYBILL: 'Paybill', TILL: 'Till' };

/**
 * The catalog is consistent (docs/decisions.md § Corridor catalog: what is quoted is what is paid):
 * for every currency the catalog names, a live tenant can quote it (`GET /fx/convert`) exactly when
 * it can pay it out (a money-out, or a legacy payout for the currencies only that takes, is
 * created in at least one of its corridors). Every live payout provider the catalog routes to is
 * configured (scripted: nothing is submitted, the workers are off), so "cannot pay out" means no
 * provider is routed, or no payout endpoint takes the currency.
 */
describe('catalog consistency: quotable exactly when payable', () => {
  let service: TestService;
  let live: { tenantId: string; apiKey: string };

  beforeAll(async () => {
    const names = [...new Set(catalog.payoutRoutes.flatMap((route) => route.providers))];
    const sandbox = { payouts: new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 }), kyc: new SandboxKycProvider(systemClock, 50) };
    service = await startTestService({ WORKER_ENABLED: 'false' }, {
      routing: new CatalogRouting(catalog, sandbox, names.map((name) => new ScriptedProvider(name)), () => true),
    });
    live = await liveTenant(service, await service.newAdminKey(), 1_000_000);
  });
  afterAll(() => service.close());

  /**
   * Whether one corridor and code pays out for the live tenant: REST money-out, else (a currency
   * REST does not take) the legacy payout. Answers the status and code.
   */
  async function pays(country: string, method: PaymentMethod, code: string): Promise<string> {
    const corridor = catalog.countries[country as keyof typeof catalog.countries]!;
    const offer = corridor.methods[method]!;
    const accountNumber = method === 'MOMO' ? `${corridor.dialCode}700000001` : '0123456789';
    const paybill = method === 'PAYBILL' ? { businessNumber: '123456' } : {};
    const body = {
      fiatAmount: offer.min, sourceCurrency: 'USDC', destinationCurrency: corridor.currency, country, blockchain: 'SOLANA', paymentMethod: method,
      accountName: 'Test Recipient', accountNumber, paymentCode: code, reference: `ref-${randomUUID()}`, refundAddress: REFUND_ADDRESS, optionalIssuerFee: 'NO', ...paybill,
    };
    let res = await service.call('POST', '/v1/payments/moneyout', { apiKey: live.apiKey, body, headers: { 'idempotency-key': randomUUID() } });
    if (res.status === 400 && JSON.stringify(res.body).includes('destinationCurrency')) {
      res = await service.call('POST', '/momo/payout', {
        apiKey: live.apiKey,
        body: {
          amount: offer.min, destination: LEGACY_DESTINATION[method], accountName: 'Test Recipient', accountNumber, reference: `legacy-${randomUUID()}`,
          currency: corridor.currency, country, code, ...paybill,
        },
      });
    }
    return `${country}:${method}:${code}=${res.status}${res.status === 201 ? '' : ` ${res.body.code}`}`;
  }

  it('every catalog currency is quotable if and only if one of its corridors pays out', async () => {
    const currencies = [...new Set([...Object.values(catalog.countries).map((c) => c.currency), ...Object.keys(catalog.rates)])].sort();
    const seen: Record<string, { quotable: boolean; payable: boolean; corridors: string[] }> = {};
    for (const currency of currencies) {
      const corridors = Object.entries(catalog.countries).filter(([, c]) => c.currency === currency)
        .flatMap(([country, c]) => (Object.keys(c.methods) as PaymentMethod[]).map((method) => ({ country, method, min: c.methods[method]!.min })));
      const outcomes: string[] = [];
      for (const { country, method } of corridors) {
        for (const code of catalog.countries[country as keyof typeof catalog.countries]!.methods[method]!.codes) outcomes.push(await pays(country, method, code));
      }
      const amount = corridors[0]?.min ?? '100';
      const quote = await service.call('GET', `/fx/convert?amount=${amount}&sourceCurrency=${currency}&destinationCurrency=USDC`, { apiKey: live.apiKey });
      seen[currency] = { quotable: quote.status === 200, payable: outcomes.some((o) => o.includes('=201')), corridors: outcomes };
    }
    // Each mismatch shows its corridors' answers, so a failure says which side is wrong.
    const mismatched = Object.entries(seen).filter(([, s]) => s.quotable !== s.payable).map(([c, s]) => ({ currency: c, ...s }));
    expect(mismatched).toEqual([]);
    // The test must not pass by quoting and paying nothing: today's catalog pays (and quotes) these.
    expect(Object.entries(seen).filter(([, s]) => s.payable).map(([c]) => c)).toEqual(expect.arrayContaining(['KES', 'NGN', 'XAF', 'XOF', 'ZAR']));
  });
});
