import { randomUUID } from 'node:crypto';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';
import { ScriptedProvider } from '../support/scripted-provider';

/**
 * The reconciliation worker (docs/decisions.md § Reconciliation): a payment provider_accepted for
 * longer than RECONCILIATION_STUCK_AFTER_SECONDS gets a status query; a final answer moves it
 * through the guarded move, a provider that does not know it is reported and nothing is changed.
 */
describe('reconciliation worker', () => {
  let service: TestService;
  let admin: string;
  const provider = new ScriptedProvider();
  beforeAll(async () => {
    service = await startTestService({
      RECONCILIATION_STUCK_AFTER_SECONDS: '1', RECONCILIATION_RECHECK_SECONDS: '1', RECONCILIATION_POLL_INTERVAL_MS: '50',
    }, { provider });
    admin = await service.newAdminKey();
  });
  afterAll(() => service.close());

  async function acceptedPayment(apiKey: string): Promise<string> {
    const created = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    await eventually(async () => ((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'provider_accepted' ? true : undefined));
    return id;
  }
  const statusOf = async (apiKey: string, id: string) => (await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status as string;
  const metrics = async () => (await service.call('GET', '/metrics', { apiKey: admin })).text;

  it('asks about a stuck payment again and applies a final answer once, with its ledger move', async () => {
    const { apiKey } = await service.newTenant();
    const id = await acceptedPayment(apiKey);
    // The payout worker's own query after acceptance comes first and is told an hour: only reconciliation asks next.
    await eventually(async () => (provider.statusCalls.includes(id) ? true : undefined));
    provider.answer(id, { kind: 'pending', afterMs: 3_600_000 });
    // Still pending at the provider: asked again, left as it is, and not a finding.
    await eventually(async () => (provider.statusCalls.filter((p) => p === id).length >= 2 ? true : undefined));
    expect(await statusOf(apiKey, id)).toBe('provider_accepted');
    provider.answer(id, { kind: 'succeeded' });
    await eventually(async () => ((await statusOf(apiKey, id)) === 'succeeded' ? true : undefined));
    const ledger = (await service.call('GET', '/v1/balances/transactions', { apiKey })).body as { kind: string; paymentId: string | null }[];
    expect(ledger.filter((t) => t.paymentId === id).map((t) => t.kind).sort()).toEqual(['hold', 'send', 'settle']);
    expect(await metrics()).toMatch(/reconciliation_checks_total\{provider="scripted",outcome="succeeded"\} [1-9]/);
    // Final payments are never asked about again.
    const calls = provider.statusCalls.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(provider.statusCalls.slice(calls)).not.toContain(id);
    const findings = (await service.call('GET', '/v1/admin/reconciliation/findings', { apiKey: admin })).body as { paymentId: string }[];
    expect(findings.map((f) => f.paymentId)).not.toContain(id);
  });

  it('reports a payment the provider does not know (admin API, metrics) and never corrects it', async () => {
    const { apiKey, tenantId } = await service.newTenant();
    const id = await acceptedPayment(apiKey);
    provider.answer(id, { kind: 'not_found' });
    const finding = await eventually(async () => {
      const res = await service.call('GET', '/v1/admin/reconciliation/findings?limit=500', { apiKey: admin });
      expect(res.status).toBe(200);
      return (res.body as { paymentId: string }[]).find((f) => f.paymentId === id);
    });
    expect(finding).toEqual({
      paymentId: id, tenantId, provider: 'scripted', kind: 'missing_at_provider', detail: expect.stringContaining(id), seenAt: expect.any(String),
    });
    expect(await metrics()).toMatch(/reconciliation_mismatches_total\{provider="scripted",kind="missing_at_provider"\} [1-9]/);
    await eventually(async () => (provider.statusCalls.filter((p) => p === id).length >= 3 ? true : undefined));
    expect(await statusOf(apiKey, id)).toBe('provider_accepted');
    const balance = (await service.call('GET', '/v1/balances', { apiKey })).body.find((b: { currency: string }) => b.currency === 'USDC');
    expect(balance.inTransit).not.toBe('0.000000');
    // Once the provider knows it again, the finding is gone and the answer applies.
    provider.answer(id, { kind: 'failed', reason: 'Recipient wallet closed', code: 'recipient_account_invalid' });
    await eventually(async () => ((await statusOf(apiKey, id)) === 'failed' ? true : undefined));
    const after = (await service.call('GET', '/v1/admin/reconciliation/findings?limit=500', { apiKey: admin })).body as { paymentId: string }[];
    expect(after.map((f) => f.paymentId)).not.toContain(id);
  });

  it('reports a status the provider\'s adapter does not map as a finding while it lasts, never moving the payment', async () => {
    const { apiKey, tenantId } = await service.newTenant();
    const id = await acceptedPayment(apiKey);
    // The payout worker's own query after acceptance (answered pending for an hour) comes first: only this worker asks next.
    await eventually(async () => (provider.statusCalls.includes(id) ? true : undefined));
    provider.answer(id, { kind: 'pending', afterMs: 3_600_000, unknownStatus: 'under_review' });
    const finding = await eventually(async () => {
      const res = await service.call('GET', '/v1/admin/reconciliation/findings?limit=500', { apiKey: admin });
      return (res.body as { paymentId: string; kind: string }[]).find((f) => f.paymentId === id && f.kind === 'unknown_provider_status');
    });
    expect(finding).toEqual({
      paymentId: id, tenantId, provider: 'scripted', kind: 'unknown_provider_status',
      detail: 'scripted answered status "under_review", which we do not map: the payment waits for an operator', seenAt: expect.any(String),
    });
    expect(await metrics()).toMatch(/reconciliation_mismatches_total\{provider="scripted",kind="unknown_provider_status"\} [1-9]/);
    expect(await statusOf(apiKey, id)).toBe('provider_accepted');
    // A status the adapter maps again: the next check clears the finding.
    provider.answer(id, { kind: 'pending', afterMs: 3_600_000 });
    await eventually(async () => {
      const res = await service.call('GET', '/v1/admin/reconciliation/findings?limit=500', { apiKey: admin });
      return (res.body as { paymentId: string }[]).some((f) => f.paymentId === id) ? undefined : true;
    });
    expect(await statusOf(apiKey, id)).toBe('provider_accepted');
  });

  it('refuses a bad limit with 400 in shape A, and issuer keys with 403', async () => {
    const bad = await service.call('GET', '/v1/admin/reconciliation/findings?limit=0', { apiKey: admin });
    expect([bad.status, bad.body.code]).toEqual([400, 'validation_error']);
    const { apiKey } = await service.newTenant();
    expect((await service.call('GET', '/v1/admin/reconciliation/findings', { apiKey })).status).toBe(403);
  });
});
