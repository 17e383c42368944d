/**
 * The BSC variables (docs/chains.md § Configuration): off, on, partial, malformed, and the
 * production rules (no development key, two endpoints at least).
 */
import { Registry } from 'prom-client';
import { BSC_DEVELOPMENT_XPUB, BSC_PUBLICLY_KNOWN_XPUBS } from '../../src/adapters/chains/bsc/bsc-address-deriver';
import { bscAddressDeriverFromConfig, bscChainReaderFromConfig, bscWatchedTokens } from '../../src/adapters/chains/bsc/bsc-chain';
import { BscConfigError, parseBscConfig } from '../../src/adapters/chains/bsc/bsc-config';
import { ChainRpcMetrics, endpointLabels } from '../../src/adapters/chains/rpc-endpoint-metrics';

// BIP-32 test vector 1, m/0H: a valid extended public key that is not a development key.
const OWN_XPUB = 'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw';
const MAINNET = [
  { currency: 'USDT', contract: '0x55d398326f99059ff775485246999027b3197955', decimals: 18 },
  { currency: 'USDC', contract: '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d', decimals: 18 },
];
const URLS = 'https://bsc-dataseed.bnbchain.org, https://rpc.example.com/v1/SECRETKEY123';

/** The error message parseBscConfig throws for `env` (fails the test when it does not throw). */
function refusal(env: Record<string, string>): string {
  try {
    parseBscConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(BscConfigError);
    return (error as Error).message;
  }
  throw new Error('parseBscConfig accepted the configuration');
}

