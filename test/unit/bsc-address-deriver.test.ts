/**
 * BSC deposit addresses from an extended public key (docs/chains.md § Deposit addresses), checked
 * against BIP-32's published test vectors and anvil's well-known accounts.
 */
import { HDKey } from '@scure/bip32';
import { ECDH } from 'node:crypto';
import { publicKeyToAddress, mnemonicToAccount } from 'viem/accounts';
import { BscAddressDeriver, BSC_DEVELOPMENT_XPUB, BSC_PUBLICLY_KNOWN_XPUBS } from '../../src/adapters/chains/bsc/bsc-address-deriver';

const MNEMONIC = 'test test test test test test test test test test test junk';
/** m/44'/60'/0'/0 of the anvil mnemonic: anvil's funded accounts are its children 0…9. */
const ANVIL_ACCOUNTS_XPUB = BSC_PUBLICLY_KNOWN_XPUBS[1]!;

/** The address of an extended key's own public key (decoded, not derived). */
function addressOf(xpub: string): string {
  const key = HDKey.fromExtendedKey(xpub);
  const uncompressed = ECDH.convertKey(Buffer.from(key.publicKey!), 'secp256k1', undefined, 'hex', 'uncompressed') as string;
  return publicKeyToAddress(`0x${uncompressed}`).toLowerCase();
}

// BIP-32 test vector 1 (https://github.com/bitcoin/bips/blob/master/bip-0032.mediawiki, "Test Vectors").
const V1_M_0H = 'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw';
const V1_M_0H_1 = 'xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ';
const V1_M_0H_1_2H = 'xpub6D4BDPcP2GT577Vvch3R8wDkScZWzQzMMUm3PWbmWvVJrZwQY4VUNgqFJPMM3No2dFDFGTsxxpG5uJh7n7epu4trkrX7x7DogT5Uv6fcLW5';
const V1_M_0H_1_2H_2 = 'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV';
const V1_M_0H_1_2H_2_1000000000 = 'xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy';

describe('BSC deposit address deriver', () => {
  it.each([
    ['m/0H → child 1', V1_M_0H, 1, V1_M_0H_1],
    ['m/0H/1/2H → child 2', V1_M_0H_1_2H, 2, V1_M_0H_1_2H_2],
    ['m/0H/1/2H/2 → child 1000000000', V1_M_0H_1_2H_2, 1_000_000_000, V1_M_0H_1_2H_2_1000000000],
  ])('derives BIP-32 test vector 1, %s, from the public key alone', (_, parent, index, child) => {
    expect(new BscAddressDeriver(parent).addressAt(index)).toBe(addressOf(child));
  });

  it("gives anvil's funded accounts from m/44'/60'/0'/0 of the default mnemonic, in lower case", () => {
    const deriver = new BscAddressDeriver(ANVIL_ACCOUNTS_XPUB);
    expect([0, 1, 2].map((i) => deriver.addressAt(i))).toEqual([
      '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
    ]);
  });

  it("gives with the development key the addresses viem signs for at m/44'/60'/1'/0/i of the anvil mnemonic", () => {
    const deriver = new BscAddressDeriver(BSC_DEVELOPMENT_XPUB);
    for (const i of [0, 1, 7, 250]) {
      expect(deriver.addressAt(i)).toBe(mnemonicToAccount(MNEMONIC, { accountIndex: 1, addressIndex: i }).address.toLowerCase());
    }
    expect(deriver.addressAt(0)).toBe('0x8c8d35429f74ec245f8ef2f4fd1e551cff97d650');
  });

  it('is deterministic and gives distinct addresses to distinct indexes, up to 2^31 − 1', () => {
    const deriver = new BscAddressDeriver(BSC_DEVELOPMENT_XPUB);
    const addresses = Array.from({ length: 50 }, (_, i) => deriver.addressAt(i));
    expect(new Set(addresses).size).toBe(50);
    expect(new BscAddressDeriver(BSC_DEVELOPMENT_XPUB).addressAt(49)).toBe(addresses[49]);
    expect(deriver.addressAt(0x7fffffff)).toMatch(/^0x[0-9a-f]{40}$/);
    expect(deriver.paymentAddress(addresses[3]!)).toBe(addresses[3]);
  });

  it.each([-1, 0x80000000, 1.5, Number.NaN])('refuses index %p (hardened or not an index)', (index) => {
    expect(() => new BscAddressDeriver(BSC_DEVELOPMENT_XPUB).addressAt(index)).toThrow(RangeError);
  });

  it('refuses an extended private key and text that is no extended key, without quoting it', () => {
    const xprv = 'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi';
    expect(() => new BscAddressDeriver(xprv)).toThrow(/PRIVATE key/);
    for (const bad of [xprv, 'xpub-not-a-key', V1_M_0H.slice(0, -1) + 'x']) {
      let message = '';
      try {
        new BscAddressDeriver(bad);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).not.toBe('');
      expect(message).not.toContain(bad);
    }
  });
});
