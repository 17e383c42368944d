/**
 * The BSC refund sender's refusals on anvil (docs/chains.md § BSC refunds: refusals): what it can
 * never send is answered offline with its code, `sign` throws for it, and the address forms EIP-55
 * allows are sent and land. Each test has its own hot wallet (a fresh key).
 */
import { decodeFunctionData, erc20Abi, getAddress, parseTransaction, type Hex } from 'viem';
import { startBscRefundFixture, type BscRefundFixture } from '../support/chains/bsc-refund-fixture';

jest.setTimeout(60_000);

let f: BscRefundFixture;
beforeAll(async () => {
  f = await startBscRefundFixture();
}, 60_000);
afterAll(async () => {
  await f?.stop();
});

describe('refusal (docs/chains.md § BSC refunds: refusals): what it can never send, answered offline, and sign throws for it', () => {
  /** A mixed-case address whose EIP-55 checksum is wrong: one letter of a checksummed address with its case flipped. */
  const badChecksum = (address: string) => {
    const i = [...address].findIndex((c, k) => k > 1 && /[a-fA-F]/.test(c));
    const c = address[i]!;
    return address.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + address.slice(i + 1);
  };
  const checksummed = () => getAddress(f.refund('1').refundAddress);

  it.each([
    ['no address', () => 'x'],
    ['39 hex digits', () => `0x${'a'.repeat(39)}`],
    ['no 0x prefix', () => checksummed().slice(2)],
    ['mixed case with a wrong checksum', () => badChecksum(checksummed())],
    ['a Solana address', () => '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU'],
  ])('invalid_address: %s', async (_name, address) => {
    const w = await f.wallet({ usdt: 0n });
    const refund = { ...f.refund('1'), refundAddress: address() as never };
    expect(w.sender.refusal(refund)).toBe('invalid_address');
    await expect(w.sender.sign(refund, { lastNonce: null })).rejects.toThrow(/refused \(invalid_address\)/);
  });

  it('own_address: the hot wallet\'s own address, in any case', async () => {
    const w = await f.wallet({ usdt: 0n });
    for (const own of [w.address.toLowerCase(), getAddress(w.address), `0x${w.address.slice(2).toUpperCase()}`]) {
      const refund = { ...f.refund('1'), refundAddress: own as never };
      expect(w.sender.refusal(refund)).toBe('own_address');
      await expect(w.sender.sign(refund, { lastNonce: null })).rejects.toThrow(/refused \(own_address\)/);
    }
  });

  it.each(['1.0000001', '0', '0.000000', '-1', '1e3', ''])('amount_not_representable: %j', async (amount) => {
    const w = await f.wallet({ usdt: 0n });
    const refund = f.refund(amount);
    expect(w.sender.refusal(refund)).toBe('amount_not_representable');
    await expect(w.sender.sign(refund, { lastNonce: null })).rejects.toThrow(/refused \(amount_not_representable\)/);
  });

  it('amount_not_representable on a token with fewer decimals: only digits finer than its unit are refused, never rounded', async () => {
    const w = await f.wallet({ usdt: 0n });
    const sender = f.senderWith(w.key, { tokens: [{ currency: 'USDT', contract: f.usdt, decimals: 2 }] });
    expect(sender.refusal(f.refund('4.001'))).toBe('amount_not_representable');
    expect(sender.refusal(f.refund('4.000001'))).toBe('amount_not_representable');
    expect(sender.refusal(f.refund('4.010000'))).toBeUndefined();
    const signed = await sender.sign(f.refund('4.010000'), { lastNonce: null });
    expect(decodeFunctionData({ abi: erc20Abi, data: parseTransaction(signed.rawTransaction as Hex).data! }).args![1]).toBe(401n);
  });

  it.each([
    ['all lower case', (a: string) => a.toLowerCase()],
    ['all upper case (no checksum)', (a: string) => `0x${a.slice(2).toUpperCase()}`],
    ['a valid checksum', (a: string) => a],
  ])('accepts an address %s, and what it signs lands there', async (_name, form) => {
    const w = await f.wallet();
    const to = checksummed();
    const refund = { ...f.refund('1.000001'), refundAddress: form(to) as never };
    expect(w.sender.refusal(refund)).toBeUndefined();
    const signed = await w.sender.sign(refund, { lastNonce: null });
    await w.sender.broadcast(signed.rawTransaction);
    expect(await f.bsc.balanceOf(f.usdt, to)).toBe(1_000_001n * 10n ** 12n);
  });
});
