import { randomUUID } from 'node:crypto';
import { createWalletClient, erc20Abi, http, type Address, type Hex } from 'viem';
import { bscChainReaderFromConfig } from '../../src/adapters/chains/bsc/bsc-chain';
import { parseBscConfig } from '../../src/adapters/chains/bsc/bsc-config';
import { ChainRpcMetrics } from '../../src/adapters/chains/rpc-endpoint-metrics';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { Registry } from 'prom-client';
import { forgetBscCursor, ONE, startBscServiceFixture, type BscServiceFixture } from '../support/chains/bsc-service-fixture';
import { liveTenant, testRouting } from '../support/live-rails';
import { ScriptedProvider } from '../support/scripted-provider';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

/**
 * A hand-sent refund's transaction is checked onchain before it is recorded (docs/decisions.md
 * § Refunds: reads and operators), on a real local BSC (anvil as chain 56): the BSC reader's
 * transaction lookup, and POST /v1/admin/refunds/{refundId}/sent refusing what is not final or
 * does not pay the refund, moving nothing, then recording the transaction that does.
 */
let f: BscServiceFixture;
let service: TestService;
let admin: string;
const live = new ScriptedProvider('scripted_live');

beforeAll(async () => {
  f = await startBscServiceFixture();
  const sandbox = new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 });
  service = await startTestService({
    ...f.env(), RECONCILIATION_STUCK_AFTER_SECONDS: '1', RECONCILIATION_RECHECK_SECONDS: '1', RECONCILIATION_POLL_INTERVAL_MS: '50',
  }, { routing: testRouting(sandbox, () => live) });
  await forgetBscCursor(service);
  admin = await service.newAdminKey();
}, 60_000);
afterAll(async () => {
  await service?.close();
  await f?.stop();
});

const reader = () => bscChainReaderFromConfig(parseBscConfig(f.env()), new ChainRpcMetrics(new Registry()))!;
const markSent = (refundId: string, txHash: string) => service.call('POST', `/v1/admin/refunds/${refundId}/sent`, { apiKey: admin, body: { txHash } });
/** Sends `whole` USDC (18 decimals) from the fixture's funded sender to `to` and mines past finality (finalized = head − 2). */
async function pay(to: Address, whole: bigint, units = 0n): Promise<Hex> {
  const mined = await f.bsc.transfer(f.usdc, f.senderIndex, to, whole * ONE + units);
  return mined.hash;
}

