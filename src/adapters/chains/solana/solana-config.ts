import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { z } from 'zod';
import { developmentSolanaSeed } from '../development-address-deriver';
import { DEVELOPMENT_SOLANA_FINGERPRINT, SeedKeyCustody } from './solana-key-custody';
import { rpcUrlList } from '../rpc-url-list';

/**
 * The Solana adapter's own variables (docs/chains.md § Solana configuration). The mints and their
 * decimals (SOLANA_USDC_MINT, SOLANA_USDT_MINT, SOLANA_TOKEN_DECIMALS) belong to the service's
 * configuration and reach the adapter as its watched tokens.
 */
const OWN = ['SOLANA_RPC_URLS', 'SOLANA_DEPOSIT_SEED', 'SOLANA_START_SLOT', 'SOLANA_RPC_TIMEOUT_MS'] as const;


const schema = z.object({
  SOLANA_RPC_URLS: rpcUrlList,
  SOLANA_DEPOSIT_SEED: z.string().optional(),
  SOLANA_START_SLOT: z.string().regex(/^\d{1,15}$/, 'must be a slot number').transform((n) => BigInt(n)).optional(),
  SOLANA_RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
});

/** How the Solana reader reaches the chain. */
export interface SolanaReaderConfig {
  /** JSON-RPC endpoints over http(s), in failover order. May carry API keys: never log them. */
  readonly rpcUrls: readonly string[];
  /** Transactions in slots below this one are never read; undefined: an account's whole history. */
  readonly startSlot?: bigint;
  /** Limit on each RPC request, ms. */
  readonly rpcTimeoutMs: number;
}

/** The Solana settings when SOLANA_RPC_URLS is set. */
export interface SolanaConfig {
  /** The deposit seed (16 to 64 bytes). Secret: never log it; name it by the custody's fingerprint. */
  readonly seed: Uint8Array;
  /** True for the documented development seed (anyone can spend from its owners). */
  readonly development: boolean;
  readonly reader: SolanaReaderConfig;
}

/** A Solana configuration that cannot start: names the variables at fault, never their values. */
export class SolanaConfigError extends Error {
  override readonly name = 'SolanaConfigError';
}

/**
 * Reads a deposit seed: 32 to 128 hexadecimal digits (the seed's bytes, e.g. a BIP-39 seed of
 * 64 bytes), or a BIP-39 English mnemonic of 12 to 24 words (its seed with no passphrase, as
 * wallets derive it: https://github.com/bitcoin/bips/blob/master/bip-0039.mediawiki, "From
 * mnemonic to seed"). Throws an Error that never quotes the text.
 */
export function parseSolanaSeed(text: string): Uint8Array {
  const trimmed = text.trim();
  if (/^([0-9a-fA-F]{2}){16,64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  const words = trimmed.toLowerCase().split(/\s+/).join(' ');
  if (validateMnemonic(words, wordlist)) return mnemonicToSeedSync(words);
  throw new Error('must be 32 to 128 hexadecimal digits or a BIP-39 English mnemonic');
}

/**
 * Reads the Solana variables from `env` (docs/chains.md § Solana configuration). Undefined when
 * none of the adapter's own variables is set (Solana off: the development key's addresses outside
 * production, none in production). With SOLANA_RPC_URLS set: the reader, and the seed from
 * SOLANA_DEPOSIT_SEED or, outside production, the development seed. Throws `SolanaConfigError`
 * (naming variables, never values) when some variables are set without SOLANA_RPC_URLS, when
 * production lacks SOLANA_DEPOSIT_SEED, gives the development seed or fewer than two distinct RPC
 * URLs, or when a value is malformed.
 */
export function parseSolanaConfig(env: Readonly<Record<string, string | undefined>>): SolanaConfig | undefined {
  const production = env.NODE_ENV === 'production';
  const present = (name: string) => env[name] !== undefined && env[name]!.trim() !== '';
  if (!OWN.some(present)) return undefined;
  const missing = [...(production ? ['SOLANA_RPC_URLS', 'SOLANA_DEPOSIT_SEED'] : ['SOLANA_RPC_URLS'])].filter((name) => !present(name));
  if (missing.length > 0) throw new SolanaConfigError(`Solana is partly configured: set ${missing.join(', ')} (or unset every SOLANA_ deposit variable)`);
  const parsed = schema.safeParse(Object.fromEntries(OWN.filter(present).map((name) => [name, env[name]])));
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  let seed: Uint8Array = developmentSolanaSeed();
  if (present('SOLANA_DEPOSIT_SEED')) {
    try {
      seed = parseSolanaSeed(env.SOLANA_DEPOSIT_SEED!);
    } catch (error) {
      problems.push(`SOLANA_DEPOSIT_SEED: ${(error as Error).message}`);
    }
  }
  const development = isDevelopmentSeed(seed);
  if (production && development) problems.push('SOLANA_DEPOSIT_SEED: is the development seed (anyone can spend from its owners); production needs your own');
  if (production && parsed.success && new Set(parsed.data.SOLANA_RPC_URLS).size < 2) {
    problems.push('SOLANA_RPC_URLS: production needs at least two distinct endpoints (failover)');
  }
  if (!parsed.success || problems.length > 0) throw new SolanaConfigError(`Invalid Solana configuration: ${problems.join('; ')}`);
  const v = parsed.data;
  return {
    seed, development,
    reader: { rpcUrls: v.SOLANA_RPC_URLS, rpcTimeoutMs: v.SOLANA_RPC_TIMEOUT_MS, ...(v.SOLANA_START_SLOT !== undefined ? { startSlot: v.SOLANA_START_SLOT } : {}) },
  };
}

/** Whether `seed` derives the development owners (compared by fingerprint, so a hex copy of the development seed counts too). */
function isDevelopmentSeed(seed: Uint8Array): boolean {
  return seed.length >= 16 && seed.length <= 64 && new SeedKeyCustody(seed).fingerprint === DEVELOPMENT_SOLANA_FINGERPRINT;
}
