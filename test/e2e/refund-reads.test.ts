import { randomUUID } from 'node:crypto';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { createPayoutClient, type Refund } from '@payout-gateway/sdk';
import { TenantRefundRepository } from '../../src/adapters/persistence/tenant-refund.repository';
import { gql } from '../support/graphql-client';
import { liveTenant, testRouting } from '../support/live-rails';
import { ScriptedProvider } from '../support/scripted-provider';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';
import { solanaTxHash } from '../support/tx-hashes';

const REFUND_FIELDS = 'id paymentId amount currency blockchain refundAddress status txHash createdAt sentAt';
const PAYMENT = `query($id: ID!) { node(id: $id) { ... on Payment { id status refund { ${REFUND_FIELDS} } } } }`;
const PAYMENTS = `query { payments(first: 100) { nodes { id refund { ${REFUND_FIELDS} } } } }`;

/**
 * Refunds as their issuer sees them (docs/decisions.md § Refunds; docs/api.md § Refunds): GET
 * /v1/refunds, the payment's `refund` in REST and GraphQL; and the operators' queue: every status
 * listed, a failed refund retried, each move kept with who made it.
 */
describe('refunds seen by issuers and operators', () => {
  let service: TestService;
  let admin: string;
  let adminKeyId: string;
  const live = new ScriptedProvider('scripted_live');
  beforeAll(async () => {
    const sandbox = new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 });
    service = await startTestService({
      RECONCILIATION_STUCK_AFTER_SECONDS: '1', RECONCILIATION_RECHECK_SECONDS: '1', RECONCILIATION_POLL_INTERVAL_MS: '50',
    }, { routing: testRouting(sandbox, () => live) });
    // An operator's own admin key, so its id is known: the audit record names it.
    const issued = (await service.call('POST', '/v1/admin/api-keys', { apiKey: await service.newAdminKey(), body: { label: 'refund operator' } })).body;
    admin = issued.apiKey;
    adminKeyId = issued.keyId;
  });
  afterAll(() => service.close());

  const sql = <T>(text: string, params: unknown[] = []) => service.database.orm.em.fork().getConnection().execute(text, params) as Promise<T[]>;
  const adminCall = (method: string, path: string, body?: unknown) => service.call(method, path, { apiKey: admin, body });

  /** A live payment of the tenant taken by the provider and then failed by it; resolves with its id once failed. */
  async function failedLivePayment(apiKey: string): Promise<string> {
    const created = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody({ reference: `ref-${randomUUID()}` }), headers: { 'idempotency-key': randomUUID() } });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    await eventually(async () => ((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'provider_accepted' ? true : undefined));
    live.answer(id, { kind: 'failed', reason: 'Recipient wallet closed', code: 'recipient_account_invalid' });
    await eventually(async () => ((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'failed' ? true : undefined));
    return id;
  }
  const refundIdOf = async (paymentId: string) => (await sql<{ id: string }>('select id from onchain_refunds where payment_id = ?', [paymentId]))[0]!.id;

  it('an issuer reads its refunds on the payment (REST, GraphQL) and in GET /v1/refunds; another tenant sees none of them', async () => {
    const { tenantId, apiKey } = await liveTenant(service, admin);
    const first = await failedLivePayment(apiKey);
    const second = await failedLivePayment(apiKey);
    const refundId = await refundIdOf(first);
    const payment = (await service.call('GET', `/v1/payments/${first}`, { apiKey })).body;
    const expected = {
      id: refundId, paymentId: first, amount: payment.amountStablecoin, currency: 'USDC', blockchain: 'SOLANA', refundAddress: moneyOutBody().refundAddress,
      status: 'pending', txHash: null, createdAt: expect.stringMatching(/Z$/), sentAt: null,
    };
    expect(payment.refund).toEqual(expected);

    // A payment with no refund says null; the list carries each payment's own.
    const settled = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody({ reference: `ref-${randomUUID()}` }), headers: { 'idempotency-key': randomUUID() } });
    expect((await service.call('GET', `/v1/payments/${settled.body.id}`, { apiKey })).body.refund).toBeNull();
    const listed = (await service.call('GET', '/v1/payments?limit=100', { apiKey })).body as { id: string; refund: { id: string } | null }[];
    expect(Object.fromEntries(listed.map((p) => [p.id, p.refund?.id ?? null]))).toEqual({
      [first]: refundId, [second]: await refundIdOf(second), [settled.body.id]: null,
    });

    const refunds = await service.call('GET', '/v1/refunds', { apiKey });
    expect(refunds.status).toBe(200);
    expect(refunds.body.map((r: { paymentId: string }) => r.paymentId)).toEqual([second, first]);
    expect(refunds.body[1]).toEqual(expected);

    // GraphQL: the same object on the payment, read and listed.
    const read = await gql(service.baseUrl, PAYMENT, { id: first }, apiKey);
    expect(read.body).toEqual({ data: { node: { id: first, status: 'FAILED', refund: { ...expected, status: 'PENDING' } } } });
    const page = await gql(service.baseUrl, PAYMENTS, {}, apiKey);
    expect(page.body.data.payments.nodes.map((p: { id: string; refund: { id: string } | null }) => [p.id, p.refund?.id ?? null]))
      .toEqual([[settled.body.id, null], [second, await refundIdOf(second)], [first, refundId]]);

    // Another tenant: an empty list, and the payment is not found at all.
    const other = await liveTenant(service, admin);
    expect((await service.call('GET', '/v1/refunds', { apiKey: other.apiKey })).body).toEqual([]);
    expect((await service.call('GET', `/v1/payments/${first}`, { apiKey: other.apiKey })).status).toBe(404);
    expect(tenantId).not.toBe(other.tenantId);
  });

  it('GET /v1/refunds pages by Link and filters by status; bad queries are 400 validation_error', async () => {
    const { apiKey } = await liveTenant(service, admin);
    const ids = [await failedLivePayment(apiKey), await failedLivePayment(apiKey), await failedLivePayment(apiKey)];
    const sentId = await refundIdOf(ids[0]!);
    expect((await adminCall('POST', `/v1/admin/refunds/${sentId}/sent`, { txHash: solanaTxHash() })).status).toBe(200);

    const seen: string[] = [];
    let path: string | undefined = '/v1/refunds?limit=1';
    while (path) {
      const res = await service.call('GET', path, { apiKey });
      expect(res.status).toBe(200);
      seen.push(...res.body.map((r: { paymentId: string }) => r.paymentId));
      path = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
    }
    expect(seen).toEqual([...ids].reverse());
    // The SDK follows the same pages, typed.
    const client = createPayoutClient({ baseUrl: service.baseUrl, apiKey, retry: { maxAttempts: 1 } });
    const viaSdk: Refund[] = [];
    for await (const refund of client.items('/v1/refunds', { params: { query: { limit: 1 } } })) viaSdk.push(refund);
    expect(viaSdk.map((r) => r.paymentId)).toEqual([...ids].reverse());

    const pending = (await service.call('GET', '/v1/refunds?status=pending', { apiKey })).body as { paymentId: string; status: string }[];
    expect(pending.map((r) => r.paymentId)).toEqual([ids[2], ids[1]]);
    const both = (await service.call('GET', '/v1/refunds?status=pending,sent', { apiKey })).body as { status: string }[];
    expect(both.map((r) => r.status)).toEqual(['pending', 'pending', 'sent']);
    expect((await service.call('GET', '/v1/refunds?status=failed', { apiKey })).body).toEqual([]);

    for (const query of ['status=lost', 'limit=0', 'limit=101', 'cursor=nope']) {
      const res = await service.call('GET', `/v1/refunds?${query}`, { apiKey });
      expect([query, res.status, res.body.code]).toEqual([query, 400, 'validation_error']);
    }
    expect((await service.call('GET', '/v1/refunds', {})).status).toBe(401);
  });

  it('operators list every status, retry a failed refund (kept with the admin key), and are refused 409 on any other', async () => {
    const { tenantId, apiKey } = await liveTenant(service, admin);
    const paymentId = await failedLivePayment(apiKey);
    const refundId = await refundIdOf(paymentId);
    for (const status of ['pending', 'broadcast', 'confirmed', 'failed', 'sent']) {
      expect([status, (await adminCall('GET', `/v1/admin/refunds?status=${status}&limit=500`)).status]).toEqual([status, 200]);
    }

    const notFailed = await adminCall('POST', `/v1/admin/refunds/${refundId}/retry`);
    expect([notFailed.status, notFailed.body]).toEqual([409, {
      statusCode: 409, code: 'invalid_state', message: `Refund ${refundId} is pending: only a failed refund can be retried`, details: { requestId: expect.any(String) },
    }]);
    expect((await adminCall('POST', '/v1/admin/refunds/rfd_01ZZZZZZZZZZZZZZZZZZZZZZZZ/retry')).status).toBe(404);
    expect((await service.call('POST', `/v1/admin/refunds/${refundId}/retry`, { apiKey })).status).toBe(403);

    // The hot wallet gave up on it (what the refunds worker writes when a transaction reverted).
    await sql(`update onchain_refunds set status = 'failed' where id = ?`, [refundId]);
    const queue = (await adminCall('GET', '/v1/admin/refunds?status=failed&limit=500')).body as { refundId: string }[];
    expect(queue.map((r) => r.refundId)).toContain(refundId);
    expect((await service.call('GET', `/v1/payments/${paymentId}`, { apiKey })).body.refund.status).toBe('failed');

    const balanceBefore = await sql<{ kind: string; balance: string }>('select kind, balance::text from ledger_accounts where tenant_id = ? order by kind', [tenantId]);
    const retried = await adminCall('POST', `/v1/admin/refunds/${refundId}/retry`);
    expect([retried.status, retried.body]).toEqual([200, expect.objectContaining({ refundId, paymentId, status: 'pending', txHash: null, sentAt: null })]);
    expect((await adminCall('POST', `/v1/admin/refunds/${refundId}/retry`)).status).toBe(409);
    expect(await sql('select kind, balance::text from ledger_accounts where tenant_id = ? order by kind', [tenantId])).toEqual(balanceBefore);

    const txHash = solanaTxHash();
    expect((await adminCall('POST', `/v1/admin/refunds/${refundId}/sent`, { txHash })).status).toBe(200);
    expect(await sql('select action, actor, from_status, to_status, tx_hash from onchain_refund_actions where refund_id = ? order by id', [refundId])).toEqual([
      { action: 'retry', actor: adminKeyId, from_status: 'failed', to_status: 'pending', tx_hash: null },
      { action: 'record_sent', actor: adminKeyId, from_status: 'pending', to_status: 'sent', tx_hash: txHash },
    ]);
  });

  it('a page of payments reads its refunds in one query, over REST and GraphQL (no query per payment), and none when no payment on it can owe one', async () => {
    const { apiKey } = await liveTenant(service, admin);
    const ids = [await failedLivePayment(apiKey), await failedLivePayment(apiKey)];
    for (let i = 0; i < 3; i++) {
      await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody({ reference: `ref-${randomUUID()}` }), headers: { 'idempotency-key': randomUUID() } });
    }
    const reads = jest.spyOn(TenantRefundRepository.prototype, 'forPayments');
    try {
      const rest = (await service.call('GET', '/v1/payments?limit=100', { apiKey })).body as { id: string; refund: unknown }[];
      expect(rest).toHaveLength(5);
      // One read, and only of the payments that ended failed or refunded: the others cannot owe a refund.
      expect(reads).toHaveBeenCalledTimes(1);
      expect([...reads.mock.calls[0]![1]].sort()).toEqual([...ids].sort());
      reads.mockClear();
      const page = await gql(service.baseUrl, PAYMENTS, {}, apiKey);
      expect(page.body.data.payments.nodes.filter((p: { refund: unknown }) => p.refund !== null).map((p: { id: string }) => p.id).sort()).toEqual([...ids].sort());
      expect(reads).toHaveBeenCalledTimes(1);
      expect([...reads.mock.calls[0]![1]].sort()).toEqual([...ids].sort());
      reads.mockClear();
      // A page with no failed or refunded payment reads no refund at all.
      const inFlight = (await service.call('GET', '/v1/payments?status=initiated,provider_accepted,succeeded', { apiKey })).body as { refund: unknown }[];
      expect(inFlight.length).toBe(3);
      expect(inFlight.every((p) => p.refund === null)).toBe(true);
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
  });
});
