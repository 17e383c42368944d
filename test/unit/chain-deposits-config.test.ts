import pino from 'pino';
import { DEVELOPMENT_KEY_ID } from '../../src/adapters/chains/development-address-deriver';
import { chainDeposits, watchedTokens } from '../../src/app/chain-deposits';
import { ConfigError, loadConfig } from '../../src/app/config';
import { FakeChain, TestDeriver } from '../support/deposit-fakes';

const logger = pino({ level: 'silent' });
const metrics = { rpcError: () => undefined };
const PRODUCTION = {
  NODE_ENV: 'production', SANDBOX_API_KEY: 'sk_sandbox_Q3v9Lm2Xr8Tn5Wc1Hb7Kd4Fp6Zs0Jy3GqPaR', ADMIN_API_KEY: 'sk_live_Zq7Wm3Xr8Tn5Lc1Hb7Kd4Fp6Vs0Jy3GqN2aE',
  WEBHOOK_SECRET_KEY: Buffer.from('k3Jd8vQ2mZx7Lr5Wc9Hb1Tn4Fp6Ys0Ga').toString('base64'),
};

/** The chains as configured (docs/decisions.md § Onchain deposits: sandbox addresses). */
describe('chain deposits configuration', () => {
  it('watches the real contracts and mints by default, BSC at 18 decimals and Solana at 6; each is configurable', () => {
    expect(watchedTokens(loadConfig({}))).toEqual([
      { chain: 'BSC', currency: 'USDT', token: '0x55d398326f99059ff775485246999027b3197955', decimals: 18 },
      { chain: 'BSC', currency: 'USDC', token: '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d', decimals: 18 },
      { chain: 'SOLANA', currency: 'USDC', token: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', decimals: 6 },
      { chain: 'SOLANA', currency: 'USDT', token: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', decimals: 6 },
    ]);
    const local = watchedTokens(loadConfig({ BSC_USDT_CONTRACT: `0x${'Ab'.repeat(20)}`, BSC_TOKEN_DECIMALS: '6' }));
    expect(local[0]).toEqual({ chain: 'BSC', currency: 'USDT', token: `0x${'ab'.repeat(20)}`, decimals: 6 });
    expect(() => loadConfig({ BSC_USDC_CONTRACT: '0x123' })).toThrow(ConfigError);
    expect(() => loadConfig({ SOLANA_USDC_MINT: 'not-base58-0OIl' })).toThrow(ConfigError);
  });

  it('refuses a lease shorter than two watcher intervals', () => {
    expect(() => loadConfig({ CHAIN_WATCH_INTERVAL_MS: '5000', CHAIN_WATCH_LEASE_MS: '9999' }))
      .toThrow('CHAIN_WATCH_LEASE_MS must be at least twice CHAIN_WATCH_INTERVAL_MS');
    expect(loadConfig({ CHAIN_WATCH_INTERVAL_MS: '5000', CHAIN_WATCH_LEASE_MS: '10000' }).CHAIN_WATCH_LEASE_MS).toBe(10_000);
  });

  it('with no chain configured gives sandbox tenants development addresses on both chains, and watches nothing', () => {
    const chains = chainDeposits(loadConfig({}), logger, metrics);
    expect(chains.setups.map((s) => [s.chain, s.keyId, s.serves, s.tokens.map((t) => t.currency)])).toEqual([
      ['BSC', DEVELOPMENT_KEY_ID, ['sandbox'], ['USDT', 'USDC']], ['SOLANA', DEVELOPMENT_KEY_ID, ['sandbox'], ['USDC', 'USDT']],
    ]);
    expect(chains.watched).toEqual([]);
  });

  it('serves every tenant from a configured key and watches its reader; the development key serves sandbox tenants only', () => {
    const reader = new FakeChain('SOLANA');
    const chains = chainDeposits(loadConfig({}), logger, metrics, [
      { chain: 'SOLANA', reader, deriver: new TestDeriver(), keyId: 'seed-1', developmentKey: false },
      { chain: 'BSC', deriver: new TestDeriver(), keyId: DEVELOPMENT_KEY_ID, developmentKey: true },
    ]);
    expect(chains.setups.map((s) => [s.chain, s.keyId, s.serves])).toEqual([['BSC', DEVELOPMENT_KEY_ID, ['sandbox']], ['SOLANA', 'seed-1', ['sandbox', 'live']]]);
    expect(chains.watched.map((w) => [w.reader, w.keyId, w.tokens.map((t) => t.currency)])).toEqual([[reader, 'seed-1', ['USDC', 'USDT']]]);
  });

  it('in production: no development addresses, the development key refused at start, one supply per chain', () => {
    expect(chainDeposits(loadConfig(PRODUCTION), logger, metrics).setups).toEqual([]);
    const dev = { chain: 'BSC' as const, deriver: new TestDeriver(), keyId: DEVELOPMENT_KEY_ID, developmentKey: true };
    expect(() => chainDeposits(loadConfig(PRODUCTION), logger, metrics, [dev])).toThrow('BSC: the development deposit key is refused in production');
    expect(() => chainDeposits(loadConfig({}), logger, metrics, [{ ...dev, developmentKey: false }, { ...dev, developmentKey: false }])).toThrow('BSC: configured twice');
  });

  it('hands the chain adapters every BSC_* and SOLANA_* variable as set', () => {
    expect(loadConfig({ BSC_RPC_URLS: 'https://a,https://b', SOLANA_RPC_URLS: 'https://c', OTHER: 'x', BSC_EMPTY: '' }).chainVariables)
      .toEqual({ BSC_RPC_URLS: 'https://a,https://b', SOLANA_RPC_URLS: 'https://c' });
  });
});
