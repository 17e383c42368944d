import { z } from 'zod';
import type { Stablecoin } from '../../../core/shared/money';
import { BSC_DEVELOPMENT_XPUB, BSC_PUBLICLY_KNOWN_XPUBS, parseExtendedPublicKey } from './bsc-address-deriver';
import { rpcUrlList } from '../rpc-url-list';

/**
 * The real BEP-20 contracts on BSC mainnet, both with 18 decimals (docs/chains.md § BSC tokens):
 * Binance-Peg BSC-USD (USDT) https://bscscan.com/token/0x55d398326f99059fF775485246999027B3197955
 * and Binance-Peg USD Coin https://bscscan.com/token/0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d.
 */
export const BSC_MAINNET_TOKENS: Readonly<Record<Stablecoin, string>> = {
  USDT: '0x55d398326f99059fF775485246999027B3197955',
  USDC: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d',
};
/** Decimals of both BSC stablecoin contracts (and of the local test tokens). */
export const BSC_STABLECOIN_DECIMALS = 18;

/**
 * Blocks behind the head counted final when a node has no `finalized` tag: BSC's probabilistic
 * finality at a supermajority (> 2/3) of the 21 validators, 15 × TurnLength 8 = 120 blocks
 * (https://docs.bnbchain.org/bnb-smart-chain/developers/json_rpc/bsc-api-list/, "Probabilistic Finality").
 */
export const BSC_DEFAULT_CONFIRMATIONS = 120;

/** Variables that turn the BSC reader on: in production both, elsewhere the RPC URLs (the development key is the default). */
const REQUIRED_IN_PRODUCTION = ['BSC_RPC_URLS', 'BSC_DEPOSIT_XPUB'] as const;
const REQUIRED_ELSEWHERE = ['BSC_RPC_URLS'] as const;
/** Variables with defaults; setting one without the required ones is a partial configuration. */
const OPTIONAL = [
  'BSC_USDT_CONTRACT', 'BSC_USDC_CONTRACT', 'BSC_CONFIRMATIONS', 'BSC_START_BLOCK', 'BSC_SCAN_RANGE', 'BSC_RPC_TIMEOUT_MS',
] as const;
const ALL = ['BSC_RPC_URLS', 'BSC_DEPOSIT_XPUB', ...OPTIONAL] as const;

const contract = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a contract address, 0x and 40 hexadecimal digits').transform((a) => a.toLowerCase());
const int = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);

/** The BSC variables, after the partial-set check (docs/chains.md § Configuration). */
export const bscEnvSchema = z.object({
  BSC_RPC_URLS: rpcUrlList,
  BSC_DEPOSIT_XPUB: z.string().optional(),
  BSC_USDT_CONTRACT: contract.default(BSC_MAINNET_TOKENS.USDT.toLowerCase()),
  BSC_USDC_CONTRACT: contract.default(BSC_MAINNET_TOKENS.USDC.toLowerCase()),
  BSC_CONFIRMATIONS: int(1, 10_000, BSC_DEFAULT_CONFIRMATIONS),
  BSC_START_BLOCK: z.string().regex(/^\d{1,15}$/, 'must be a block number').transform((n) => BigInt(n)).optional(),
  BSC_SCAN_RANGE: int(1, 100_000, 2_000),
  BSC_RPC_TIMEOUT_MS: int(100, 120_000, 10_000),
});

/** The key deposit addresses are derived from. */
export interface BscDepositKey {
  /** BIP-32 extended public key (`xpub…`). */
  readonly xpub: string;
  /** True for the documented development key (BSC_DEVELOPMENT_XPUB), which anyone can sign for. */
  readonly development: boolean;
}

/** A token credited on BSC: which stablecoin, its contract (lower case), its decimals. */
export interface BscToken {
  readonly currency: Stablecoin;
  readonly contract: string;
  readonly decimals: number;
}

/** How the chain reader reaches BSC. */
export interface BscReaderConfig {
  /** JSON-RPC endpoints over http(s), in failover order. May carry API keys: never log them. */
  readonly rpcUrls: readonly string[];
  /** Blocks behind the head counted final when a node has no `finalized` tag. */
  readonly confirmations: number;
  /** First block scanned when no cursor is stored; undefined: the block after the finalized one at the first scan. */
  readonly startBlock?: bigint;
  /** Widest block range per `eth_getLogs` (ranges start here, halve on refusal, grow back to it). */
  readonly scanRange: number;
  /** Limit on each RPC request, ms. */
  readonly rpcTimeoutMs: number;
}

