/**
 * Hot wallet balances as metrics with thresholds (docs/operations.md § Refunds: balances and
 * thresholds), on anvil with the real service: the BSC hot wallet's BNB and token balances appear
 * as `refund_wallet_gas_balance` and `refund_wallet_token_balance` with the chain's values,
 * `refund_wallet_low` is 1 exactly for a balance below its watermark, each crossing is logged once,
 * and the series follow the chain after a top-up and a spend (read every REFUND_BALANCE_INTERVAL_MS).
 */
import { createWalletClient, erc20Abi, http, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { jsonRpc } from '../support/chains/anvil';
import { ONE, startBscServiceFixture, type BscServiceFixture } from '../support/chains/bsc-service-fixture';
import { captureLog, type CapturedLog } from '../support/captured-log';
import { eventually, startTestService, type TestService } from '../support/test-service';

jest.setTimeout(90_000);

let f: BscServiceFixture;
let service: TestService;
let admin: string;
let log: CapturedLog;
const key = generatePrivateKey();
const hotWallet = privateKeyToAccount(key).address;
const wallet = hotWallet.toLowerCase();
beforeAll(async () => {
  f = await startBscServiceFixture();
  // 0.5 BNB (below the 1 BNB watermark), 25.5 USDT (above 10), no USDC (no watermark set for it).
  await jsonRpc(f.bsc.url, 'anvil_setBalance', [hotWallet, `0x${(ONE / 2n).toString(16)}`]);
  await f.bsc.mint(f.usdt, hotWallet, 255n * ONE / 10n);
  log = captureLog('info');
  service = await startTestService({
    ...f.env(), BSC_HOT_WALLET_KEY: key, REFUND_INTERVAL_MS: '100', REFUND_LEASE_MS: '2000', REFUND_BALANCE_INTERVAL_MS: '1000',
    REFUND_GAS_LOW_WATERMARK_BNB: '1', REFUND_TOKEN_LOW_WATERMARK_USDT: '10.000001',
  }, {}, { logger: log.logger });
  admin = await service.newAdminKey();
}, 90_000);
afterAll(async () => {
  await service?.close();
  await f?.stop();
});

/** The value of `name{labels}` in the service's /metrics, as written; undefined when the series is absent. */
async function series(name: string, labels: string): Promise<string | undefined> {
  const text = (await service.call('GET', '/metrics', { apiKey: admin })).text as string;
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line?.slice(line.lastIndexOf(' ') + 1);
}
const gas = () => series('refund_wallet_gas_balance', `chain="BSC",wallet="${wallet}"`);
const token = (currency: string) => series('refund_wallet_token_balance', `chain="BSC",wallet="${wallet}",currency="${currency}"`);
const low = (currency: string) => series('refund_wallet_low', `chain="BSC",wallet="${wallet}",currency="${currency}"`);
const crossings = () => log.lines.filter((l) => /low watermark/.test(l.msg)).map((l) => [l.level >= 40 ? 'warn' : 'info', l.currency, l.balance, l.watermark]);

it('shows the hot wallet\'s BNB and token balances, and refund_wallet_low where a balance is below its watermark', async () => {
  await eventually(async () => ((await gas()) !== undefined ? true : undefined), 20_000);
  expect([await gas(), await token('USDT'), await token('USDC')]).toEqual(['0.5', '25.5', '0']);
  expect([await low('BNB'), await low('USDT'), await low('USDC')]).toEqual(['1', '0', '0']);
  expect(crossings()).toEqual([['warn', 'BNB', '0.5', '1']]);
});

it('follows the chain: a BNB top-up clears its low flag, a spend below the USDT watermark raises one; each crossing logged once', async () => {
  await jsonRpc(f.bsc.url, 'anvil_setBalance', [hotWallet, `0x${(3n * ONE).toString(16)}`]);
  const client = createWalletClient({ account: privateKeyToAccount(key), chain: f.bsc.chain, transport: http(f.bsc.url) });
  await client.writeContract({ address: f.usdt, abi: erc20Abi, functionName: 'transfer', args: ['0x000000000000000000000000000000000000dEaD' as Address, 155n * ONE / 10n] });
  await eventually(async () => ((await low('USDT')) === '1' ? true : undefined), 20_000);
  expect(await token('USDT')).toBe('10');
  expect(await low('BNB')).toBe('0');
  expect(Number(await gas())).toBeGreaterThan(2.99);
  // Reads go on every second; the lines do not.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  expect(crossings()).toEqual([['warn', 'BNB', '0.5', '1'], ['info', 'BNB', expect.stringMatching(/^2\.99|^3$/), '1'], ['warn', 'USDT', '10', '10.000001']]);
});
