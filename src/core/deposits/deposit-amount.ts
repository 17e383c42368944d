import { AMOUNT_CEILING } from '../shared/money';

/** Places the ledger keeps for USDC and USDT (docs/decisions.md § Money). */
export const LEDGER_SCALE = 6;

/** The token amount the ledger credits for a transfer, and what it leaves out. */
export interface CreditedAmount {
  /** Decimal string at scale 6: what the ledger credits ("0.000000" when the transfer is dust). */
  readonly amount: string;
  /** The same in millionths of the token (the ledger's smallest unit). */
  readonly micros: bigint;
  /** Base units of the token below the ledger's 6 places: not credited, recorded with the deposit. */
  readonly remainderUnits: bigint;
}

/**
 * The amount rule (docs/decisions.md § Onchain deposits: amounts): the ledger keeps 6 places, so a
 * transfer of `units` base units of a token with `decimals` places is credited
 * floor(units / 10^(decimals − 6)) millionths, and the rest, units mod 10^(decimals − 6), is the
 * remainder (18-decimal BSC USDC and USDT); a token with fewer than 6 places scales up exactly
 * (remainder 0). Integer arithmetic only: nothing is rounded up, so the service never credits
 * more than arrived. Pure. Throws for negative units or decimals outside 0..77 (a reader's bug).
 */
export function creditedAmount(units: bigint, decimals: number): CreditedAmount {
  if (units < 0n) throw new Error(`a transfer cannot carry ${units} units`);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 77) throw new Error(`a token cannot have ${decimals} decimals`);
  const shift = decimals - LEDGER_SCALE;
  const divisor = shift > 0 ? 10n ** BigInt(shift) : 1n;
  const micros = shift >= 0 ? units / divisor : units * 10n ** BigInt(-shift);
  const remainderUnits = shift > 0 ? units % divisor : 0n;
  return { amount: formatMicros(micros), micros, remainderUnits };
}

/** Millionths as a decimal string at scale 6 ("12500000" → "12.500000"). Pure. */
export function formatMicros(micros: bigint): string {
  const text = micros.toString().padStart(LEDGER_SCALE + 1, '0');
  return `${text.slice(0, -LEDGER_SCALE)}.${text.slice(-LEDGER_SCALE)}`;
}

/** The ledger's ceiling in millionths: every amount the service takes is below 10^15 (docs/decisions.md § Money). */
export const CEILING_MICROS = BigInt(AMOUNT_CEILING.toFixed(0)) * 10n ** BigInt(LEDGER_SCALE);

/**
 * The other way (docs/decisions.md § Refunds: amount and fees, refusals): `amount`, a ledger
 * amount (decimal string, at most 6 places), in base units of a token with `decimals` places,
 * exactly: amount × 10^decimals. Undefined unless that is exact (no significant digit below the
 * token's smallest unit), positive and at most `maxUnits` (the chain's largest transfer: uint256
 * on BSC, u64 on Solana). Integer arithmetic only, nothing is rounded. Pure.
 */
export function tokenUnits(amount: string, decimals: number, maxUnits: bigint): bigint | undefined {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(amount);
  if (!match) return undefined;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) return undefined;
  const units = BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  return units > 0n && units <= maxUnits ? units : undefined;
}
