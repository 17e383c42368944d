import type { Blockchain } from '../catalog/catalog';
import { Decimal, type Stablecoin } from '../shared/money';

/**
 * A hot wallet's balances and their low watermarks (docs/decisions.md § Refunds: balances as
 * metrics; docs/operations.md § Refunds: thresholds). Pure.
 */

/** The native coin that pays a chain's fees. */
export const GAS_CURRENCY = { BSC: 'BNB', SOLANA: 'SOL' } as const satisfies Record<Blockchain, string>;
export type GasCurrency = (typeof GAS_CURRENCY)[Blockchain];

/**
 * What a hot wallet holds now, as its `RefundSender.balances()` reads it: `gas` in its chain's
 * native coin (BNB or SOL, decimal string in whole coins, exact), and each configured stablecoin's
 * token balance (decimal string in whole tokens, exact at the token's decimals).
 */
export interface HotWalletBalances {
  readonly gas: string;
  readonly tokens: readonly { readonly currency: Stablecoin; readonly amount: string }[];
}

/**
 * Low watermarks (decimal strings, whole coins or tokens): a balance strictly below its watermark
 * is low. Unset, that balance is never low.
 */
export interface LowWatermarks {
  /** Per native coin (REFUND_GAS_LOW_WATERMARK_BNB, REFUND_GAS_LOW_WATERMARK_SOL). */
  readonly gas: Partial<Record<GasCurrency, string>>;
  /** Per stablecoin, on every chain (REFUND_TOKEN_LOW_WATERMARK_USDT, REFUND_TOKEN_LOW_WATERMARK_USDC). */
  readonly tokens: Partial<Record<Stablecoin, string>>;
}

/** One balance of a hot wallet judged against its watermark: `currency` is the native coin for gas. */
export interface JudgedBalance {
  readonly kind: 'gas' | 'token';
  readonly currency: GasCurrency | Stablecoin;
  readonly amount: string;
  /** The watermark it was judged against; undefined when none is set. */
  readonly watermark: string | undefined;
  readonly low: boolean;
}

/** Each of `balances` on `chain` judged against `watermarks`: gas first, then tokens in the order given. Pure. */
export function judgeBalances(chain: Blockchain, balances: HotWalletBalances, watermarks: LowWatermarks): JudgedBalance[] {
  const judge = (kind: JudgedBalance['kind'], currency: JudgedBalance['currency'], amount: string, watermark: string | undefined): JudgedBalance => ({
    kind, currency, amount, watermark, low: watermark !== undefined && new Decimal(amount).lt(watermark),
  });
  const gas = GAS_CURRENCY[chain];
  return [judge('gas', gas, balances.gas, watermarks.gas[gas]), ...balances.tokens.map((t) => judge('token', t.currency, t.amount, watermarks.tokens[t.currency]))];
}