/** The BSC settings: the deposit key, the tokens, and the reader when BSC is on. */
export interface BscConfig {
  /** Undefined only in production with no BSC variable set (no BSC deposit addresses). */
  readonly depositKey?: BscDepositKey;
  /** USDT and USDC with their contracts (the mainnet ones unless configured). */
  readonly tokens: readonly BscToken[];
  /** Undefined when BSC_RPC_URLS is unset: addresses may be shown (development key), nothing is watched. */
  readonly reader?: BscReaderConfig;
}

/** A BSC configuration that cannot start: names the variables at fault, never their values. */
export class BscConfigError extends Error {
  override readonly name = 'BscConfigError';
}

/**
 * Reads the BSC variables from `env` (docs/chains.md § Configuration). With none set: outside
 * production the development deposit key and no reader (sandbox addresses, nothing watched); in
 * production nothing at all. With BSC_RPC_URLS set: the reader too. Throws `BscConfigError` when
 * only some variables are set (naming the missing ones), when one is malformed or both tokens
 * name one contract, and in production
 * for the development key (or anvil's), or for fewer than two distinct RPC URLs.
 */
export function parseBscConfig(env: Readonly<Record<string, string | undefined>>): BscConfig {
  const production = env.NODE_ENV === 'production';
  const present = (name: string) => env[name] !== undefined && env[name] !== '';
  const tokensOf = (usdt: string, usdc: string): BscToken[] => [
    { currency: 'USDT', contract: usdt, decimals: BSC_STABLECOIN_DECIMALS },
    { currency: 'USDC', contract: usdc, decimals: BSC_STABLECOIN_DECIMALS },
  ];
  if (!ALL.some(present)) {
    return {
      depositKey: production ? undefined : { xpub: BSC_DEVELOPMENT_XPUB, development: true },
      tokens: tokensOf(BSC_MAINNET_TOKENS.USDT.toLowerCase(), BSC_MAINNET_TOKENS.USDC.toLowerCase()),
    };
  }
  const required = production ? REQUIRED_IN_PRODUCTION : REQUIRED_ELSEWHERE;
  const missing = required.filter((name) => !present(name));
  if (missing.length > 0) {
    throw new BscConfigError(`BSC is partly configured: set ${missing.join(', ')} (or unset every BSC_ variable)`);
  }
  const picked = Object.fromEntries(ALL.filter(present).map((name) => [name, env[name]]));
  const parsed = bscEnvSchema.safeParse(picked);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  const xpub = parsed.data?.BSC_DEPOSIT_XPUB ?? BSC_DEVELOPMENT_XPUB;
  try {
    parseExtendedPublicKey(xpub);
  } catch (error) {
    problems.push(`BSC_DEPOSIT_XPUB: ${(error as Error).message}`);
  }
  if (production && BSC_PUBLICLY_KNOWN_XPUBS.includes(xpub)) {
    problems.push('BSC_DEPOSIT_XPUB: is the development key (anyone can sign for its addresses); production needs your own');
  }
  if (parsed.success && parsed.data.BSC_USDT_CONTRACT === parsed.data.BSC_USDC_CONTRACT) {
    problems.push('BSC_USDC_CONTRACT: is the same contract as BSC_USDT_CONTRACT');
  }
  if (production && parsed.success && new Set(parsed.data.BSC_RPC_URLS).size < 2) {
    problems.push('BSC_RPC_URLS: production needs at least two distinct endpoints (failover)');
  }
  if (!parsed.success || problems.length > 0) throw new BscConfigError(`Invalid BSC configuration: ${problems.join('; ')}`);
  const v = parsed.data;
  return {
    depositKey: { xpub, development: BSC_PUBLICLY_KNOWN_XPUBS.includes(xpub) },
    tokens: tokensOf(v.BSC_USDT_CONTRACT, v.BSC_USDC_CONTRACT),
    reader: {
      rpcUrls: v.BSC_RPC_URLS,
      confirmations: v.BSC_CONFIRMATIONS,
      ...(v.BSC_START_BLOCK !== undefined ? { startBlock: v.BSC_START_BLOCK } : {}),
      scanRange: v.BSC_SCAN_RANGE,
      rpcTimeoutMs: v.BSC_RPC_TIMEOUT_MS,
    },
  };
}
