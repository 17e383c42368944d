import { randomBytes, randomUUID } from 'node:crypto';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { FakeRefundChain } from '../support/fake-refund-chain';
import { liveTenant, testRouting } from '../support/live-rails';
import { startReceiver, type Receiver } from '../support/receiver';
import { ScriptedProvider } from '../support/scripted-provider';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';
import { base58Encode } from '../support/tx-hashes';

/**
 * The refunds worker in the service (docs/decisions.md § Refunds; docs/operations.md § Refunds),
 * wired through the container's refund senders with a fake chain behind the RefundSender port:
 * two replicas share one hot wallet and one chain; a failed live payment's refund goes out once,
 * is confirmed with the ledger at finality, and its webhooks reach the tenant's endpoint. An empty
 * wallet holds refunds pending with one finding until it is topped up.
 */
describe('refunds worker in the service', () => {
  const chain = new FakeRefundChain('SOLANA');
  const live = new ScriptedProvider('scripted_live');
  let a: TestService;
  let b: TestService;
  let admin: string;
  let hook: Receiver;
  let mining: NodeJS.Timeout;
  beforeAll(async () => {
    const env = {
      RECONCILIATION_STUCK_AFTER_SECONDS: '1', RECONCILIATION_RECHECK_SECONDS: '1', RECONCILIATION_POLL_INTERVAL_MS: '50',
      REFUND_INTERVAL_MS: '50', REFUND_LEASE_MS: '2000',
    };
    const routing = () => testRouting(new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 }), () => live);
    a = await startTestService(env, { routing: routing(), refundSenders: [chain] });
    // The second replica only sends refunds: its payout and webhook workers stay off.
    b = await startTestService({ ...env, WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' }, { routing: routing(), refundSenders: [chain] });
    admin = await a.newAdminKey();
    hook = await startReceiver();
    // A block every 30 ms; finality two blocks behind the head.
    mining = setInterval(() => chain.mine(), 30);
  });
  afterAll(async () => {
    clearInterval(mining);
    await Promise.all([a?.close(), b?.close(), hook?.close()]);
  });

  const sql = <T>(text: string, params: unknown[] = []) => a.database.orm.em.fork().getConnection().execute(text, params) as Promise<T[]>;
  const account = async (tenantId: string, kind: string) =>
    (await sql<{ balance: string }>(`select coalesce(sum(balance), 0)::text as balance from ledger_accounts where tenant_id = ? and currency = 'USDC' and kind = ?`, [tenantId, kind]))[0]!.balance;
  const refundOf = async (paymentId: string) => (await sql<{ id: string; status: string; tx_hash: string | null }>('select id, status, tx_hash from onchain_refunds where payment_id = ?', [paymentId]))[0];

  /** A live payment taken by the provider, then failed by it; its refund goes to a fresh address. */
  async function failedLivePayment(apiKey: string): Promise<{ id: string; amount: string; refundAddress: string }> {
    const refundAddress = base58Encode(randomBytes(32));
    const created = await a.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody({ refundAddress }), headers: { 'idempotency-key': randomUUID() } });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    await eventually(async () => ((await a.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'provider_accepted' ? true : undefined));
    live.answer(id, { kind: 'failed', reason: 'Recipient wallet closed', code: 'recipient_account_invalid' });
    await eventually(async () => ((await a.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'failed' ? true : undefined));
    return { id, amount: created.body.amountStablecoin, refundAddress };
  }

  it('two replicas, one hot wallet: each failed payment\'s refund arrives once, confirmed with the ledger, and its webhooks are delivered', async () => {
    const { tenantId, apiKey } = await liveTenant(a, admin);
    const registered = await a.call('POST', '/v1/webhooks/register', { apiKey, body: { url: hook.url, events: ['refund.pending', 'refund.confirmed', 'refund.failed'] } });
    expect(registered.status).toBe(201);
    const payments = [await failedLivePayment(apiKey), await failedLivePayment(apiKey)];
    for (const p of payments) {
      await eventually(async () => ((await refundOf(p.id))?.status === 'confirmed' ? true : undefined), 15_000);
    }
    for (const p of payments) {
      const transfers = chain.transfersTo(p.refundAddress);
      expect(transfers).toEqual([expect.objectContaining({ amount: p.amount })]);
      expect((await refundOf(p.id))!.tx_hash).toBe(transfers[0]!.hash);
    }
    expect(Number(await account(tenantId, 'refund_pending'))).toBe(0);
    expect(Number(await account(tenantId, 'refunded'))).toBe(payments.reduce((s, p) => s + Number(p.amount), 0));
    // Exactly one replica sent: one attempt per refund, all from the one wallet.
    const attempts = await sql<{ refund_id: string; status: string }>(
      'select refund_id, status from onchain_refund_attempts where refund_id in (select id from onchain_refunds where payment_id in (?, ?))', payments.map((p) => p.id),
    );
    expect(attempts.map((x) => x.status)).toEqual(['landed', 'landed']);
    expect([a.container.refundWorkers[0]!.isHolding, b.container.refundWorkers[0]!.isHolding].filter(Boolean)).toHaveLength(1);

    const bodies = await eventually(async () => {
      const mine = hook.received.map((r) => JSON.parse(r.body)).filter((e) => payments.some((p) => p.id === e.data.paymentId));
      return mine.length === 4 ? mine : undefined;
    });
    for (const p of payments) {
      const events = bodies.filter((e) => e.data.paymentId === p.id);
      expect(events.map((e) => e.type)).toEqual(['refund.pending', 'refund.confirmed']);
      expect(events[1].data).toEqual({
        id: (await refundOf(p.id))!.id, paymentId: p.id, amount: p.amount, currency: 'USDC', blockchain: 'SOLANA', refundAddress: p.refundAddress,
        status: 'confirmed', txHash: chain.transfersTo(p.refundAddress)[0]!.hash, createdAt: events[0].data.createdAt, sentAt: expect.any(String),
      });
    }
  });

  it('an empty hot wallet: the refund waits pending with one finding (metric), then goes out after a top-up', async () => {
    const { apiKey } = await liveTenant(a, admin);
    chain.short = 'gas';
    const p = await failedLivePayment(apiKey);
    const metricLine = new RegExp(`refund_wallet_short\\{chain="SOLANA",wallet="${chain.wallet}",lacks="gas"\\} 1`);
    await eventually(async () => (metricLine.test((await a.call('GET', '/metrics', { apiKey: admin })).text) ? true : undefined));
    // The other replica reads the same finding from PostgreSQL.
    expect((await b.call('GET', '/metrics', { apiKey: admin })).text).toMatch(metricLine);
    expect((await refundOf(p.id))!.status).toBe('pending');
    expect(chain.transfersTo(p.refundAddress)).toEqual([]);

    chain.short = undefined;
    await eventually(async () => ((await refundOf(p.id))?.status === 'confirmed' ? true : undefined), 15_000);
    expect(chain.transfersTo(p.refundAddress)).toHaveLength(1);
    expect((await a.call('GET', '/metrics', { apiKey: admin })).text).not.toMatch(/refund_wallet_short\{/);
  });

  it('the holder stops: it gives the wallet up and the other replica sends the next refund', async () => {
    const [holder, other] = a.container.refundWorkers[0]!.isHolding ? [a, b] : [b, a];
    await holder.container.refundWorkers[0]!.stop();
    const { apiKey } = await liveTenant(a, admin);
    const p = await failedLivePayment(apiKey);
    await eventually(async () => ((await refundOf(p.id))?.status === 'confirmed' ? true : undefined), 15_000);
    expect(other.container.refundWorkers[0]!.isHolding).toBe(true);
    expect(chain.transfersTo(p.refundAddress)).toHaveLength(1);
  });
});
