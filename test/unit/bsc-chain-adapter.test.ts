/**
 * The BSC entry of the chain adapters (docs/chains.md § Configuration) as the composition root
 * sees it through chainDeposits: off, on with the development key, on with an operator's key, and
 * refused configurations named by variable, never by value.
 */
import pino from 'pino';
import { BSC_DEVELOPMENT_XPUB, BSC_PUBLICLY_KNOWN_XPUBS, BscAddressDeriver } from '../../src/adapters/chains/bsc/bsc-address-deriver';
import { bscChainAdapter, bscKeyId } from '../../src/adapters/chains/bsc/bsc-chain-adapter';
import { BscChainReader } from '../../src/adapters/chains/bsc/bsc-chain-reader';
import { DEVELOPMENT_KEY_ID } from '../../src/adapters/chains/development-address-deriver';
import { CHAIN_ADAPTERS, chainDeposits } from '../../src/app/chain-deposits';
import { ConfigError, loadConfig } from '../../src/app/config';

const logger = pino({ level: 'silent' });
const metrics = { rpcError: () => undefined };
// BIP-32 test vector 1, m/0H: a valid extended public key that is nobody's development key.
const OWN_XPUB = 'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw';
const SECRET_URL = 'https://rpc.example.com/v1/SECRETKEY123';
const PRODUCTION = {
  NODE_ENV: 'production', SANDBOX_API_KEY: 'sk_sandbox_Q3v9Lm2Xr8Tn5Wc1Hb7Kd4Fp6Zs0Jy3GqPaR', ADMIN_API_KEY: 'sk_live_Zq7Wm3Xr8Tn5Lc1Hb7Kd4Fp6Vs0Jy3GqN2aE',
  WEBHOOK_SECRET_KEY: Buffer.from('k3Jd8vQ2mZx7Lr5Wc9Hb1Tn4Fp6Ys0Ga').toString('base64'),
};

const chainsOf = (env: Record<string, string>) => chainDeposits(loadConfig(env), logger, metrics);

