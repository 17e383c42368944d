import { z } from 'zod';
import { BscConfigError } from './bsc-config';
import { BscHotWalletKeyError, BscHotWalletSigner, bscHotWalletSignerFromKeyFile } from './bsc-hot-wallet-signer';

/** The refund sender's tunables with defaults; setting one with no hot wallet key is a partial configuration. */
const SENDER_VARIABLES = ['BSC_REFUND_FEE_BUMP_PERCENT', 'BSC_REFUND_GAS_LIMIT', 'BSC_REFUND_MAX_GAS_PRICE_GWEI'] as const;

/**
 * Nodes refuse a replacement under the same nonce unless its gas price is at least 10 % higher
 * (geth's and BSC's `txpool.pricebump` default; the answer is "replacement transaction
 * underpriced", https://github.com/bnb-chain/bsc/blob/master/core/txpool/errors.go).
 */
export const BSC_MIN_FEE_BUMP_PERCENT = 10;

const int = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);

/** The refund variables (docs/chains.md § BSC refunds: configuration). */
const refundEnvSchema = z.object({
  REFUND_REPLACE_AFTER_MS: int(1_000, 86_400_000, 120_000),
  BSC_REFUND_FEE_BUMP_PERCENT: int(BSC_MIN_FEE_BUMP_PERCENT, 1_000, 20),
  // 21,000 is a bare BNB transfer; a BEP-20 transfer to a new holder takes about 52,000.
  BSC_REFUND_GAS_LIMIT: int(21_000, 1_000_000, 100_000),
  BSC_REFUND_MAX_GAS_PRICE_GWEI: int(1, 100_000, 50),
});

/** How the BSC hot wallet sends refunds. */
export interface BscRefundConfig {
  /** The hot wallet's key custody; its inspection shows the address only. */
  readonly signer: BscHotWalletSigner;
  /** A broadcast transaction not in a block this long after it was signed is replaced (ms). */
  readonly replaceAfterMs: number;
  /** A replacement's gas price is at least this many percent above the replaced one's (≥ 10). */
  readonly feeBumpPercent: number;
  /** Gas limit of each refund transaction (an ERC-20 `transfer`). */
  readonly gasLimit: bigint;
  /** The highest gas price a refund transaction may pay, wei (configured in gwei). */
  readonly maxGasPriceWei: bigint;
}

/**
 * Reads the BSC hot wallet variables from `env` (docs/chains.md § BSC refunds: configuration).
 * Undefined when neither BSC_HOT_WALLET_KEY_FILE nor BSC_HOT_WALLET_KEY is set: no hot wallet,
 * refunds stay with operators (docs/decisions.md § Refunds). Throws `BscConfigError` naming the
 * variables at fault, never quoting a key: both key variables set; BSC_HOT_WALLET_KEY with
 * NODE_ENV=production; a key file that cannot be read, holds no valid key, or (production) is open
 * to its group or others; a key without BSC_RPC_URLS (nothing to send through); a tunable out of
 * range or set without a key.
 */
export function parseBscRefundConfig(env: Readonly<Record<string, string | undefined>>): BscRefundConfig | undefined {
  const production = env.NODE_ENV === 'production';
  const present = (name: string) => env[name] !== undefined && env[name] !== '';
  const keyFile = present('BSC_HOT_WALLET_KEY_FILE');
  const keyHex = present('BSC_HOT_WALLET_KEY');
  if (!keyFile && !keyHex) {
    const stray = SENDER_VARIABLES.filter(present);
    if (stray.length > 0) throw new BscConfigError(`BSC refunds are partly configured: ${stray.join(', ')} set without BSC_HOT_WALLET_KEY_FILE`);
    return undefined;
  }
  const problems: string[] = [];
  if (keyFile && keyHex) problems.push('BSC_HOT_WALLET_KEY: set only one of BSC_HOT_WALLET_KEY_FILE and BSC_HOT_WALLET_KEY');
  if (keyHex && production) problems.push('BSC_HOT_WALLET_KEY: refused in production, where the key is read from BSC_HOT_WALLET_KEY_FILE');
  if (!present('BSC_RPC_URLS')) problems.push('BSC_RPC_URLS: a hot wallet needs the BSC RPC endpoints to send refunds through');
  const picked = Object.fromEntries(['REFUND_REPLACE_AFTER_MS', ...SENDER_VARIABLES].filter(present).map((name) => [name, env[name]]));
  const parsed = refundEnvSchema.safeParse(picked);
  if (!parsed.success) problems.push(...parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  let signer: BscHotWalletSigner | undefined;
  if (problems.length === 0) {
    try {
      signer = keyFile
        ? bscHotWalletSignerFromKeyFile(env.BSC_HOT_WALLET_KEY_FILE!, 'BSC_HOT_WALLET_KEY_FILE', production)
        : new BscHotWalletSigner(env.BSC_HOT_WALLET_KEY!, 'BSC_HOT_WALLET_KEY');
    } catch (error) {
      if (!(error instanceof BscHotWalletKeyError)) throw error;
      problems.push(error.message);
    }
  }
  if (!parsed.success || !signer || problems.length > 0) throw new BscConfigError(`Invalid BSC refund configuration: ${problems.join('; ')}`);
  const v = parsed.data;
  return {
    signer,
    replaceAfterMs: v.REFUND_REPLACE_AFTER_MS,
    feeBumpPercent: v.BSC_REFUND_FEE_BUMP_PERCENT,
    gasLimit: BigInt(v.BSC_REFUND_GAS_LIMIT),
    maxGasPriceWei: BigInt(v.BSC_REFUND_MAX_GAS_PRICE_GWEI) * 1_000_000_000n,
  };
}
