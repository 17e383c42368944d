/**
 * The Solana refund sender's refusals and balances on litesvm (docs/decisions.md § Refunds:
 * refusals, balances as metrics): a refund it can never build is refused offline with its code,
 * and the hot wallet's SOL and token balances read exactly in whole units.
 */
import { SolanaRefundChain, recipient, refundOf } from '../support/chains/solana-refund-fixture';

const SOL = 1_000_000_000n;
let chain: SolanaRefundChain;

beforeAll(async () => {
  chain = await SolanaRefundChain.start(8);
});
afterAll(async () => {
  await chain?.close();
});

describe('refusal', () => {
  it.each([
    ['a BSC address', '0x52908400098527886e0f7030069857d2e4169ee7'],
    ['31 bytes of base58', '1111111111111111111111111111111'],
    ['a character outside base58 (0)', '0xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU'],
    ['an empty address', ''],
  ])('invalid_address: %s', async (_label, address) => {
    const sender = await chain.newSender({ units: 0n, lamports: 0n });
    expect(sender.refusal(refundOf('1', address))).toBe('invalid_address');
    await expect(sender.sign(refundOf('1', address), { lastNonce: null })).rejects.toThrow();
  });

  it("own_address: the hot wallet's own address", async () => {
    const sender = await chain.newSender({ units: 0n, lamports: 0n });
    expect(sender.refusal(refundOf('1', sender.wallet))).toBe('own_address');
  });

  it.each([['0'], ['0.000000'], ['-1'], ['1e3'], ['18446744073709.551616']])('amount_not_representable: %s', async (amount) => {
    const sender = await chain.newSender({ units: 0n, lamports: 0n });
    expect(sender.refusal(refundOf(amount, (await recipient()).address))).toBe('amount_not_representable');
  });

  it('none for a well-formed refund, at the largest amount a token account holds (u64 base units)', async () => {
    const sender = await chain.newSender({ units: 0n, lamports: 0n });
    const to = (await recipient()).address;
    expect(sender.refusal(refundOf('1.5', to))).toBeUndefined();
    expect(sender.refusal(refundOf('18446744073709.551615', to))).toBeUndefined();
  });
});

describe('balances', () => {
  it('SOL and the mint in whole units, exactly', async () => {
    const sender = await chain.newSender({ units: 1_234_500_000n, lamports: 2n * SOL + 5n });
    expect(await sender.balances()).toEqual({ gas: '2.000000005', tokens: [{ currency: 'USDC', amount: '1234.5' }] });
  });

  it('a wallet with no token account holds none of the token', async () => {
    const sender = await chain.newSender({ units: 0n, lamports: SOL });
    expect(await sender.balances()).toEqual({ gas: '1', tokens: [{ currency: 'USDC', amount: '0' }] });
  });
});
