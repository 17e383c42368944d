import type { CountryCode, PaymentMethod } from '../catalog/catalog';
import { Decimal } from '../shared/money';

/**
 * The spread the operator sets on top of the mid rate, in percent (e.g. `"0.5"`), per corridor and
 * payment method (docs/decisions.md § FX quotes: live rates): `byCorridor` keys are
 * `<country>:<method>` (e.g. `KE:MOMO`) or `*:<method>` (any country); `default` covers the rest.
 */
export interface SpreadTable {
  readonly default: string;
  readonly byCorridor: Readonly<Record<string, string>>;
}

/** Places a priced rate keeps: at most 6 after the point, cut toward the service (never over-pay fiat). */
const PRICED_RATE_PLACES = 6;

/** The spread, in percent, for a corridor: `<country>:<method>`, else `*:<method>`, else the default. Pure. */
export function spreadFor(table: SpreadTable, paymentMethod: PaymentMethod, country?: CountryCode): string {
  return (country && table.byCorridor[`${country}:${paymentMethod}`]) ?? table.byCorridor[`*:${paymentMethod}`] ?? table.default;
}

/**
 * The rate a payout is priced at (units of fiat per 1 stablecoin): `mid * (1 - spread / 100)`, cut
 * (not rounded) at 6 places, so the payer funds slightly more stablecoin than the mid implies and
 * never less (docs/decisions.md § FX quotes: live rates). Pure; exact decimals.
 */
export function applySpread(mid: string, spreadPercent: string): string {
  const factor = new Decimal(1).minus(new Decimal(spreadPercent).div(100));
  return new Decimal(mid).times(factor).toDecimalPlaces(PRICED_RATE_PLACES, Decimal.ROUND_DOWN).toString();
}
