import DecimalBase from 'decimal.js';
import { err, ok, type Result } from './result';

/**
 * Exact decimal arithmetic for money (docs/decisions.md § Money). A private Decimal clone so no other module's
 * configuration can change ours: 40 significant digits, and `toString()` never switches to
 * exponent notation, so formatting stays plain decimal.
 */
export const Decimal = DecimalBase.clone({ precision: 40, toExpNeg: -9e15, toExpPos: 9e15 });
export type Decimal = InstanceType<typeof Decimal>;

/** Stablecoins the service settles in (OpenAPI getPayment). */
export const STABLECOINS = ['USDC', 'USDT'] as const;
export type Stablecoin = (typeof STABLECOINS)[number];

/** Every fiat currency any endpoint accepts (docs/decisions.md § Corridor catalog). */
export const FIAT_CURRENCIES = ['GHS', 'KES', 'NGN', 'TZS', 'UGX', 'XAF', 'XOF', 'ZAR', 'ZMW', 'ETB'] as const;
export type FiatCurrency = (typeof FIAT_CURRENCIES)[number];
export type Currency = Stablecoin | FiatCurrency;

/** Digits after the decimal point per currency: ISO 4217 for fiat, 6 for stablecoins (docs/decisions.md § Money). */
const SCALE: Record<Currency, number> = {
  USDC: 6, USDT: 6,
  GHS: 2, KES: 2, NGN: 2, TZS: 2, ZAR: 2, ZMW: 2, ETB: 2,
  UGX: 0, XAF: 0, XOF: 0,
};

/** Number of decimal places allowed for `currency`. */
export function scaleOf(currency: Currency): number {
  return SCALE[currency];
}

/**
 * Every caller-supplied amount must be below this (10^15, any currency): far above any real
 * payment, and far enough below the stored precision (numeric(38, 6)) that no conversion or fee
 * computed from it can overflow a column.
 */
const AMOUNT_CEILING_TEXT = '1000000000000000';
export const AMOUNT_CEILING = new Decimal(AMOUNT_CEILING_TEXT);

/**
 * Parses a caller-supplied amount (JSON number or decimal string) into an exact Decimal.
 * A JSON number is read through its shortest round-trip representation, which is what the
 * caller wrote for any amount a float can carry.
 * Errors: `validation_error` when not a finite positive decimal, when it has more decimals
 * than `maxScale`, or when it is not below AMOUNT_CEILING.
 */
export function parseAmount(
  input: number | string,
  field: string,
  maxScale: number,
): Result<Decimal, 'validation_error'> {
  const text = typeof input === 'number' ? String(input) : input.trim();
  if (!/^\d+(\.\d+)?$/.test(text) || (typeof input === 'number' && !Number.isFinite(input))) {
    return err('validation_error', `${field} must be a positive decimal number`, { field });
  }
  const value = new Decimal(text);
  if (value.lte(0)) return err('validation_error', `${field} must be greater than 0`, { field });
  if (value.gte(AMOUNT_CEILING)) return err('validation_error', `${field} must be less than ${AMOUNT_CEILING_TEXT}`, { field });
  if (value.decimalPlaces() > maxScale) {
    return err('validation_error', `${field} allows at most ${maxScale} decimal places`, { field });
  }
  return ok(value);
}

/** Rounds up (away from zero) to the currency's scale: we never under-collect (docs/decisions.md § Money). */
export function roundUp(value: Decimal, currency: Currency): Decimal {
  return value.toDecimalPlaces(scaleOf(currency), Decimal.ROUND_UP);
}

/**
 * Plain decimal string with exactly the currency's scale, e.g. `formatAmount(1500, 'KES')` is
 * `"1500.00"` and `formatAmount('11.5', 'USDC')` is `"11.500000"`. Rounds half-even if the value
 * carries more digits (callers round explicitly first where the direction matters).
 */
export function formatAmount(value: Decimal | string | number, currency: Currency): string {
  const scale = scaleOf(currency);
  return (typeof value === 'string' && padPlain(value, scale)) || padScale(new Decimal(value).toDecimalPlaces(scale, Decimal.ROUND_HALF_EVEN), scale);
}

/** A canonical non-negative plain decimal string (no sign, no leading zeros, no exponent). */
const PLAIN = /^(?:0|[1-9]\d*)(?:\.(\d+))?$/;

/**
 * `value` at `scale` by string edits alone, when that is exact: a canonical non-negative plain
 * decimal whose digits beyond `scale` are all zeros (no rounding needed), as stored amounts are.
 * Undefined otherwise (the caller takes the Decimal path). Saves a Decimal per amount on hot views.
 */
function padPlain(value: string, scale: number): string | undefined {
  const match = PLAIN.exec(value);
  if (!match) return undefined;
  const fraction = match[1] ?? '';
  const whole = fraction === '' ? value : value.slice(0, value.length - fraction.length - 1);
  if (fraction.length > scale && !/^0*$/.test(fraction.slice(scale))) return undefined;
  return scale === 0 ? whole : `${whole}.${fraction.slice(0, scale).padEnd(scale, '0')}`;
}

/** Plain decimal string of `value` with `scale` digits after the point, for non-currency decimals (rates). */
export function formatDecimal(value: Decimal | string, scale: number): string {
  return padScale(new Decimal(value).toDecimalPlaces(scale, Decimal.ROUND_HALF_EVEN), scale);
}

function padScale(value: Decimal, scale: number): string {
  const [whole, fraction = ''] = value.toString().split('.');
  return scale === 0 ? (whole ?? '0') : `${whole}.${fraction.padEnd(scale, '0')}`;
}
