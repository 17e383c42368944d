import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import type { Payment } from '../../src/core/payments/payment';
import { gql } from '../support/graphql-client';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../fixtures/screening', name), 'utf8');

/** The sandbox provider, recording every submission it receives. */
class RecordingSandbox extends SandboxPayoutProvider {
  readonly submitted: string[] = [];

  override async submit(payment: Payment) {
    this.submitted.push(payment.id);
    return super.submit(payment);
  }
}

/**
 * Sanctions screening of money-outs (docs/decisions.md § Screening) over REST with real PostgreSQL:
 * the lists loaded from files in OFAC's SDN.XML and the UN's consolidated.xml formats; a hit holds
 * the payment `initiated`, unsent; an operator's clear sends it, a reject fails it as
 * `compliance_rejected` and releases its hold.
 */
describe('sanctions screening of money-outs', () => {
  let service: TestService;
  let apiKey: string;
  let tenantId: string;
  let adminKey: string;
  const sandbox = new RecordingSandbox(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 });

  beforeAll(async () => {
    service = await startTestService({}, { provider: sandbox });
    ({ apiKey, tenantId } = await service.newTenant());
    adminKey = await service.newAdminKey();
    for (const [source, file] of [['ofac-sdn', 'ofac-sdn.xml'], ['un-consolidated', 'un-consolidated.xml']]) {
      const loaded = await service.call('POST', '/v1/admin/screening/lists', { apiKey: adminKey, body: { source, document: fixture(file!) } });
      expect(loaded.status).toBe(201);
    }
    // The replica that loaded screens with the new lists at once (its reloader is woken).
    await eventually(async () => (service.container.screening.screen.loaded().length === 2 ? true : undefined));
  });
  afterAll(async () => {
    // The lists are global rows: later suites of this jest worker start without them.
    await service.database.orm.em.getConnection().execute('delete from screening_lists');
    await service.close();
  });

  const moneyOut = (overrides: Record<string, unknown>) => service.call('POST', '/v1/payments/moneyout', {
    apiKey, body: moneyOutBody({ accountNumber: '254712345678', ...overrides }), headers: { 'idempotency-key': randomUUID() },
  });
  const available = async () => {
    const res = await service.call('GET', '/v1/balances', { apiKey });
    return (res.body as { currency: string; available: string }[]).find((b) => b.currency === 'USDC')?.available;
  };
  const review = async (paymentId: string) => {
    const res = await service.call('GET', '/v1/admin/compliance-reviews?status=pending&limit=500', { apiKey: adminKey });
    return (res.body as { subjectId: string }[]).find((r) => r.subjectId === paymentId) as Record<string, any> | undefined;
  };
  const final = (paymentId: string) => eventually(async () => {
    const res = await service.call('GET', `/v1/payments/${paymentId}`, { apiKey });
    return ['succeeded', 'failed', 'refunded'].includes(res.body.status) ? res.body : undefined;
  });
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('shows the loaded versions and dates to operators and in readiness details', async () => {
    const status = await service.call('GET', '/v1/admin/screening', { apiKey: adminKey });
    expect(status.body.stored).toEqual(expect.arrayContaining([
      expect.objectContaining({ source: 'ofac-sdn', version: '11/25/2026', publishedAt: '2026-11-25T00:00:00.000Z', entries: 4 }),
      expect.objectContaining({ source: 'un-consolidated', version: '2026-11-24T00:00:09.554Z', entries: 3 }),
    ]));
    const ready = await service.call('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.screening.lists.map((l: { source: string }) => l.source).sort()).toEqual(['ofac-sdn', 'un-consolidated']);
  });

  it.each([
    ['an exact name', 'Vladimir Petrovsky', 'ofac-sdn', '90001'],
    ['an alias', 'Northwind Exchange', 'ofac-sdn', '90002'],
    ['a reordered name', 'Al Rashidi Khalid Abdullah', 'ofac-sdn', '90003'],
    ['a transliterated name (Cyrillic)', 'Петровский Владимир', 'ofac-sdn', '90001'],
    ['a name listed with accents', 'Jerome Kakwavu', 'un-consolidated', '6909001'],
  ])('%s is held for review, initiated and never sent', async (_label, accountName, source, entryId) => {
    const created = await moneyOut({ accountName });
    expect([created.status, created.body.status]).toEqual([201, 'initiated']);
    const held = await review(created.body.id);
    expect(held?.hits[0]).toMatchObject({ kind: 'name', source, entryId, score: expect.any(Number) });
    await pause(300);
    expect((await service.call('GET', `/v1/payments/${created.body.id}`, { apiKey })).body.status).toBe('initiated');
    expect(sandbox.submitted).not.toContain(created.body.id);
  });

  it('GraphQL createMoneyOut and the legacy payout are screened the same way', async () => {
    const viaGraphql = await gql(service.baseUrl, 'mutation($input: MoneyOutInput!, $key: String!) { createMoneyOut(input: $input, idempotencyKey: $key) { payment { id status } } }', {
      input: { ...moneyOutBody({ accountName: 'Petrovsky, Vladimir' }), fiatAmount: '1500' }, key: randomUUID(),
    }, apiKey);
    expect(viaGraphql.body.errors).toBeUndefined();
    const graphqlId = viaGraphql.body.data.createMoneyOut.payment.id as string;
    const viaLegacy = await service.call('POST', '/momo/payout', { apiKey, body: {
      amount: 1500, destination: 'MoMo', accountName: 'Khalid Abdullah Al Rashidi', accountNumber: '254712345678',
      reference: `legacy-${randomUUID()}`, currency: 'KES', country: 'KE', code: 'MPESA',
    } });
    expect(viaLegacy.status).toBe(200);
    const legacyId = viaLegacy.body.transactionId as string;
    expect((await review(graphqlId))?.hits[0]).toMatchObject({ entryId: '90001' });
    expect((await review(legacyId))?.hits[0]).toMatchObject({ entryId: '90003' });
    await pause(300);
    expect(sandbox.submitted.filter((id) => id === graphqlId || id === legacyId)).toEqual([]);
  });

  it('a common name below the threshold passes and is paid', async () => {
    const created = await moneyOut({ accountName: 'Eric Baraka' });
    expect(created.status).toBe(201);
    expect(await review(created.body.id)).toBeUndefined();
    expect((await final(created.body.id)).status).toBe('succeeded');
    expect(sandbox.submitted).toContain(created.body.id);
  });

  it('an OFAC digital currency address as refundAddress stops the payout, and cannot be cleared', async () => {
    const created = await moneyOut({ blockchain: 'BSC', refundAddress: '0x7f367cc41522ce07553e823bf3be79a889debe1b' });
    expect(created.status).toBe(201);
    const held = await review(created.body.id);
    expect(held).toMatchObject({ clearable: false, hits: [{ kind: 'address', source: 'ofac-sdn', entryId: '90002', currency: 'ETH' }] });
    const cleared = await service.call('POST', `/v1/admin/compliance-reviews/${created.body.id}/clear`, { apiKey: adminKey, body: { reason: 'looks fine' } });
    expect([cleared.status, cleared.body.code]).toEqual([409, 'invalid_state']);
    await pause(300);
    expect(sandbox.submitted).not.toContain(created.body.id);
  });

  it('clear: the decision is recorded with who and why, and the payout proceeds', async () => {
    const created = await moneyOut({ accountName: 'Eric Badege' });
    expect(await review(created.body.id)).toBeDefined();
    const noReason = await service.call('POST', `/v1/admin/compliance-reviews/${created.body.id}/clear`, { apiKey: adminKey, body: { reason: ' ' } });
    expect(noReason.status).toBe(400);
    const cleared = await service.call('POST', `/v1/admin/compliance-reviews/${created.body.id}/clear`, {
      apiKey: adminKey, body: { reason: 'Different date of birth than the listed person' },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({
      status: 'cleared', decidedBy: expect.stringMatching(/^key_/), reason: 'Different date of birth than the listed person', decidedAt: expect.any(String),
    });
    expect((await final(created.body.id)).status).toBe('succeeded');
    expect(sandbox.submitted).toContain(created.body.id);
    const again = await service.call('POST', `/v1/admin/compliance-reviews/${created.body.id}/reject`, { apiKey: adminKey, body: { reason: 'changed my mind' } });
    expect(again.status).toBe(409);
  });

  it('reject: the payment fails as compliance_rejected, its amount returns, nothing was sent', async () => {
    const before = await available();
    const created = await moneyOut({ accountName: 'Zarya Trading Company', refundAddress: '5FHwkrdxntdK24hgQU8qgBjn35Y1zwhz1GZwCkP2UJnM' });
    expect(created.status).toBe(201);
    expect(await available()).not.toBe(before);
    const held = await review(created.body.id);
    expect(held?.hits.map((h: { kind: string }) => h.kind).sort()).toEqual(['address', 'name']);
    const rejected = await service.call('POST', `/v1/admin/compliance-reviews/${created.body.id}/reject`, {
      apiKey: adminKey, body: { reason: 'Listed entity and listed wallet' },
    });
    expect(rejected.body).toMatchObject({ status: 'rejected', reason: 'Listed entity and listed wallet', decidedBy: expect.stringMatching(/^key_/) });
    const payment = await final(created.body.id);
    expect(payment).toMatchObject({ status: 'failed', failureCode: 'compliance_rejected' });
    expect(await available()).toBe(before);
    expect(sandbox.submitted).not.toContain(created.body.id);
    expect(tenantId).toMatch(/^ten_/);
  });
});
