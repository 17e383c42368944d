/**
 * Refunds from a Solana hot wallet end to end (docs/decisions.md § Refunds; docs/operations.md §
 * Refunds; docs/chains.md § Solana refunds): the real service configured with SOLANA_HOT_WALLET_KEY
 * (the development form) and SOLANA_RPC_URLS, so the composition root builds the Solana sender and
 * starts its refunds worker; a live payment that fails at the provider is refunded from the hot
 * wallet on litesvm to a recipient with no token account yet, and the tokens arrive at its
 * refundAddress once, the refund and the ledger ending confirmed at finality.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { address, generateKeyPairSigner, getAddressDecoder } from '@solana/kit';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { ed25519PublicKey, slip10Derive } from '../../src/adapters/chains/slip10-ed25519';
import { sql } from '../support/chains/bsc-service-fixture';
import { LiteSvmLedger } from '../support/chains/litesvm-ledger';
import { startLiteSvmRpc, type LiteSvmRpc } from '../support/chains/litesvm-rpc-server';
import { LocalSolana } from '../support/chains/local-solana';
import { liveTenant, testRouting } from '../support/live-rails';
import { ScriptedProvider } from '../support/scripted-provider';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';
import { setAsideEarlierRefunds } from '../support/refund-leftovers';
import { solanaTxHash } from '../support/tx-hashes';

jest.setTimeout(90_000);

let rpc: LiteSvmRpc;
let usdc: string;
let service: TestService;
let admin: string;
let slots: NodeJS.Timeout | undefined;
const live = new ScriptedProvider('scripted_live');
const secret = slip10Derive(randomBytes(32), [44, 501, 0, 0]).key;
const keyPair = [...secret, ...ed25519PublicKey(secret)];
let hotWallet: string;

/** The token balance of `owner`'s associated token account for USDC; undefined when it has none. */
function usdcOf(owner: string): bigint | undefined {
  const ata = rpc.ledger.tokenAccountsOf(owner, usdc)[0];
  return ata && new DataView(ata.account.data.buffer, ata.account.data.byteOffset + 64, 8).getBigUint64(0, true);
}

beforeAll(async () => {
  rpc = await startLiteSvmRpc(new LiteSvmLedger({ finalityDepth: 8 }));
  const funder = new LocalSolana(rpc.url, await generateKeyPairSigner());
  await funder.airdrop(10);
  usdc = await funder.createMint(6);
  const usdt = await funder.createMint(6);
  hotWallet = getAddressDecoder().decode(ed25519PublicKey(secret));
  // The hot wallet: 1 SOL for fees and rent, 1,000 USDC to refund from.
  rpc.ledger.svm.airdrop(address(hotWallet), 1_000_000_000n as never);
  await funder.mintTo(usdc, 1_000_000_000n, hotWallet);
  await setAsideEarlierRefunds('SOLANA');
  service = await startTestService({
    SOLANA_RPC_URLS: rpc.url, SOLANA_DEPOSIT_SEED: randomBytes(64).toString('hex'), SOLANA_USDC_MINT: usdc, SOLANA_USDT_MINT: usdt,
    SOLANA_HOT_WALLET_KEY: JSON.stringify(keyPair), CHAIN_WATCH_INTERVAL_MS: '50', CHAIN_WATCH_LEASE_MS: '1000',
    REFUND_INTERVAL_MS: '100', REFUND_LEASE_MS: '2000',
    RECONCILIATION_STUCK_AFTER_SECONDS: '1', RECONCILIATION_RECHECK_SECONDS: '1', RECONCILIATION_POLL_INTERVAL_MS: '50',
  }, { routing: testRouting(new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 }), () => live) });
  admin = await service.newAdminKey();
}, 90_000);
afterAll(async () => {
  if (slots) clearInterval(slots);
  await service?.close();
  await rpc?.close();
});

it('starts one refunds worker for the configured Solana hot wallet', () => {
  expect(service.container.refundWorkers.map((w) => w.worker.name)).toEqual([`refunds-solana-${hotWallet}`]);
});

it('a live payment that fails at the provider is refunded from the hot wallet: the tokens arrive once, refund and ledger end confirmed', async () => {
  const { tenantId, apiKey } = await liveTenant(service, admin);
  const funded = await service.call('POST', `/v1/admin/tenants/${tenantId}/deposits`, {
    apiKey: admin, body: { currency: 'USDC', amount: 1_000, blockchain: 'SOLANA', txHash: solanaTxHash() },
  });
  expect(funded.status).toBe(201);
  const refundAddress = (await generateKeyPairSigner()).address;
  const created = await service.call('POST', '/v1/payments/moneyout', {
    apiKey, body: moneyOutBody({ blockchain: 'SOLANA', sourceCurrency: 'USDC', refundAddress }), headers: { 'idempotency-key': randomUUID() },
  });
  expect(created.status).toBe(201);
  const paymentId: string = created.body.id;
  const amount: string = created.body.amountStablecoin;
  await eventually(async () => ((await service.call('GET', `/v1/payments/${paymentId}`, { apiKey })).body.status === 'provider_accepted' ? true : undefined));
  live.answer(paymentId, { kind: 'failed', reason: 'Recipient wallet closed', code: 'recipient_account_invalid' });

  // A slot every 50 ms; finality trails by 8 slots.
  slots = setInterval(() => rpc.ledger.advance(1), 50);
  const refund = await eventually(async () => {
    const [row] = await sql<{ status: string; tx_hash: string | null }>(service, 'select status, tx_hash from onchain_refunds where payment_id = ?', [paymentId]);
    return row?.status === 'confirmed' ? row : undefined;
  }, 60_000);
  const units = BigInt(amount.replace('.', ''));
  expect(usdcOf(refundAddress)).toBe(units);
  expect(usdcOf(hotWallet)).toBe(1_000_000_000n - units);
  const tx = rpc.ledger.transactions.get(refund.tx_hash!)!;
  expect([tx.meta.err, tx.message.accountKeys[0]]).toEqual([null, hotWallet]);
  const toRecipient = [...rpc.ledger.transactions.values()].filter((t) => t.meta.err === null && t.meta.postTokenBalances.some((b) => b.owner === refundAddress));
  expect(toRecipient.map((t) => t.signature)).toEqual([refund.tx_hash]);
  const attempts = await sql<{ status: string }>(service, 'select a.status from onchain_refund_attempts a join onchain_refunds r on r.id = a.refund_id where r.payment_id = ?', [paymentId]);
  expect(attempts.map((a) => a.status)).toEqual(['landed']);
  const ledger = await sql<{ kind: string; balance: string }>(service,
    `select kind, sum(balance)::text as balance from ledger_accounts where tenant_id = ? and currency = 'USDC' and kind in ('refund_pending', 'refunded') group by kind order by kind`, [tenantId]);
  expect(ledger.map((l) => [l.kind, Number(l.balance)])).toEqual([['refund_pending', 0], ['refunded', Number(amount)]]);
});
