import { eip55Checksum } from '../../src/adapters/chains/eip55-checksum';
import type { Blockchain } from '../../src/core/catalog/catalog';
import { base58ByteLength, checkRefundAddress, type RefundAddressDeps } from '../../src/core/payments/refund-address';

/** Valid 32-byte Solana keys and an EIP-55 address (its checksummed form from https://eips.ethereum.org/EIPS/eip-55 rules via viem). */
const SOLANA = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const CHECKSUMMED = '0x8C8d35429F74ec245F8Ef2f4Fd1e551cFF97d650';
/** base58 of 31 and of 33 bytes of 0x07. */
const BYTES_31 = '7DUeBUtEcb7nujVZRJmeBju3X1mo6PpnWNtJ9EBhdY';
const BYTES_33 = '365efUdXGhRExyDEUeKXWPg1zTZyfvuJQJDLsS7JZqzyt';
/** A deposit address of some tenant, and a hot wallet. */
const DEPOSIT_BSC = '0x4b16c5de96eb2117bbe5fd171e4d203624b014aa';
const DEPOSIT_SOLANA = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const HOT_WALLET = '0x000000000000000000000000000000000000dEaD';

const deps: RefundAddressDeps = {
  eip55: eip55Checksum,
  depositAddresses: {
    isDepositAddress: async (chain, address) => (chain === 'BSC' ? address.toLowerCase() === DEPOSIT_BSC : address === DEPOSIT_SOLANA),
  },
  hotWallets: [{ blockchain: 'BSC', address: HOT_WALLET }],
};
const outcome = async (blockchain: Blockchain, address: string) => {
  const r = await checkRefundAddress(deps, blockchain, address);
  return r.ok ? 'ok' : `${r.code} ${String(r.details?.field)}`;
};

/** The refund address's rules at money-out (docs/decisions.md § Refunds: refund addresses). */
describe('checkRefundAddress', () => {
  it.each([
    ['SOLANA', SOLANA, 'ok'],
    ['SOLANA', '1'.repeat(32), 'ok'], // 32 zero bytes (the system program's key): 32 bytes all the same
    ['SOLANA', '1'.repeat(31), 'refund_address_invalid refundAddress'], // 31 zero bytes
    ['SOLANA', BYTES_31, 'refund_address_invalid refundAddress'],
    ['SOLANA', BYTES_33, 'refund_address_invalid refundAddress'], // 45 characters: longer than any 32-byte key's
    ['SOLANA', 'z'.repeat(44), 'refund_address_invalid refundAddress'], // 44 characters, but 33 bytes
    ['SOLANA', 'z'.repeat(45), 'refund_address_invalid refundAddress'],
    ['SOLANA', `${SOLANA.slice(0, 43)}0`, 'refund_address_invalid refundAddress'], // 0, O, I, l are not base58
    ['SOLANA', `${SOLANA.slice(0, 43)}O`, 'refund_address_invalid refundAddress'],
    ['SOLANA', `${SOLANA.slice(0, 43)}I`, 'refund_address_invalid refundAddress'],
    ['SOLANA', `${SOLANA.slice(0, 43)}l`, 'refund_address_invalid refundAddress'],
    ['SOLANA', CHECKSUMMED, 'refund_address_invalid refundAddress'],
    ['BSC', CHECKSUMMED, 'ok'],
    ['BSC', CHECKSUMMED.toLowerCase(), 'ok'], // no checksum to check
    ['BSC', `0x${CHECKSUMMED.slice(2).toUpperCase()}`, 'ok'], // all upper case: no checksum either
    ['BSC', `0x${'0'.repeat(40)}`, 'ok'],
    ['BSC', `${CHECKSUMMED.slice(0, 3)}${CHECKSUMMED[3]!.toLowerCase()}${CHECKSUMMED.slice(4)}`, 'refund_address_bad_checksum refundAddress'], // 0x8c8d…: one letter's case changed
    ['BSC', `0x${'aB3'.repeat(13)}c`, 'refund_address_bad_checksum refundAddress'],
    ['BSC', `0x${'a'.repeat(39)}`, 'refund_address_invalid refundAddress'],
    ['BSC', `0x${'a'.repeat(41)}`, 'refund_address_invalid refundAddress'],
    ['BSC', `0x${'g'.repeat(40)}`, 'refund_address_invalid refundAddress'],
    ['BSC', `0X${'a'.repeat(40)}`, 'refund_address_invalid refundAddress'],
    ['BSC', 'a'.repeat(42), 'refund_address_invalid refundAddress'],
    ['BSC', SOLANA, 'refund_address_invalid refundAddress'],
  ] as [Blockchain, string, string][])('%s %s -> %s', async (blockchain, address, expected) => {
    expect(await outcome(blockchain, address)).toBe(expected);
  });

  it.each([
    ['BSC', DEPOSIT_BSC],
    ['BSC', DEPOSIT_BSC.toUpperCase().replace('0X', '0x')], // the same address in another case
    ['BSC', eip55Checksum(DEPOSIT_BSC)],
    ['SOLANA', DEPOSIT_SOLANA],
    ['BSC', HOT_WALLET],
    ['BSC', HOT_WALLET.toLowerCase()],
  ] as [Blockchain, string][])('refuses our own %s address %s', async (blockchain, address) => {
    expect(await outcome(blockchain, address)).toBe('refund_address_is_ours refundAddress');
  });

  it('a hot wallet of one chain does not refuse the other chain', async () => {
    const solanaHot = { ...deps, hotWallets: [{ blockchain: 'SOLANA' as const, address: SOLANA }] };
    expect((await checkRefundAddress(solanaHot, 'SOLANA', SOLANA)).ok).toBe(false);
    expect((await checkRefundAddress(deps, 'SOLANA', SOLANA)).ok).toBe(true);
  });

  it('words each refusal for the caller', async () => {
    expect(await checkRefundAddress(deps, 'SOLANA', 'z'.repeat(44))).toEqual({
      ok: false, code: 'refund_address_invalid', message: 'refundAddress is not a valid SOLANA address: it decodes to 33 bytes, not the 32 of a public key',
      details: { field: 'refundAddress' },
    });
  });
});

describe('base58ByteLength', () => {
  it.each([['', 0], ['1', 1], ['2', 1], ['5Q', 1], ['5R', 2], [SOLANA, 32], [BYTES_31, 31], [BYTES_33, 33], ['0', undefined]] as [string, number | undefined][])(
    '%s decodes to %s bytes', (text, bytes) => expect(base58ByteLength(text)).toBe(bytes),
  );
});
