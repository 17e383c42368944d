/**
 * A Paystack reversal after acceptance is refunded onchain the same way as a failure (docs/decisions.md
 * § Refunds): the real service pays a live tenant's Nigerian bank payout through the Paystack
 * simulator over HTTP, the simulator reverses the transfer ("could not be completed; amount
 * returned": account digits 90), the payment ends `refunded`, and the refund goes out from the BSC
 * hot wallet on anvil: the tokens reach its refundAddress once, the refund ends confirmed, and the
 * ledger moves refund_pending → refunded, with `refund.pending` and `refund.confirmed` written.
 */
import { parseAbiItem, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startPaystackSimulator, type PaystackSimulator } from '../../simulators/paystack/paystack-simulator';
import { jsonRpc } from '../support/chains/anvil';
import { ONE, sql, startBscServiceFixture, type BscServiceFixture } from '../support/chains/bsc-service-fixture';
import { liveTenant, moneyOut, ngBankBody } from '../support/live-tenant';
import { ledgerKinds, settled } from '../support/provider-e2e';
import { eventually, startTestService, type TestService } from '../support/test-service';
import { setAsideEarlierRefunds } from '../support/refund-leftovers';

jest.setTimeout(90_000);

let f: BscServiceFixture;
let sim: PaystackSimulator;
let service: TestService;
let admin: string;
let mining: NodeJS.Timeout | undefined;
const key = generatePrivateKey();
const hotWallet = privateKeyToAccount(key).address;
beforeAll(async () => {
  f = await startBscServiceFixture();
  // 1 BNB for gas and 1,000 of each token; earlier files' pending refunds are set aside below.
  await jsonRpc(f.bsc.url, 'anvil_setBalance', [hotWallet, `0x${ONE.toString(16)}`]);
  await f.bsc.mint(f.usdc, hotWallet, 1_000n * ONE);
  await f.bsc.mint(f.usdt, hotWallet, 1_000n * ONE);
  sim = await startPaystackSimulator({ resultDelayMs: 50 });
  await setAsideEarlierRefunds('BSC');
  service = await startTestService({
    ...f.env(), BSC_HOT_WALLET_KEY: key, REFUND_INTERVAL_MS: '100', REFUND_LEASE_MS: '2000',
    PAYSTACK_SECRET_KEY: sim.secretKey, PAYSTACK_BASE_URL: sim.url, PAYSTACK_RESPONSE_TIMEOUT_MS: '800',
    PAYSTACK_WEBHOOK_ALLOWED_IPS: '127.0.0.1', PAYSTACK_RESULT_WAIT_MS: '500',
  });
  sim.setWebhookUrl(`${service.baseUrl}/callbacks/paystack`);
  admin = await service.newAdminKey();
}, 90_000);
afterAll(async () => {
  if (mining) clearInterval(mining);
  await service?.close();
  await sim?.close();
  await f?.stop();
});

it('a transfer Paystack reverses after accepting it: the payment is refunded and its USDC goes back onchain to refundAddress once', async () => {
  const { tenantId, apiKey } = await liveTenant(service, admin);
  const refundAddress = privateKeyToAccount(generatePrivateKey()).address as Address;
  mining = setInterval(() => void f.bsc.mine().catch(() => undefined), 250);
  const id = await moneyOut(service, apiKey, ngBankBody('90', { blockchain: 'BSC', refundAddress }));
  const payment = await settled(service, admin, id, 'refunded', 30_000);
  expect(payment.failureReason).toMatch(/reversed|could not be completed/i);

  const refund = await eventually(async () => {
    const [row] = await sql<{ id: string; status: string; tx_hash: string | null; amount: string }>(
      service, 'select id, status, tx_hash, amount::text from onchain_refunds where payment_id = ?', [id]);
    return row?.status === 'confirmed' ? row : undefined;
  }, 60_000);
  expect(refund.amount).toBe(payment.amountStablecoin);

  const units = BigInt(refund.amount.replace('.', '')) * 10n ** 12n;
  const transfers = await f.bsc.publicClient.getLogs({
    address: f.usdc, event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'), args: { to: refundAddress }, fromBlock: 0n,
  });
  expect(transfers.map((t) => [t.args.from?.toLowerCase(), t.args.value, t.transactionHash.toLowerCase()])).toEqual([[hotWallet.toLowerCase(), units, refund.tx_hash]]);
  expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'return', 'refund_sent']);
  const ledger = await sql<{ kind: string; balance: string }>(service,
    `select kind, sum(balance)::text as balance from ledger_accounts where tenant_id = ? and currency = 'USDC' and kind in ('refund_pending', 'refunded') group by kind order by kind`, [tenantId]);
  expect(ledger.map((l) => [l.kind, Number(l.balance)])).toEqual([['refund_pending', 0], ['refunded', Number(refund.amount)]]);
  const events = await sql<{ type: string }>(service, 'select type from outbox_events where entity_id = ? order by created_at, id', [refund.id]);
  expect(events.map((e) => e.type)).toEqual(['refund.pending', 'refund.confirmed']);
});