describe('BSC configuration', () => {
  it('outside production with nothing set: the development key, the mainnet tokens, no reader', () => {
    expect(parseBscConfig({})).toEqual({ depositKey: { xpub: BSC_DEVELOPMENT_XPUB, development: true }, tokens: MAINNET });
    expect(parseBscConfig({ NODE_ENV: 'test', BSC_RPC_URLS: '' })).toEqual(parseBscConfig({}));
    expect(bscChainReaderFromConfig(parseBscConfig({}), new ChainRpcMetrics(new Registry()))).toBeUndefined();
    expect(bscAddressDeriverFromConfig(parseBscConfig({}).depositKey)!.addressAt(0)).toBe('0x8c8d35429f74ec245f8ef2f4fd1e551cff97d650');
  });

  it('in production with nothing set: no key, no reader (no BSC deposit addresses)', () => {
    const config = parseBscConfig({ NODE_ENV: 'production' });
    expect(config).toEqual({ depositKey: undefined, tokens: MAINNET });
    expect(bscAddressDeriverFromConfig(config.depositKey)).toBeUndefined();
  });

  it('on with every variable: exact settings, contracts in lower case', () => {
    const config = parseBscConfig({
      NODE_ENV: 'production', BSC_RPC_URLS: URLS, BSC_DEPOSIT_XPUB: OWN_XPUB,
      BSC_USDT_CONTRACT: '0x5FbDB2315678afecb367f032d93F642f64180aa3', BSC_USDC_CONTRACT: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
      BSC_CONFIRMATIONS: '30', BSC_START_BLOCK: '45000000', BSC_SCAN_RANGE: '500', BSC_RPC_TIMEOUT_MS: '4000',
    });
    expect(config).toEqual({
      depositKey: { xpub: OWN_XPUB, development: false },
      tokens: [
        { currency: 'USDT', contract: '0x5fbdb2315678afecb367f032d93f642f64180aa3', decimals: 18 },
        { currency: 'USDC', contract: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', decimals: 18 },
      ],
      reader: {
        rpcUrls: ['https://bsc-dataseed.bnbchain.org', 'https://rpc.example.com/v1/SECRETKEY123'],
        confirmations: 30, startBlock: 45_000_000n, scanRange: 500, rpcTimeoutMs: 4000,
      },
    });
    expect(bscWatchedTokens(config)).toEqual([
      { chain: 'BSC', currency: 'USDT', token: '0x5fbdb2315678afecb367f032d93f642f64180aa3', decimals: 18 },
      { chain: 'BSC', currency: 'USDC', token: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', decimals: 18 },
    ]);
    expect(bscChainReaderFromConfig(config, new ChainRpcMetrics(new Registry()))!.chain).toBe('BSC');
  });

  it('on outside production with the RPC URLs alone: the development key and the defaults', () => {
    expect(parseBscConfig({ BSC_RPC_URLS: 'http://127.0.0.1:8545' })).toEqual({
      depositKey: { xpub: BSC_DEVELOPMENT_XPUB, development: true },
      tokens: MAINNET,
      reader: { rpcUrls: ['http://127.0.0.1:8545'], confirmations: 120, scanRange: 2000, rpcTimeoutMs: 10_000 },
    });
  });

  it('refuses a partial set, naming what is missing', () => {
    expect(refusal({ BSC_USDT_CONTRACT: '0x5fbdb2315678afecb367f032d93f642f64180aa3' })).toBe(
      'BSC is partly configured: set BSC_RPC_URLS (or unset every BSC_ variable)');
    expect(refusal({ BSC_DEPOSIT_XPUB: OWN_XPUB })).toMatch(/set BSC_RPC_URLS /);
    expect(refusal({ NODE_ENV: 'production', BSC_RPC_URLS: URLS })).toMatch(/set BSC_DEPOSIT_XPUB /);
    expect(refusal({ NODE_ENV: 'production', BSC_CONFIRMATIONS: '5' })).toMatch(/set BSC_RPC_URLS, BSC_DEPOSIT_XPUB /);
  });

  it.each(BSC_PUBLICLY_KNOWN_XPUBS.map((xpub, i) => [i, xpub]))('refuses publicly known key %i in production', (_, xpub) => {
    expect(refusal({ NODE_ENV: 'production', BSC_RPC_URLS: URLS, BSC_DEPOSIT_XPUB: xpub })).toMatch(/BSC_DEPOSIT_XPUB: is the development key/);
    expect(parseBscConfig({ BSC_RPC_URLS: URLS, BSC_DEPOSIT_XPUB: xpub }).depositKey).toEqual({ xpub, development: true });
  });

  it('refuses fewer than two distinct endpoints in production', () => {
    expect(refusal({ NODE_ENV: 'production', BSC_RPC_URLS: 'https://a.example', BSC_DEPOSIT_XPUB: OWN_XPUB })).toMatch(/at least two distinct endpoints/);
    expect(refusal({ NODE_ENV: 'production', BSC_RPC_URLS: 'https://a.example,https://a.example', BSC_DEPOSIT_XPUB: OWN_XPUB })).toMatch(/at least two distinct/);
  });

  it.each([
    ['an extended private key', { BSC_DEPOSIT_XPUB: 'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi' }, /BSC_DEPOSIT_XPUB: is an extended PRIVATE key/],
    ['a key that does not decode', { BSC_DEPOSIT_XPUB: 'xpub123' }, /BSC_DEPOSIT_XPUB: not a BIP-32 extended public key/],
    ['a URL that is not http(s)', { BSC_RPC_URLS: 'https://a.example,wss://b.example/KEY' }, /BSC_RPC_URLS: item 2 is not an http\(s\) URL/],
    ['a contract that is not an address', { BSC_USDT_CONTRACT: '0x1234' }, /BSC_USDT_CONTRACT: must be a contract address/],
    ['one contract for both tokens', { BSC_USDT_CONTRACT: '0x5fbdb2315678afecb367f032d93f642f64180aa3', BSC_USDC_CONTRACT: '0x5FBDB2315678afecb367f032d93f642f64180aa3' }, /BSC_USDC_CONTRACT: is the same contract/],
    ['confirmations of 0', { BSC_CONFIRMATIONS: '0' }, /BSC_CONFIRMATIONS/],
    ['a start block that is not a number', { BSC_START_BLOCK: '-5' }, /BSC_START_BLOCK: must be a block number/],
    ['a scan range of 0', { BSC_SCAN_RANGE: '0' }, /BSC_SCAN_RANGE/],
    ['a timeout under 100 ms', { BSC_RPC_TIMEOUT_MS: '50' }, /BSC_RPC_TIMEOUT_MS/],
  ])('refuses %s, never quoting a value', (_, vars, message) => {
    const env: Record<string, string> = { BSC_RPC_URLS: URLS, ...vars };
    const text = refusal(env);
    expect(text).toMatch(message);
    for (const value of Object.values(vars)) expect(text).not.toContain(value);
    expect(text).not.toContain('SECRETKEY123');
  });

  it('labels endpoints by host only (API keys live in paths and queries), numbering a repeated host', () => {
    expect(endpointLabels([
      'https://bsc-dataseed.bnbchain.org', 'https://user:pass@rpc.example.com/v1/SECRETKEY123?key=abc', 'https://rpc.example.com:8443/other', 'https://rpc.example.com/v2/KEY2',
    ])).toEqual(['bsc-dataseed.bnbchain.org', 'rpc.example.com', 'rpc.example.com:8443', 'rpc.example.com#2']);
  });
});