/** A live payment refunded to a fresh anvil account on BSC: its refund id, amount and address. */
async function pendingRefund(apiKey: string, refundAddress: Address) {
  const created = await service.call('POST', '/v1/payments/moneyout', {
    apiKey, body: moneyOutBody({ blockchain: 'BSC', refundAddress }), headers: { 'idempotency-key': randomUUID() },
  });
  expect(created.status).toBe(201);
  const id: string = created.body.id;
  await eventually(async () => ((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'provider_accepted' ? true : undefined));
  live.answer(id, { kind: 'failed', reason: 'Recipient wallet closed', code: 'recipient_account_invalid' });
  const refund = await eventually(async () => {
    const all = (await service.call('GET', '/v1/admin/refunds?status=pending&limit=500', { apiKey: admin })).body as { refundId: string; paymentId: string; amount: string }[];
    return all.find((r) => r.paymentId === id);
  });
  return refund;
}

describe('BSC reader: one transaction', () => {
  it('answers a transaction with its USDC transfers to the address asked about only, at its block', async () => {
    const to = f.bsc.account(11).address;
    const stranger = f.bsc.account(12).address;
    const mined = await f.bsc.transferBatch(f.usdc, f.senderIndex, [{ to, units: 2n * ONE }, { to: stranger, units: 5n }, { to, units: 3n }]);
    const seen = await reader().transfersIn(mined.hash, to);
    expect(seen).toEqual({
      status: 'landed', height: mined.blockNumber,
      transfers: [
        expect.objectContaining({ txHash: mined.hash, token: f.usdc, to: to.toLowerCase(), units: 2n * ONE, decimals: 18, height: mined.blockNumber }),
        expect.objectContaining({ txHash: mined.hash, token: f.usdc, to: to.toLowerCase(), units: 3n, decimals: 18 }),
      ],
    });
  });

  it('answers not_found for a hash the chain never saw', async () => {
    expect(await reader().transfersIn(`0x${'ef'.repeat(32)}`, f.bsc.account(11).address)).toEqual({ status: 'not_found' });
  });

  it('answers failed for a transaction that reverted (a transfer from an account holding no tokens)', async () => {
    // Anvil funds accounts 0 to 9 with BNB; account 6 holds no token here.
    const empty = f.bsc.account(6);
    const wallet = createWalletClient({ account: empty, chain: f.bsc.chain, transport: http(f.bsc.url) });
    // An explicit gas limit: estimation would refuse a transfer that reverts, and nothing would be sent.
    const hash = await wallet.writeContract({ address: f.usdc, abi: erc20Abi, functionName: 'transfer', args: [f.bsc.account(11).address, ONE], gas: 100_000n });
    const receipt = await eventually(async () => f.bsc.publicClient.getTransactionReceipt({ hash }).catch(() => undefined));
    expect(receipt.status).toBe('reverted');
    expect(await reader().transfersIn(hash.toLowerCase(), f.bsc.account(11).address)).toEqual({ status: 'failed', height: receipt.blockNumber });
  });
});

describe('recording a hand-sent refund on BSC', () => {
  it('refuses a transaction not found or not final (409 tx_not_final) and one that pays too little (422), then records the one that pays', async () => {
    const { tenantId, apiKey } = await liveTenant(service, admin);
    const address = f.bsc.account(14).address;
    const refund = await pendingRefund(apiKey, address);
    const owed = BigInt(refund.amount.split('.')[0]!);

    const unknown = await markSent(refund.refundId, `0x${'ef'.repeat(32)}`);
    expect([unknown.status, unknown.body.code]).toEqual([409, 'tx_not_final']);

    const short = await pay(address, owed - 1n);
    await f.bsc.mine(3);
    const refused = await markSent(refund.refundId, short);
    expect([refused.status, refused.body.code]).toEqual([422, 'tx_does_not_pay_refund']);
    expect(refused.body.message).toContain('less than');

    // Anvil mines each transaction in a block of its own: the next one is final two blocks later.
    const enough = await pay(address, owed, 10n ** 18n - 1n);
    const early = await markSent(refund.refundId, enough);
    expect([early.status, early.body.code]).toEqual([409, 'tx_not_final']);
    const pendingStill = (await service.call('GET', '/v1/admin/refunds?status=pending&limit=500', { apiKey: admin })).body as { refundId: string }[];
    expect(pendingStill.map((r) => r.refundId)).toContain(refund.refundId);

    await f.bsc.mine(3);
    const sent = await markSent(refund.refundId, enough);
    expect([sent.status, sent.body.status, sent.body.txHash]).toEqual([200, 'sent', enough]);
    const rows = await service.database.orm.em.fork().getConnection().execute<{ kind: string }[]>(
      `select kind from ledger_accounts where tenant_id = ? and currency = 'USDC' and kind = 'refunded' and balance = ?`, [tenantId, refund.amount],
    );
    expect(rows).toHaveLength(1);
  });

  it('never counts one transfer for two refunds to the same address', async () => {
    const { apiKey } = await liveTenant(service, admin);
    const address = f.bsc.account(15).address;
    const first = await pendingRefund(apiKey, address);
    const second = await pendingRefund(apiKey, address);
    const owed = BigInt(first.amount.split('.')[0]!) + 1n;
    const hash = await pay(address, owed);
    await f.bsc.mine(3);
    expect((await markSent(first.refundId, hash)).status).toBe(200);
    const again = await markSent(second.refundId, hash);
    expect([again.status, again.body.code]).toEqual([422, 'tx_does_not_pay_refund']);
    expect(again.body.message).toContain('1 other refund');
  });
});
