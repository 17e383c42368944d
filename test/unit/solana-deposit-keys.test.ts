/**
 * Solana deposit keys (docs/chains.md § Solana deposit addresses): SLIP-0010 ed25519 against the
 * specification's test vector 1 (https://github.com/satoshilabs/slips/blob/master/slip-0010.md),
 * the seed key custody (owners, fingerprint) and the address deriver (owner, associated token
 * account per mint).
 */
import { createKeyPairSignerFromPrivateKeyBytes } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { DevelopmentAddressDeriver, developmentSolanaSeed } from '../../src/adapters/chains/development-address-deriver';
import { ed25519PublicKey, slip10Child, slip10Derive } from '../../src/adapters/chains/slip10-ed25519';
import { SolanaAddressDeriver } from '../../src/adapters/chains/solana/solana-address-deriver';
import { DEVELOPMENT_SOLANA_FINGERPRINT, SeedKeyCustody } from '../../src/adapters/chains/solana/solana-key-custody';
import type { WatchedToken } from '../../src/core/deposits/chain-ports';

const VECTOR_1_SEED = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
/** SLIP-0010 test vector 1 for ed25519: path (hardened indexes), chain code, private key, public key (without the spec's 00 prefix). */
const VECTOR_1: Array<[number[], string, string, string]> = [
  [[], '90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb', '2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7', 'a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed'],
  [[0], '8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69', '68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3', '8c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c'],
  [[0, 1], 'a320425f77d1b5c2505a6b1b27382b37368ee640e3557c315416801243552f14', 'b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2', '1932a5270f335bed617d5b935c80aedb1a35bd9fc1e31acafd5372c30f5c1187'],
  [[0, 1, 2], '2e69929e00b5ab250f49c3fb1c12f252de4fed2c1db88387094a0f8c4c9ccd6c', '92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9', 'ae98736566d30ed0e9d2f4486a64bc95740d89c7db33f52121f8ea8f76ff0fc1'],
  [[0, 1, 2, 2], '8f6d87f93d750e0efccda017d662a1b31a266e4a6f5993b15f5c1f07f74dd5cc', '30d1dc7e5fc04c31219ab25a27ae00b50f6fd66622f6e9c913253d6511d1e662', '8abae2d66361c879b900d204ad2cc4984fa2aa344dd7ddc46007329ac76c429c'],
  [[0, 1, 2, 2, 1000000000], '68789923a0cac2cd5a29172a475fe9e0fb14cd6adb5ad98a3fa70333e7afa230', '8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793', '3c24da049451555d51a7014a37337aa4e12d41e485abccfa46b47dfb2af54b7a'],
];
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const USDT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
const TOKENS: WatchedToken[] = [
  { chain: 'SOLANA', currency: 'USDC', token: USDC, decimals: 6 },
  { chain: 'SOLANA', currency: 'USDT', token: USDT, decimals: 6 },
];

describe('SLIP-0010 ed25519', () => {
  it.each(VECTOR_1)('test vector 1 at m/%j (hardened): chain code, private and public key', (path, chainCode, key, publicKey) => {
    const node = slip10Derive(VECTOR_1_SEED, path);
    expect([node.chainCode.toString('hex'), node.key.toString('hex'), ed25519PublicKey(node.key).toString('hex')]).toEqual([chainCode, key, publicKey]);
  });

  it('refuses an index that cannot be hardened', () => {
    const master = slip10Derive(VECTOR_1_SEED, []);
    expect(() => slip10Child(master, 2 ** 31)).toThrow(RangeError);
    expect(() => slip10Child(master, -1)).toThrow(RangeError);
    expect(() => slip10Child(master, 1.5)).toThrow(RangeError);
  });
});

describe('seed key custody', () => {
  it("owner i is the key at m/44'/501'/1'/0'/i' of the seed, the address @solana/kit signs for", async () => {
    const custody = new SeedKeyCustody(VECTOR_1_SEED);
    for (const i of [0, 1, 7]) {
      const signer = await createKeyPairSignerFromPrivateKeyBytes(slip10Derive(VECTOR_1_SEED, [44, 501, 1, 0, i]).key);
      expect(custody.ownerAddress(i)).toBe(signer.address);
    }
    expect(custody.ownerAddress(0)).not.toBe(custody.ownerAddress(1));
  });

  it('names the key by a fingerprint that is stable, differs per seed and never contains the seed', () => {
    const a = new SeedKeyCustody(VECTOR_1_SEED);
    expect(a.fingerprint).toMatch(/^solana:[0-9a-f]{16}$/);
    expect(new SeedKeyCustody(Buffer.from(VECTOR_1_SEED)).fingerprint).toBe(a.fingerprint);
    expect(new SeedKeyCustody(Buffer.alloc(32, 1)).fingerprint).not.toBe(a.fingerprint);
    expect(a.fingerprint).not.toContain(VECTOR_1_SEED.toString('hex').slice(0, 8));
    expect(new SeedKeyCustody(developmentSolanaSeed()).fingerprint).toBe(DEVELOPMENT_SOLANA_FINGERPRINT);
  });

  it('refuses a seed shorter than 16 or longer than 64 bytes', () => {
    expect(() => new SeedKeyCustody(Buffer.alloc(15))).toThrow(RangeError);
    expect(() => new SeedKeyCustody(Buffer.alloc(65))).toThrow(RangeError);
  });
});

describe('Solana address deriver', () => {
  it('the development seed gives the owners the development deriver hands out', () => {
    const deriver = new SolanaAddressDeriver(new SeedKeyCustody(developmentSolanaSeed()), TOKENS);
    const development = new DevelopmentAddressDeriver(TOKENS);
    for (const i of [0, 3]) expect(deriver.addressAt('SOLANA', i)).toBe(development.addressAt('SOLANA', i));
  });

  it("a currency is paid to the owner's associated token account of its mint; another chain or currency is refused", async () => {
    const deriver = new SolanaAddressDeriver(new SeedKeyCustody(VECTOR_1_SEED), TOKENS.slice(0, 1));
    const owner = deriver.addressAt('SOLANA', 2);
    const [ata] = await findAssociatedTokenPda({ owner: owner as never, mint: USDC as never, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    expect(await deriver.paymentAddress('SOLANA', 'USDC', owner)).toBe(ata);
    await expect(deriver.paymentAddress('SOLANA', 'USDT', owner)).rejects.toThrow(/no USDT mint/);
    expect(() => deriver.addressAt('BSC', 0)).toThrow(/BSC/);
  });
});
