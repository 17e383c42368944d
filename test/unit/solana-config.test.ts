/**
 * The Solana variables (docs/chains.md § Solana configuration): off, on, partial, malformed, the
 * seed's two forms, and the production rules (own seed, two endpoints at least); and the chain
 * adapter's supply (key id, development flag).
 */
import { mnemonicToSeedSync } from '@scure/bip39';
import { developmentSolanaSeed, DEVELOPMENT_KEY_ID, DEVELOPMENT_MNEMONIC } from '../../src/adapters/chains/development-address-deriver';
import { solanaChainAdapter } from '../../src/adapters/chains/solana/solana-chain';
import { parseSolanaConfig, SolanaConfigError } from '../../src/adapters/chains/solana/solana-config';
import type { WatchedToken } from '../../src/core/deposits/chain-ports';

const URLS = 'https://api.mainnet-beta.solana.com, https://rpc.example.com/v1/SECRETKEY123';
const SEED_HEX = 'ab'.repeat(64);
const MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const TOKENS: WatchedToken[] = [{ chain: 'SOLANA', currency: 'USDC', token: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', decimals: 6 }];

function refusal(env: Record<string, string>): string {
  try {
    parseSolanaConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(SolanaConfigError);
    return (error as Error).message;
  }
  throw new Error('parseSolanaConfig accepted the configuration');
}

describe('Solana configuration', () => {
  it('is off with none of its own variables set (the mints belong to the service configuration)', () => {
    expect(parseSolanaConfig({})).toBeUndefined();
    expect(parseSolanaConfig({ SOLANA_USDC_MINT: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', SOLANA_RPC_URLS: '' })).toBeUndefined();
    expect(parseSolanaConfig({ NODE_ENV: 'production' })).toBeUndefined();
  });

  it('outside production: the RPC URLs turn it on with the development seed; a seed and a start slot are read', () => {
    expect(parseSolanaConfig({ SOLANA_RPC_URLS: 'http://127.0.0.1:8899' })).toEqual({
      seed: developmentSolanaSeed(), development: true, reader: { rpcUrls: ['http://127.0.0.1:8899'], rpcTimeoutMs: 10_000 },
    });
    expect(parseSolanaConfig({ SOLANA_RPC_URLS: URLS, SOLANA_DEPOSIT_SEED: SEED_HEX, SOLANA_START_SLOT: '250000000', SOLANA_RPC_TIMEOUT_MS: '2500' })).toEqual({
      seed: Buffer.from(SEED_HEX, 'hex'), development: false,
      reader: { rpcUrls: ['https://api.mainnet-beta.solana.com', 'https://rpc.example.com/v1/SECRETKEY123'], rpcTimeoutMs: 2500, startSlot: 250_000_000n },
    });
  });

  it('reads a BIP-39 mnemonic as its seed, and knows the development mnemonic in either form', () => {
    expect(parseSolanaConfig({ SOLANA_RPC_URLS: URLS, SOLANA_DEPOSIT_SEED: `  ${MNEMONIC.toUpperCase()} ` })!.seed).toEqual(mnemonicToSeedSync(MNEMONIC));
    expect(parseSolanaConfig({ SOLANA_RPC_URLS: URLS, SOLANA_DEPOSIT_SEED: DEVELOPMENT_MNEMONIC })!.development).toBe(true);
    expect(parseSolanaConfig({ SOLANA_RPC_URLS: URLS, SOLANA_DEPOSIT_SEED: developmentSolanaSeed().toString('hex') })!.development).toBe(true);
  });

  it('refuses a partial or malformed configuration, naming variables and never quoting values', () => {
    expect(refusal({ SOLANA_DEPOSIT_SEED: SEED_HEX })).toMatch(/partly configured: set SOLANA_RPC_URLS/);
    const bad = refusal({ SOLANA_RPC_URLS: 'ftp://x/SECRETKEY123,', SOLANA_DEPOSIT_SEED: 'not a seed SECRETWORDS', SOLANA_START_SLOT: '-1', SOLANA_RPC_TIMEOUT_MS: '5' });
    expect(bad).toMatch(/SOLANA_RPC_URLS: item 1 is not an http\(s\) URL/);
    expect(bad).toMatch(/SOLANA_DEPOSIT_SEED: must be 32 to 128 hexadecimal digits or a BIP-39 English mnemonic/);
    expect(bad).toMatch(/SOLANA_START_SLOT: must be a slot number/);
    expect(bad).toMatch(/SOLANA_RPC_TIMEOUT_MS/);
    expect(bad).not.toMatch(/SECRET/);
    expect(refusal({ SOLANA_RPC_URLS: URLS, SOLANA_DEPOSIT_SEED: 'ab'.repeat(15) })).toMatch(/SOLANA_DEPOSIT_SEED/);
  });

  it('in production: an own seed and two distinct endpoints are required; the development seed is refused', () => {
    const production = { NODE_ENV: 'production' };
    expect(refusal({ ...production, SOLANA_RPC_URLS: URLS })).toMatch(/set SOLANA_DEPOSIT_SEED/);
    expect(refusal({ ...production, SOLANA_RPC_URLS: URLS, SOLANA_DEPOSIT_SEED: DEVELOPMENT_MNEMONIC })).toMatch(/SOLANA_DEPOSIT_SEED: is the development seed/);
    expect(refusal({ ...production, SOLANA_RPC_URLS: 'https://a.example, https://a.example', SOLANA_DEPOSIT_SEED: SEED_HEX })).toMatch(/at least two distinct endpoints/);
    expect(parseSolanaConfig({ ...production, SOLANA_RPC_URLS: URLS, SOLANA_DEPOSIT_SEED: SEED_HEX })!.development).toBe(false);
  });
});

describe('Solana chain adapter', () => {
  const context = (variables: Record<string, string>, production = false) => ({ variables, production, tokens: TOKENS, onRpcError: () => undefined });

  it('is off without its variables; the development seed keeps the development key id and is marked; another seed is named by its fingerprint', () => {
    expect(solanaChainAdapter(context({}))).toBeUndefined();
    const development = solanaChainAdapter(context({ SOLANA_RPC_URLS: URLS }))!;
    expect(development).toMatchObject({ chain: 'SOLANA', keyId: DEVELOPMENT_KEY_ID, developmentKey: true });
    const own = solanaChainAdapter(context({ SOLANA_RPC_URLS: URLS, SOLANA_DEPOSIT_SEED: SEED_HEX }, true))!;
    expect(own).toMatchObject({ chain: 'SOLANA', developmentKey: false, keyId: expect.stringMatching(/^solana:[0-9a-f]{16}$/) });
    expect(own.keyId).not.toContain(SEED_HEX.slice(0, 8));
    expect(() => solanaChainAdapter(context({ SOLANA_RPC_URLS: URLS, SOLANA_DEPOSIT_SEED: DEVELOPMENT_MNEMONIC }, true))).toThrow(SolanaConfigError);
  });
});
