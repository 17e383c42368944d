import { randomUUID } from 'node:crypto';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { liveTenant, testRouting } from '../support/live-rails';
import { ScriptedProvider } from '../support/scripted-provider';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';
import { bscTxHash, solanaTxHash } from '../support/tx-hashes';

/**
 * Refunds of live payments (docs/decisions.md § Ledger): a failure or reversal after acceptance
 * for a live tenant makes a pending onchain refund and holds the amount in `refund_pending` until
 * an operator records the transaction; sandbox tenants keep returning to `refunded` at once.
 */
describe('onchain refunds of live payments', () => {
  let service: TestService;
  let admin: string;
  const live = new ScriptedProvider('scripted_live');
  beforeAll(async () => {
    // Results reach the payments through the reconciliation worker, asked every second.
    const sandbox = new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 });
    service = await startTestService({
      RECONCILIATION_STUCK_AFTER_SECONDS: '1', RECONCILIATION_RECHECK_SECONDS: '1', RECONCILIATION_POLL_INTERVAL_MS: '50',
    }, { routing: testRouting(sandbox, () => live) });
    admin = await service.newAdminKey();
  });
  afterAll(() => service.close());

  const sql = <T>(text: string, params: unknown[] = []) => service.database.orm.em.fork().getConnection().execute(text, params) as Promise<T[]>;
  const account = async (tenantId: string, kind: string) =>
    (await sql<{ balance: string }>(`select sum(balance)::text as balance from ledger_accounts where tenant_id = ? and currency = 'USDC' and kind = ?`, [tenantId, kind]))[0]!.balance;
  const kinds = async (apiKey: string, id: string) =>
    ((await service.call('GET', '/v1/balances/transactions', { apiKey })).body as { kind: string; paymentId: string | null; to: string }[])
      .filter((t) => t.paymentId === id).map((t) => `${t.kind}>${t.to}`).sort();
  const pending = async () => (await service.call('GET', '/v1/admin/refunds?status=pending&limit=500', { apiKey: admin })).body as { refundId: string; paymentId: string }[];
  const adminCall = (method: string, path: string, body?: unknown) => service.call(method, path, { apiKey: admin, body });

  /** A live payment taken by the provider, then given `outcome` by it; resolves with the payment once it moved. */
  async function endedLivePayment(apiKey: string, outcome: 'failed' | 'refunded', status: string) {
    const created = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    await eventually(async () => ((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'provider_accepted' ? true : undefined));
    live.answer(id, { kind: outcome, reason: `Recipient wallet ${outcome}`, code: outcome === 'failed' ? 'recipient_account_invalid' : 'reversed' });
    return eventually(async () => {
      const payment = (await service.call('GET', `/v1/payments/${id}`, { apiKey })).body;
      return payment.status === status ? payment : undefined;
    });
  }

  it('a failure after acceptance holds the amount in refund_pending until the transaction is recorded', async () => {
    const { tenantId, apiKey } = await liveTenant(service, admin);
    const payment = await endedLivePayment(apiKey, 'failed', 'failed');
    const amount: string = payment.amountStablecoin;
    expect(await kinds(apiKey, payment.id)).toEqual(['hold>held', 'return>refund_pending', 'send>in_transit']);
    expect(Number(await account(tenantId, 'refund_pending'))).toBe(Number(amount));
    expect(Number(await account(tenantId, 'refunded'))).toBe(0);
    const balance = (await service.call('GET', '/v1/balances', { apiKey })).body.find((b: { currency: string }) => b.currency === 'USDC');
    expect(balance).toMatchObject({ inTransit: '0.000000', held: '0.000000' });
    // The issuer's webhook event says what happened.
    expect((await sql<{ type: string }>('select type from outbox_events where entity_id = ? order by created_at', [payment.id])).map((e) => e.type))
      .toEqual(['payment.initiated', 'payment.processing', 'payment.failed']);

    const refund = (await pending()).find((r) => r.paymentId === payment.id);
    expect(refund).toEqual({
      refundId: expect.stringMatching(/^rfd_[0-9A-Z]{26}$/), paymentId: payment.id, tenantId, amount, currency: 'USDC', blockchain: 'SOLANA',
      refundAddress: moneyOutBody().refundAddress, status: 'pending', txHash: null, createdAt: expect.any(String), sentAt: null, failureReason: null,
    });
    expect((await service.call('GET', '/metrics', { apiKey: admin })).text).toMatch(/onchain_refunds_pending\{currency="USDC"\} [1-9]/);

    const refundId = refund!.refundId;
    // A BSC hash on a SOLANA refund, a stray space, an unknown refund: refused, nothing moves.
    for (const [txHash, status] of [[bscTxHash(), 400], [` ${solanaTxHash()}`, 400]] as const) {
      const res = await adminCall('POST', `/v1/admin/refunds/${refundId}/sent`, { txHash });
      expect([res.status, res.body.code]).toEqual([status, 'validation_error']);
    }
    expect((await adminCall('POST', '/v1/admin/refunds/rfd_01ZZZZZZZZZZZZZZZZZZZZZZZZ/sent', { txHash: solanaTxHash() })).status).toBe(404);
    expect((await adminCall('POST', `/v1/admin/refunds/${refundId}/sent`, {})).status).toBe(400);
    expect(Number(await account(tenantId, 'refund_pending'))).toBe(Number(amount));

    const txHash = solanaTxHash();
    const sent = await adminCall('POST', `/v1/admin/refunds/${refundId}/sent`, { txHash });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ refundId, status: 'sent', txHash, sentAt: expect.any(String) });
    expect(Number(await account(tenantId, 'refund_pending'))).toBe(0);
    expect(Number(await account(tenantId, 'refunded'))).toBe(Number(amount));
    expect(await kinds(apiKey, payment.id)).toEqual(['hold>held', 'refund_sent>refunded', 'return>refund_pending', 'send>in_transit']);
    expect((await pending()).map((r) => r.refundId)).not.toContain(refundId);
    // The same hash again is the same answer; another hash is refused; the ledger moved once.
    expect(await adminCall('POST', `/v1/admin/refunds/${refundId}/sent`, { txHash })).toMatchObject({ status: 200, body: sent.body });
    const other = await adminCall('POST', `/v1/admin/refunds/${refundId}/sent`, { txHash: solanaTxHash() });
    expect([other.status, other.body.code]).toEqual([409, 'invalid_state']);
    expect(Number(await account(tenantId, 'refunded'))).toBe(Number(amount));
    const all = (await adminCall('GET', '/v1/admin/refunds?limit=500')).body as { refundId: string; status: string }[];
    expect(all.find((r) => r.refundId === refundId)?.status).toBe('sent');
  });

  it('a reversal after acceptance makes a refund too; two operators recording at once move the ledger once', async () => {
    const { tenantId, apiKey } = await liveTenant(service, admin);
    const payment = await endedLivePayment(apiKey, 'refunded', 'refunded');
    expect(await kinds(apiKey, payment.id)).toEqual(['hold>held', 'return>refund_pending', 'send>in_transit']);
    const refundId = (await pending()).find((r) => r.paymentId === payment.id)!.refundId;
    const answers = await Promise.all([solanaTxHash(), solanaTxHash()].map((txHash) => adminCall('POST', `/v1/admin/refunds/${refundId}/sent`, { txHash })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(Number(await account(tenantId, 'refunded'))).toBe(Number(payment.amountStablecoin));
    expect(Number(await account(tenantId, 'refund_pending'))).toBe(0);
  });

  it('refuses the hash of a recorded inbound deposit with 409 tx_hash_is_deposit, moving nothing; the transaction that sent it is then recorded', async () => {
    const { tenantId, apiKey } = await liveTenant(service, admin);
    const payment = await endedLivePayment(apiKey, 'failed', 'failed');
    const refundId = (await pending()).find((r) => r.paymentId === payment.id)!.refundId;
    // The inbound deposit is another tenant's: the hash names one onchain transaction, whoever it credited.
    const other = await service.newTenant();
    const inbound = solanaTxHash();
    expect((await adminCall('POST', `/v1/admin/tenants/${other.tenantId}/deposits`, { currency: 'USDC', amount: '3', blockchain: 'SOLANA', txHash: inbound })).status).toBe(201);

    const refused = await adminCall('POST', `/v1/admin/refunds/${refundId}/sent`, { txHash: inbound });
    expect([refused.status, refused.body]).toEqual([409, {
      statusCode: 409, code: 'tx_hash_is_deposit', message: `Transaction ${inbound} on SOLANA is a recorded deposit, not a refund sent`, details: { requestId: expect.any(String) },
    }]);
    expect((await pending()).map((r) => r.refundId)).toContain(refundId);
    expect(Number(await account(tenantId, 'refund_pending'))).toBe(Number(payment.amountStablecoin));
    expect(Number(await account(tenantId, 'refunded'))).toBe(0);
    expect(await kinds(apiKey, payment.id)).toEqual(['hold>held', 'return>refund_pending', 'send>in_transit']);

    const outbound = solanaTxHash();
    const sent = await adminCall('POST', `/v1/admin/refunds/${refundId}/sent`, { txHash: outbound });
    expect([sent.status, sent.body.status, sent.body.txHash]).toEqual([200, 'sent', outbound]);
    expect(Number(await account(tenantId, 'refunded'))).toBe(Number(payment.amountStablecoin));
  });

  it('sandbox tenants keep returning failed payouts to refunded at once, with no refund record', async () => {
    const { tenantId, apiKey } = await service.newTenant();
    const created = await service.call('POST', '/v1/payments/moneyout', {
      apiKey, body: moneyOutBody({ accountNumber: '254712341111' }), headers: { 'idempotency-key': randomUUID() },
    });
    const id: string = created.body.id;
    await eventually(async () => ((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'failed' ? true : undefined));
    expect(await kinds(apiKey, id)).toEqual(['hold>held', 'return>refunded', 'send>in_transit']);
    expect(Number(await account(tenantId, 'refund_pending'))).toBe(0);
    expect((await sql('select id from onchain_refunds where payment_id = ?', [id]))).toEqual([]);
  });

  it('refuses a bad list query with 400 and issuer keys with 403', async () => {
    expect((await adminCall('GET', '/v1/admin/refunds?status=lost')).status).toBe(400);
    const { apiKey } = await service.newTenant();
    expect((await service.call('GET', '/v1/admin/refunds', { apiKey })).status).toBe(403);
    expect((await service.call('POST', '/v1/admin/refunds/rfd_x/sent', { apiKey, body: { txHash: solanaTxHash() } })).status).toBe(403);
  });
});
