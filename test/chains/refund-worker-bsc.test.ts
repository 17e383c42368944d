/**
 * Refunds from a BSC hot wallet end to end (docs/decisions.md § Refunds; docs/operations.md §
 * Refunds): the real service configured with BSC_HOT_WALLET_KEY (the development form) and
 * BSC_RPC_URLS, so the composition root builds the BSC sender and starts its refunds worker; a live
 * payment that fails at the provider is refunded from the hot wallet on anvil, and the tokens
 * arrive at its refundAddress once, the refund and the ledger ending confirmed at finality.
 * Without a hot wallet the same service starts no refunds worker.
 */
import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { jsonRpc } from '../support/chains/anvil';
import { ONE, sql, startBscServiceFixture, type BscServiceFixture } from '../support/chains/bsc-service-fixture';
import { liveTenant, testRouting } from '../support/live-rails';
import { ScriptedProvider } from '../support/scripted-provider';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';
import { setAsideEarlierRefunds } from '../support/refund-leftovers';
import { bscTxHash } from '../support/tx-hashes';

jest.setTimeout(90_000);

let f: BscServiceFixture;
let service: TestService;
let admin: string;
let mining: NodeJS.Timeout | undefined;
const live = new ScriptedProvider('scripted_live');
const key = generatePrivateKey();
const hotWallet = privateKeyToAccount(key).address;
beforeAll(async () => {
  f = await startBscServiceFixture();
  // The hot wallet: 1 BNB for gas, 1,000 USDT to refund from.
  await jsonRpc(f.bsc.url, 'anvil_setBalance', [hotWallet, `0x${ONE.toString(16)}`]);
  await f.bsc.mint(f.usdt, hotWallet, 1_000n * ONE);
  await setAsideEarlierRefunds('BSC');
  service = await startTestService({
    ...f.env(), BSC_HOT_WALLET_KEY: key, REFUND_INTERVAL_MS: '100', REFUND_LEASE_MS: '2000',
    RECONCILIATION_STUCK_AFTER_SECONDS: '1', RECONCILIATION_RECHECK_SECONDS: '1', RECONCILIATION_POLL_INTERVAL_MS: '50',
  }, { routing: testRouting(new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 }), () => live) });
  admin = await service.newAdminKey();
}, 90_000);
afterAll(async () => {
  if (mining) clearInterval(mining);
  await service?.close();
  await f?.stop();
});

it('starts one refunds worker for the configured hot wallet, and none without one', async () => {
  expect(service.container.refundWorkers.map((w) => w.worker.name)).toEqual([`refunds-bsc-${hotWallet.toLowerCase()}`]);
  const plain = await startTestService(f.env());
  try {
    expect(plain.container.refundWorkers).toEqual([]);
  } finally {
    await plain.close();
  }
});

it('a live payment that fails at the provider is refunded from the hot wallet: the tokens arrive once, refund and ledger end confirmed', async () => {
  const { tenantId, apiKey } = await liveTenant(service, admin);
  const funded = await service.call('POST', `/v1/admin/tenants/${tenantId}/deposits`, {
    apiKey: admin, body: { currency: 'USDT', amount: 1_000, blockchain: 'BSC', txHash: bscTxHash() },
  });
  expect(funded.status).toBe(201);
  const refundAddress = privateKeyToAccount(generatePrivateKey()).address as Address;
  const created = await service.call('POST', '/v1/payments/moneyout', {
    apiKey, body: moneyOutBody({ blockchain: 'BSC', sourceCurrency: 'USDT', refundAddress }), headers: { 'idempotency-key': randomUUID() },
  });
  expect(created.status).toBe(201);
  const paymentId: string = created.body.id;
  const amount: string = created.body.amountStablecoin;
  await eventually(async () => ((await service.call('GET', `/v1/payments/${paymentId}`, { apiKey })).body.status === 'provider_accepted' ? true : undefined));
  live.answer(paymentId, { kind: 'failed', reason: 'Recipient wallet closed', code: 'recipient_account_invalid' });

  // anvil mines a block per transaction; finality (head − 2) moves as the test mines.
  mining = setInterval(() => void f.bsc.mine().catch(() => undefined), 250);
  const refund = await eventually(async () => {
    const [row] = await sql<{ status: string; tx_hash: string | null }>(service, 'select status, tx_hash from onchain_refunds where payment_id = ?', [paymentId]);
    return row?.status === 'confirmed' ? row : undefined;
  }, 60_000);
  const units = BigInt(amount.replace('.', '')) * 10n ** 12n;
  expect(await f.bsc.balanceOf(f.usdt, refundAddress)).toBe(units);
  expect(await f.bsc.balanceOf(f.usdt, hotWallet)).toBe(1_000n * ONE - units);
  const receipt = await f.bsc.publicClient.getTransactionReceipt({ hash: refund.tx_hash as `0x${string}` });
  expect([receipt.status, receipt.from.toLowerCase()]).toEqual(['success', hotWallet.toLowerCase()]);
  const attempts = await sql<{ status: string }>(service, 'select a.status from onchain_refund_attempts a join onchain_refunds r on r.id = a.refund_id where r.payment_id = ?', [paymentId]);
  expect(attempts.map((a) => a.status)).toEqual(['landed']);
  const ledger = await sql<{ kind: string; balance: string }>(service,
    `select kind, sum(balance)::text as balance from ledger_accounts where tenant_id = ? and currency = 'USDT' and kind in ('refund_pending', 'refunded') group by kind order by kind`, [tenantId]);
  expect(ledger.map((l) => [l.kind, Number(l.balance)])).toEqual([['refund_pending', 0], ['refunded', Number(amount)]]);
});