/** The ConfigError chainDeposits throws for `env` (fails the test when it starts). */
function refusal(env: Record<string, string>): ConfigError {
  try {
    chainsOf(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('the configuration was accepted');
}

describe('BSC chain adapter', () => {
  it('is one of the composition root\'s chain adapters, switched on by the BSC_ prefix and loaded only then', () => {
    const entry = CHAIN_ADAPTERS.find((a) => a.prefix === 'BSC_');
    expect(entry?.load()).toBe(bscChainAdapter);
  });

  it('with no BSC variable: off (no supply); the root gives sandbox tenants development addresses and watches nothing', () => {
    expect(bscChainAdapter({ variables: { SOLANA_RPC_URLS: 'https://c' }, production: false, onRpcError: () => undefined })).toBeUndefined();
    const chains = chainsOf({});
    expect(chains.setups.find((s) => s.chain === 'BSC')?.keyId).toBe(DEVELOPMENT_KEY_ID);
    expect(chains.watched).toEqual([]);
  });

  it('with BSC_RPC_URLS only (outside production): watches BSC with the development key, for sandbox tenants, under the development key id', async () => {
    const chains = chainsOf({ BSC_RPC_URLS: 'http://127.0.0.1:8545' });
    const bsc = chains.setups.find((s) => s.chain === 'BSC')!;
    expect([bsc.keyId, bsc.serves]).toEqual([DEVELOPMENT_KEY_ID, ['sandbox']]);
    // docs/chains.md § Deposit addresses: address 0 of the development key.
    expect(await bsc.deriver.addressAt('BSC', 0)).toBe('0x8c8d35429f74ec245f8ef2f4fd1e551cff97d650');
    expect(await bsc.deriver.paymentAddress('BSC', 'USDT', '0x8c8d35429f74ec245f8ef2f4fd1e551cff97d650')).toBe('0x8c8d35429f74ec245f8ef2f4fd1e551cff97d650');
    expect(chains.watched).toHaveLength(1);
    expect(chains.watched[0]!.reader).toBeInstanceOf(BscChainReader);
    expect(chains.watched[0]!.reader.chain).toBe('BSC');
    expect([chains.watched[0]!.keyId, chains.watched[0]!.tokens.map((t) => t.currency)]).toEqual([DEVELOPMENT_KEY_ID, ['USDT', 'USDC']]);
    expect(() => bsc.deriver.addressAt('SOLANA', 0)).toThrow();
  });

  it('with an operator\'s xpub: every tenant served, a key id that is a fingerprint (never the key), the xpub\'s children as addresses', async () => {
    const chains = chainsOf({ BSC_RPC_URLS: 'http://127.0.0.1:8545', BSC_DEPOSIT_XPUB: OWN_XPUB });
    const bsc = chains.setups.find((s) => s.chain === 'BSC')!;
    expect(bsc.keyId).toBe(bscKeyId(OWN_XPUB));
    expect(bsc.keyId).toMatch(/^bsc-xpub-[0-9a-f]{16}$/);
    expect(bsc.keyId).not.toContain(OWN_XPUB.slice(4, 20));
    expect(bscKeyId(BSC_DEVELOPMENT_XPUB)).not.toBe(bsc.keyId);
    expect(bsc.serves).toEqual(['sandbox', 'live']);
    expect(await bsc.deriver.addressAt('BSC', 7)).toBe(new BscAddressDeriver(OWN_XPUB).addressAt(7));
    expect(chains.watched.map((w) => w.keyId)).toEqual([bsc.keyId]);
  });

  it('anvil\'s own key is a development key too, under its own key id (never mixed with the development key\'s addresses)', () => {
    const supply = bscChainAdapter({ variables: { BSC_RPC_URLS: 'http://127.0.0.1:8545', BSC_DEPOSIT_XPUB: BSC_PUBLICLY_KNOWN_XPUBS[1]! }, production: false, onRpcError: () => undefined });
    expect([supply?.developmentKey, supply?.keyId]).toEqual([true, bscKeyId(BSC_PUBLICLY_KNOWN_XPUBS[1]!)]);
  });

  it('in production: an operator\'s key over two endpoints is served to every tenant; the development key is refused, named, never quoted', () => {
    const live = chainsOf({ ...PRODUCTION, BSC_RPC_URLS: `https://a.example.com,${SECRET_URL}`, BSC_DEPOSIT_XPUB: OWN_XPUB });
    expect(live.setups.map((s) => [s.chain, s.serves])).toEqual([['BSC', ['sandbox', 'live']]]);
    expect(live.watched).toHaveLength(1);

    for (const xpub of BSC_PUBLICLY_KNOWN_XPUBS) {
      const error = refusal({ ...PRODUCTION, BSC_RPC_URLS: `https://a.example.com,${SECRET_URL}`, BSC_DEPOSIT_XPUB: xpub });
      expect(error.variables).toEqual(['BSC_DEPOSIT_XPUB']);
      expect(error.message).toContain('development key');
      expect(error.message).not.toContain(xpub);
      expect(error.message).not.toContain('SECRETKEY123');
    }
    // Without an xpub production does not fall back to the development key: it names the missing variable.
    expect(refusal({ ...PRODUCTION, BSC_RPC_URLS: `https://a.example.com,${SECRET_URL}` }).variables).toEqual(['BSC_DEPOSIT_XPUB']);
    expect(refusal({ ...PRODUCTION, BSC_RPC_URLS: SECRET_URL, BSC_DEPOSIT_XPUB: OWN_XPUB }).variables).toEqual(['BSC_RPC_URLS']);
  });

  it('refuses a partial or malformed configuration at start, naming the variables, never quoting a value', () => {
    expect(refusal({ BSC_DEPOSIT_XPUB: OWN_XPUB }).variables).toEqual(['BSC_RPC_URLS']);
    const badUrl = refusal({ BSC_RPC_URLS: `${SECRET_URL},ftp://SECRETKEY456@host` });
    expect(badUrl.variables).toEqual(['BSC_RPC_URLS']);
    expect(badUrl.message).not.toMatch(/SECRETKEY/);
    const xprv = 'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi';
    const privateKey = refusal({ BSC_RPC_URLS: 'http://127.0.0.1:8545', BSC_DEPOSIT_XPUB: xprv });
    expect(privateKey.variables).toEqual(['BSC_DEPOSIT_XPUB']);
    expect(privateKey.message).toContain('PRIVATE');
    expect(privateKey.message).not.toContain(xprv.slice(4, 30));
    expect(refusal({ BSC_RPC_URLS: 'http://127.0.0.1:8545', BSC_SCAN_RANGE: 'wide' }).variables).toEqual(['BSC_SCAN_RANGE']);
  });
});
