/**
 * The Solana hot wallet's key custody and configuration (docs/chains.md § Solana refunds:
 * configuration; docs/decisions.md § Refunds: key custody): the solana-keygen key file format,
 * signatures that verify, a key that never shows (inspection, JSON, errors), the refusals, and
 * the composition root's Solana sender.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { address, getAddressEncoder, getPublicKeyFromAddress, verifySignature, type SignatureBytes } from '@solana/kit';
import { ed25519PublicKey, slip10Derive } from '../../src/adapters/chains/slip10-ed25519';
import { SolanaConfigError } from '../../src/adapters/chains/solana/solana-config';
import { SolanaHotWalletKeyError, SolanaHotWalletSigner, solanaHotWalletSignerFromKeyFile } from '../../src/adapters/chains/solana/solana-hot-wallet-signer';
import { parseSolanaRefundConfig } from '../../src/adapters/chains/solana/solana-refund-config';
import { ConfigError, loadConfig } from '../../src/app/config';
import { configuredRefundSenders } from '../../src/app/refund-senders';

/** A fixed test key pair (m/44'/501'/0'/0' of 32 zero bytes): never a secret, and never to appear in a message. */
const SECRET = slip10Derive(new Uint8Array(32), [44, 501, 0, 0]).key;
const PUBLIC = ed25519PublicKey(SECRET);
const KEY_PAIR = Uint8Array.from([...SECRET, ...PUBLIC]);
const KEY_TEXT = JSON.stringify([...KEY_PAIR]);
/** What must never appear: the secret half as JSON numbers, hex or base64. */
const leaks = (text: string) => [JSON.stringify([...SECRET]).slice(1, -1), Buffer.from(SECRET).toString('hex'), Buffer.from(SECRET).toString('base64')].some((s) => text.includes(s));
const noRpcErrors = () => undefined;

