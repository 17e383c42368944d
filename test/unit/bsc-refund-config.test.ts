import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { hexToBytes, keccak256, recoverAddress, bytesToHex, toHex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { BscConfigError } from '../../src/adapters/chains/bsc/bsc-config';
import { BscHotWalletSigner, bscHotWalletSignerFromKeyFile } from '../../src/adapters/chains/bsc/bsc-hot-wallet-signer';
import { parseBscRefundConfig } from '../../src/adapters/chains/bsc/bsc-refund-config';

/** A key for these tests only (never funded anywhere). */
const KEY = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';
const KEY_DIGITS = KEY.slice(2);
const dir = mkdtempSync(path.join(tmpdir(), 'bsc-hot-wallet-'));
let files = 0;
/** A key file with `content` and `mode`. */
function keyFile(content: string, mode = 0o600): string {
  const file = path.join(dir, `key-${++files}`);
  writeFileSync(file, content);
  chmodSync(file, mode);
  return file;
}
const RPC = { BSC_RPC_URLS: 'http://127.0.0.1:8545' };
/** The error `work` throws, with a check that it quotes no part of the key. */
function refusal(work: () => unknown): Error {
  try {
    work();
  } catch (error) {
    const text = `${String(error)} ${inspect(error)}`;
    expect(text).not.toContain(KEY_DIGITS);
    expect(text).not.toContain(KEY_DIGITS.slice(0, 16));
    return error as Error;
  }
  throw new Error('expected a refusal');
}

describe('BSC hot wallet signer (docs/chains.md § BSC refunds)', () => {
  it('answers the key\'s checksummed address and signs a digest as r ‖ s ‖ recovery id that recovers it', async () => {
    const signer = new BscHotWalletSigner(KEY, 'BSC_HOT_WALLET_KEY');
    expect(signer.address).toBe(privateKeyToAddress(KEY));
    expect(signer.address).toMatch(/^0x(?=.*[A-F])[0-9a-fA-F]{40}$/);
    const digest = keccak256(toHex('a refund'), 'bytes');
    const signature = await signer.sign(digest);
    expect(signature).toHaveLength(65);
    expect([0, 1]).toContain(signature[64]);
    const recovered = await recoverAddress({
      hash: digest, signature: { r: bytesToHex(signature.subarray(0, 32)), s: bytesToHex(signature.subarray(32, 64)), yParity: signature[64]! },
    });
    expect(recovered).toBe(signer.address);
    await expect(signer.sign(hexToBytes('0x1234'))).rejects.toThrow(/32-byte digests/);
  });

  it('never shows the key: inspect (hidden properties too), JSON, toString, string interpolation', () => {
    const signer = new BscHotWalletSigner(KEY, 'BSC_HOT_WALLET_KEY');
    const shown = [
      inspect(signer), inspect(signer, { showHidden: true, depth: Infinity, getters: true }), inspect({ nested: { signer } }, { depth: Infinity }),
      JSON.stringify(signer), JSON.stringify({ signer }), String(signer), `${signer}`, inspect(Object.entries(signer), { showHidden: true, depth: Infinity }),
    ];
    for (const text of shown) {
      expect(text).not.toContain(KEY_DIGITS);
      expect(text).not.toContain(KEY_DIGITS.slice(0, 16));
    }
    expect(shown[0]).toContain(signer.address);
    expect(JSON.parse(shown[3]!)).toEqual({ chain: 'BSC', address: signer.address });
  });

  it('refuses a malformed key naming its source, never quoting it', () => {
    expect(refusal(() => new BscHotWalletSigner(KEY.slice(0, 60), 'BSC_HOT_WALLET_KEY')).message).toBe(
      'BSC_HOT_WALLET_KEY: must be a secp256k1 private key, 0x and 64 hexadecimal digits');
    expect(refusal(() => new BscHotWalletSigner(KEY_DIGITS, 'BSC_HOT_WALLET_KEY')).message).toMatch(/^BSC_HOT_WALLET_KEY: must be/);
    expect(refusal(() => new BscHotWalletSigner(`0x${'0'.repeat(64)}`, 'X')).message).toMatch(/^X: is not a valid secp256k1 private key/);
    expect(refusal(() => new BscHotWalletSigner(`0x${'f'.repeat(64)}`, 'X')).message).toMatch(/^X: is not a valid secp256k1 private key/);
  });

  it('reads a key file (surrounding blank space allowed); in production refuses one its group or others may open', () => {
    expect(bscHotWalletSignerFromKeyFile(keyFile(`${KEY}\n`), 'V', false).address).toBe(privateKeyToAddress(KEY));
    expect(bscHotWalletSignerFromKeyFile(keyFile(`  ${KEY}  \n`, 0o400), 'V', true).address).toBe(privateKeyToAddress(KEY));
    expect(bscHotWalletSignerFromKeyFile(keyFile(KEY, 0o644), 'V', false).address).toBe(privateKeyToAddress(KEY));
    for (const mode of [0o640, 0o604, 0o620, 0o660, 0o601]) {
      expect(refusal(() => bscHotWalletSignerFromKeyFile(keyFile(KEY, mode), 'V', true)).message).toBe(
        `V: the key file is open to its group or others (mode ${mode.toString(8)}); chmod 600 or 400 it`);
    }
    expect(refusal(() => bscHotWalletSignerFromKeyFile(path.join(dir, 'absent'), 'V', false)).message).toBe('V: cannot read the key file (ENOENT)');
    expect(refusal(() => bscHotWalletSignerFromKeyFile(dir, 'V', false)).message).toBe('V: is not a regular file');
    expect(refusal(() => bscHotWalletSignerFromKeyFile(keyFile(`${KEY}00`), 'V', false)).message).toMatch(/^V: must be a secp256k1 private key/);
  });
});

describe('BSC refund configuration (parseBscRefundConfig)', () => {
  it('no hot wallet key: undefined, whatever REFUND_REPLACE_AFTER_MS says', () => {
    expect(parseBscRefundConfig({})).toBeUndefined();
    expect(parseBscRefundConfig({ ...RPC, NODE_ENV: 'production', REFUND_REPLACE_AFTER_MS: '5000' })).toBeUndefined();
  });

  it('a development hex key with the defaults: replace after 120 s, 20 % bump, 100,000 gas, at most 50 gwei', () => {
    const config = parseBscRefundConfig({ ...RPC, BSC_HOT_WALLET_KEY: KEY })!;
    expect(config).toMatchObject({ replaceAfterMs: 120_000, feeBumpPercent: 20, gasLimit: 100_000n, maxGasPriceWei: 50_000_000_000n });
    expect(config.signer.address).toBe(privateKeyToAddress(KEY));
    expect(inspect(config, { depth: Infinity, showHidden: true })).not.toContain(KEY_DIGITS);
  });

  it('a key file, in production, with every tunable set', () => {
    const config = parseBscRefundConfig({
      ...RPC, NODE_ENV: 'production', BSC_HOT_WALLET_KEY_FILE: keyFile(KEY), REFUND_REPLACE_AFTER_MS: '60000',
      BSC_REFUND_FEE_BUMP_PERCENT: '10', BSC_REFUND_GAS_LIMIT: '80000', BSC_REFUND_MAX_GAS_PRICE_GWEI: '5',
    })!;
    expect(config).toMatchObject({ replaceAfterMs: 60_000, feeBumpPercent: 10, gasLimit: 80_000n, maxGasPriceWei: 5_000_000_000n });
    expect(config.signer.address).toBe(privateKeyToAddress(KEY));
  });

  it.each([
    ['the hex key in production', { ...RPC, NODE_ENV: 'production', BSC_HOT_WALLET_KEY: KEY },
      'BSC_HOT_WALLET_KEY: refused in production, where the key is read from BSC_HOT_WALLET_KEY_FILE'],
    ['both key variables', { ...RPC, BSC_HOT_WALLET_KEY: KEY, BSC_HOT_WALLET_KEY_FILE: '/nowhere' },
      'BSC_HOT_WALLET_KEY: set only one of BSC_HOT_WALLET_KEY_FILE and BSC_HOT_WALLET_KEY'],
    ['a key without RPC endpoints', { BSC_HOT_WALLET_KEY: KEY }, 'BSC_RPC_URLS: a hot wallet needs the BSC RPC endpoints'],
    ['a fee bump below 10 %', { ...RPC, BSC_HOT_WALLET_KEY: KEY, BSC_REFUND_FEE_BUMP_PERCENT: '9' }, 'BSC_REFUND_FEE_BUMP_PERCENT:'],
    ['a gas limit below a bare transfer', { ...RPC, BSC_HOT_WALLET_KEY: KEY, BSC_REFUND_GAS_LIMIT: '20999' }, 'BSC_REFUND_GAS_LIMIT:'],
    ['a replacement delay that is no number', { ...RPC, BSC_HOT_WALLET_KEY: KEY, REFUND_REPLACE_AFTER_MS: 'soon' }, 'REFUND_REPLACE_AFTER_MS:'],
    ['a maximum gas price of 0', { ...RPC, BSC_HOT_WALLET_KEY: KEY, BSC_REFUND_MAX_GAS_PRICE_GWEI: '0' }, 'BSC_REFUND_MAX_GAS_PRICE_GWEI:'],
    ['a tunable without a key', { ...RPC, BSC_REFUND_GAS_LIMIT: '80000' }, 'BSC refunds are partly configured: BSC_REFUND_GAS_LIMIT set without'],
    ['a malformed hex key', { ...RPC, BSC_HOT_WALLET_KEY: `${KEY}ff` }, 'BSC_HOT_WALLET_KEY: must be a secp256k1 private key'],
    ['a key file open to others in production', { ...RPC, NODE_ENV: 'production', BSC_HOT_WALLET_KEY_FILE: keyFile(KEY, 0o644) },
      'BSC_HOT_WALLET_KEY_FILE: the key file is open to its group or others'],
  ])('refuses %s, naming the variable and never the key', (_name, env, message) => {
    const error = refusal(() => parseBscRefundConfig(env));
    expect(error).toBeInstanceOf(BscConfigError);
    expect(error.message).toContain(message);
  });
});
