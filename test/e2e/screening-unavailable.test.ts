import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { CatalogRouting } from '../../src/adapters/providers/catalog-routing';
import { SandboxKycProvider } from '../../src/adapters/providers/sandbox-kyc';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { gql } from '../support/graphql-client';
import { liveTenant, REFUND_ADDRESS } from '../support/live-tenant';
import { ScriptedProvider } from '../support/scripted-provider';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const MONEY_OUT = 'mutation($input: MoneyOutInput!, $key: String!) { createMoneyOut(input: $input, idempotencyKey: $key) { payment { id } } }';

/** A South African bank money-out (routed to Paystack, here a scripted provider). */
const zaBankBody = () => ({
  fiatAmount: '1810', sourceCurrency: 'USDC', destinationCurrency: 'ZAR', country: 'ZA', blockchain: 'SOLANA', paymentMethod: 'BANK',
  accountName: 'Thandi Nkosi', accountNumber: '4012345678', paymentCode: '632005', reference: `ref-${randomUUID()}`,
  refundAddress: REFUND_ADDRESS, optionalIssuerFee: 'NO',
});

/**
 * No sanctions list loaded while screening is required (docs/decisions.md § Screening: no list
 * loaded): a live tenant's money-out answers 503 `screening_unavailable` with `Retry-After` (the
 * replicas' reload interval) on REST, the legacy payout and GraphQL, writing nothing; a sandbox
 * tenant is unaffected; once an operator loads a list the same request is no longer refused.
 */
describe('screening_unavailable: live money-outs while no list is loaded', () => {
  let service: TestService;
  let admin: string;
  let live: { tenantId: string; apiKey: string };
  let sandboxKey: string;

  beforeAll(async () => {
    const catalog = loadCatalog('data/corridors.json');
    const sandbox = { payouts: new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 }), kyc: new SandboxKycProvider(systemClock, 50) };
    service = await startTestService({ SCREENING_REQUIRED: 'true', SCREENING_RELOAD_SECONDS: '45', WORKER_ENABLED: 'false' }, {
      routing: new CatalogRouting(catalog, sandbox, [new ScriptedProvider('paystack')], () => true),
    });
    // The lists are global rows: an earlier suite of this jest worker may have left some.
    await sql('delete from screening_lists');
    await service.container.screening.reload();
    admin = await service.newAdminKey();
    live = await liveTenant(service, admin);
    sandboxKey = (await service.newTenant()).apiKey;
  });
  afterAll(async () => {
    await sql('delete from screening_lists');
    await service.close();
  });

  const sql = <T>(text: string, params: unknown[] = []) => service.database.orm.em.fork().getConnection().execute(text, params) as Promise<T[]>;
  const writes = async (tenantId: string) => (await sql<{ n: number }>(
    `select ((select count(*) from payments where tenant_id = ?) + (select count(*) from idempotency_keys where tenant_id = ?)
          + (select count(*) from ledger_transactions where tenant_id = ? and kind = 'hold'))::int as n`,
    [tenantId, tenantId, tenantId]))[0]!.n;
  const rest = (apiKey: string, body: Record<string, unknown>, key = randomUUID()) =>
    service.call('POST', '/v1/payments/moneyout', { apiKey, body, headers: { 'idempotency-key': key } });

  it('REST, legacy and GraphQL answer 503 screening_unavailable with Retry-After, and write nothing', async () => {
    const before = await writes(live.tenantId);
    const viaRest = await rest(live.apiKey, zaBankBody());
    expect([viaRest.status, viaRest.headers.get('retry-after'), viaRest.body.code, viaRest.body.statusCode]).toEqual([503, '45', 'screening_unavailable', 503]);
    expect(viaRest.body.message).toMatch(/no sanctions list is loaded/);
    const legacy = await service.call('POST', '/momo/payout', {
      apiKey: live.apiKey,
      body: { amount: 1810, destination: 'Bank', accountName: 'Thandi Nkosi', accountNumber: '4012345678', reference: `legacy-${randomUUID()}`, currency: 'ZAR', country: 'ZA', code: '632005' },
    });
    expect([legacy.status, legacy.headers.get('retry-after'), legacy.body.error, legacy.body.code, legacy.body.details.retryAfterS])
      .toEqual([503, '45', { code: 'screening_unavailable' }, 'screening_unavailable', 45]);
    const graphql = await gql(service.baseUrl, MONEY_OUT, { input: zaBankBody(), key: randomUUID() }, live.apiKey);
    expect([graphql.body.data, graphql.body.errors?.[0]?.extensions?.code, graphql.body.errors?.[0]?.extensions?.details?.retryAfterS])
      .toEqual([null, 'screening_unavailable', 45]);
    expect(await writes(live.tenantId)).toBe(before);
  });

  it('a sandbox tenant is never refused for a missing list', async () => {
    const created = await rest(sandboxKey, moneyOutBody());
    expect(created.status).toBe(201);
  });

  it('once an operator loads a list, the same request (same Idempotency-Key) is no longer refused', async () => {
    const key = randomUUID();
    const body = zaBankBody();
    expect((await rest(live.apiKey, body, key)).body.code).toBe('screening_unavailable');
    const document = readFileSync(path.join(__dirname, '../fixtures/screening/ofac-sdn.xml'), 'utf8');
    expect((await service.call('POST', '/v1/admin/screening/lists', { apiKey: admin, body: { source: 'ofac-sdn', document } })).status).toBe(201);
    await eventually(async () => (service.container.screening.screen.loaded().length === 1 ? true : undefined));
    const retried = await rest(live.apiKey, body, key);
    expect([retried.status, retried.body.status]).toEqual([201, 'initiated']);
  });
});