const dir = mkdtempSync(path.join(tmpdir(), 'solana-hot-wallet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function keyFile(content: string, mode = 0o600): string {
  const file = path.join(dir, `key-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, content);
  chmodSync(file, mode);
  return file;
}

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('did not throw');
}

describe('Solana hot wallet signer', () => {
  it('its address is the key pair\'s public half; its signatures of a message verify against it', async () => {
    const signer = new SolanaHotWalletSigner(KEY_PAIR, 'test');
    await signer.ready();
    expect(signer.address).toBe(address(signer.address));
    expect(Buffer.from(getAddressEncoder().encode(address(signer.address)))).toEqual(PUBLIC);
    const message = new TextEncoder().encode('a transaction message');
    const signature = await signer.sign(message);
    expect(signature).toHaveLength(64);
    expect(await verifySignature(await getPublicKeyFromAddress(address(signer.address)), signature as SignatureBytes, message)).toBe(true);
  });

  it('shows the chain and address only: util.inspect, JSON, String', () => {
    const signer = new SolanaHotWalletSigner(KEY_PAIR, 'test');
    for (const shown of [inspect(signer, { showHidden: true, depth: 10 }), JSON.stringify(signer), String(signer), inspect({ nested: signer })]) {
      expect(shown).toContain(signer.address);
      expect(leaks(shown)).toBe(false);
    }
    expect(JSON.parse(JSON.stringify(signer))).toEqual({ chain: 'SOLANA', address: signer.address });
  });

  it('a key pair whose public half is not its secret\'s: ready() and sign() refuse, naming the source only', async () => {
    const wrong = Uint8Array.from([...SECRET, ...ed25519PublicKey(slip10Derive(new Uint8Array(32).fill(1), [44, 501, 0, 0]).key)]);
    const signer = new SolanaHotWalletSigner(wrong, 'SOLANA_HOT_WALLET_KEY');
    await expect(signer.ready()).rejects.toThrow(new SolanaHotWalletKeyError('SOLANA_HOT_WALLET_KEY: is not an ed25519 key pair (its last 32 bytes are not the public key of its first 32)'));
    await expect(signer.sign(new Uint8Array(8))).rejects.toBeInstanceOf(SolanaHotWalletKeyError);
    expect(() => new SolanaHotWalletSigner(SECRET, 'X')).toThrow('X: must hold 64 bytes (an ed25519 secret key and its public key), got 32');
  });

  it('reads the solana-keygen key file (a JSON array of 64 bytes, blank space around it)', () => {
    expect(solanaHotWalletSignerFromKeyFile(keyFile(`\n${KEY_TEXT}\n`), 'SOLANA_HOT_WALLET_KEY_FILE', true).address).toBe(new SolanaHotWalletSigner(KEY_PAIR, 't').address);
  });

  it.each([
    ['not JSON', 'not json at all'],
    ['63 bytes', JSON.stringify([...KEY_PAIR].slice(1))],
    ['a byte above 255', JSON.stringify([...KEY_PAIR.slice(0, 63), 256])],
    ['a hex string', JSON.stringify(Buffer.from(KEY_PAIR).toString('hex'))],
  ])('refuses a key file holding %s, without quoting it', (_name, content) => {
    const error = thrown(() => solanaHotWalletSignerFromKeyFile(keyFile(content), 'SOLANA_HOT_WALLET_KEY_FILE', false));
    expect(error).toBeInstanceOf(SolanaHotWalletKeyError);
    expect(error.message).toBe('SOLANA_HOT_WALLET_KEY_FILE: must be a JSON array of 64 bytes (the solana-keygen key file format)');
  });

  it('production refuses a key file its group or others may read; a missing file is named by its variable', () => {
    expect(thrown(() => solanaHotWalletSignerFromKeyFile(keyFile(KEY_TEXT, 0o644), 'SOLANA_HOT_WALLET_KEY_FILE', true)).message)
      .toBe('SOLANA_HOT_WALLET_KEY_FILE: the key file is open to its group or others (mode 644); chmod 600 or 400 it');
    expect(solanaHotWalletSignerFromKeyFile(keyFile(KEY_TEXT, 0o644), 'SOLANA_HOT_WALLET_KEY_FILE', false).chain).toBe('SOLANA');
    expect(thrown(() => solanaHotWalletSignerFromKeyFile(path.join(dir, 'absent.json'), 'SOLANA_HOT_WALLET_KEY_FILE', true)).message)
      .toBe('SOLANA_HOT_WALLET_KEY_FILE: cannot read the key file (ENOENT)');
  });
});

describe('Solana refund configuration', () => {
  const rpc = { SOLANA_RPC_URLS: 'http://127.0.0.1:8899' };

  it('no key variable: no hot wallet', () => {
    expect(parseSolanaRefundConfig(rpc)).toBeUndefined();
    expect(parseSolanaRefundConfig({ ...rpc, SOLANA_HOT_WALLET_KEY: '  ' })).toBeUndefined();
  });

  it('the key in SOLANA_HOT_WALLET_KEY outside production, or in SOLANA_HOT_WALLET_KEY_FILE', () => {
    const expected = new SolanaHotWalletSigner(KEY_PAIR, 't').address;
    expect(parseSolanaRefundConfig({ ...rpc, SOLANA_HOT_WALLET_KEY: KEY_TEXT })?.signer.address).toBe(expected);
    expect(parseSolanaRefundConfig({ ...rpc, NODE_ENV: 'production', SOLANA_HOT_WALLET_KEY_FILE: keyFile(KEY_TEXT) })?.signer.address).toBe(expected);
  });

  it.each([
    ['both key variables', { SOLANA_HOT_WALLET_KEY: KEY_TEXT, SOLANA_HOT_WALLET_KEY_FILE: '/nowhere' }, 'set only one of SOLANA_HOT_WALLET_KEY_FILE and SOLANA_HOT_WALLET_KEY'],
    ['the key in a variable in production', { NODE_ENV: 'production', SOLANA_HOT_WALLET_KEY: KEY_TEXT }, 'SOLANA_HOT_WALLET_KEY: refused in production'],
    ['a key without SOLANA_RPC_URLS', { SOLANA_RPC_URLS: '', SOLANA_HOT_WALLET_KEY: KEY_TEXT }, 'SOLANA_RPC_URLS: a hot wallet needs the Solana RPC endpoints'],
    ['a malformed key', { SOLANA_HOT_WALLET_KEY: KEY_TEXT.replace('[', '{') }, 'SOLANA_HOT_WALLET_KEY: must be a JSON array of 64 bytes'],
  ])('refuses %s, naming variables and never the key', (_name, env, message) => {
    const error = thrown(() => parseSolanaRefundConfig({ ...rpc, ...env }));
    expect(error).toBeInstanceOf(SolanaConfigError);
    expect(error.message).toContain(message);
    expect(leaks(error.message + inspect(error))).toBe(false);
  });
});

describe('configured refund senders: Solana', () => {
  it('a key and SOLANA_RPC_URLS: the Solana sender of that key beside BSC\'s entry', () => {
    const senders = configuredRefundSenders(loadConfig({ SOLANA_RPC_URLS: 'http://127.0.0.1:8899', SOLANA_HOT_WALLET_KEY: KEY_TEXT }), noRpcErrors);
    expect(senders.map((s) => s && [s.chain, s.wallet])).toEqual([undefined, ['SOLANA', new SolanaHotWalletSigner(KEY_PAIR, 't').address]]);
  });

  it('no Solana key: its entry is undefined', () => {
    expect(configuredRefundSenders(loadConfig({ SOLANA_RPC_URLS: 'http://127.0.0.1:8899' }), noRpcErrors)).toEqual([undefined, undefined]);
  });

  it('a key without SOLANA_RPC_URLS is a ConfigError naming the variable, never the key', () => {
    const error = thrown(() => configuredRefundSenders(loadConfig({ SOLANA_HOT_WALLET_KEY: KEY_TEXT }), noRpcErrors));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variables).toEqual(expect.arrayContaining(['SOLANA_RPC_URLS']));
    expect(leaks(JSON.stringify(error) + String(error) + inspect(error))).toBe(false);
  });
});
