import { pbkdf2Sync } from 'node:crypto';
import { address, createKeyPairFromPrivateKeyBytes, getAddressEncoder, getAddressFromPublicKey, getProgramDerivedAddress } from '@solana/kit';
import { HDKey, mnemonicToAccount } from 'viem/accounts';
import { DEVELOPMENT_BSC_XPUB, DEVELOPMENT_MNEMONIC, DevelopmentAddressDeriver } from '../../src/adapters/chains/development-address-deriver';

const TOKENS = [
  { chain: 'SOLANA' as const, currency: 'USDC' as const, token: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', decimals: 6 },
  { chain: 'SOLANA' as const, currency: 'USDT' as const, token: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', decimals: 6 },
];

/** The documented development key (docs/decisions.md § Onchain deposits: sandbox addresses), checked against independent derivations. */
describe('DevelopmentAddressDeriver', () => {
  const deriver = new DevelopmentAddressDeriver(TOKENS);

  it('writes out the xpub at m/44\'/60\'/1\'/0 of the test mnemonic', () => {
    const seed = pbkdf2Sync(DEVELOPMENT_MNEMONIC, 'mnemonic', 2048, 64, 'sha512');
    expect(HDKey.fromMasterSeed(seed).derive("m/44'/60'/1'/0").publicExtendedKey).toBe(DEVELOPMENT_BSC_XPUB);
  });

  it('derives BSC address i as the mnemonic\'s account 1, address i (what a wallet holding the mnemonic shows)', async () => {
    for (const index of [0, 1, 7, 1000]) {
      expect(deriver.addressAt('BSC', index)).toBe(mnemonicToAccount(DEVELOPMENT_MNEMONIC, { accountIndex: 1, addressIndex: index }).address);
    }
    expect(await deriver.paymentAddress('BSC', 'USDT', '0xAbc')).toBe('0xAbc');
  });

  it('derives Solana owner i by SLIP-0010 at m/44\'/501\'/1\'/0\'/i\' (the key pair @solana/kit makes from the same private bytes)', async () => {
    // The private bytes at the path, computed here step by step from SLIP-0010's definition.
    const { createHmac } = await import('node:crypto');
    let node = createHmac('sha512', 'ed25519 seed').update(pbkdf2Sync(DEVELOPMENT_MNEMONIC, 'mnemonic', 2048, 64, 'sha512')).digest();
    for (const i of [44, 501, 1, 0, 3]) {
      const data = Buffer.concat([Buffer.from([0]), node.subarray(0, 32), Buffer.from([0x80 | (i >>> 24), (i >>> 16) & 255, (i >>> 8) & 255, i & 255])]);
      node = createHmac('sha512', node.subarray(32)).update(data).digest();
    }
    const pair = await createKeyPairFromPrivateKeyBytes(node.subarray(0, 32));
    expect(deriver.addressAt('SOLANA', 3)).toBe(await getAddressFromPublicKey(pair.publicKey));
    expect(new Set([0, 1, 2, 3].map((i) => deriver.addressAt('SOLANA', i))).size).toBe(4);
  });

  it('pays Solana through the owner\'s associated token account of the currency\'s mint', async () => {
    const owner = deriver.addressAt('SOLANA', 0);
    const usdc = await deriver.paymentAddress('SOLANA', 'USDC', owner);
    const usdt = await deriver.paymentAddress('SOLANA', 'USDT', owner);
    expect([usdc === owner, usdt === owner, usdc === usdt]).toEqual([false, false, false]);
    // The associated token program's address derivation: seeds (owner, token program, mint).
    const encoder = getAddressEncoder();
    const [expected] = await getProgramDerivedAddress({
      programAddress: address('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'),
      seeds: [encoder.encode(address(owner)), encoder.encode(address('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')), encoder.encode(address(TOKENS[0]!.token))],
    });
    expect(usdc).toBe(expected);
  });
});
