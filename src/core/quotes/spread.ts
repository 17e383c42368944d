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

/**
 * A spread an operator set through the admin API (docs/decisions.md § FX quotes: live rates): one
 * stored row per change, never updated (the audit record); the newest per `corridor` wins over the
 * configured RATES_SPREADS and RATES_SPREAD_PERCENT.
 */
export interface SpreadChange {
  readonly id: string;
  /** `<country>:<method>`, `*:<method>`, or `*:*` (the default). */
  readonly corridor: string;
  readonly percent: string;
  readonly reason: string;
  readonly createdBy: string;
  readonly createdAt: Date;
}

/** Port: operator-set spreads, stored for audit; `latest` answers the newest change per corridor. */
export interface SpreadStore {
  insert(change: SpreadChange): Promise<void>;
  latest(): Promise<SpreadChange[]>;
}

/**
 * The spreads in force on this replica: the configured table with the operators' latest changes on
 * top (`*:*` replaces the default). Replaced at each refresh from the store; a change taken here
 * applies at once. Pure state, no I/O.
 */
export class Spreads {
  private changes: readonly SpreadChange[] = [];

  constructor(private readonly configured: SpreadTable) {}

  /** Replaces the operators' changes with the latest ones read from the store. */
  set(changes: readonly SpreadChange[]): void {
    this.changes = [...changes];
  }

  /** Applies one change now (newest wins). */
  add(change: SpreadChange): void {
    this.changes = [change, ...this.changes.filter((c) => c.corridor !== change.corridor)];
  }

  /** The table in force. */
  table(): SpreadTable {
    const byCorridor: Record<string, string> = { ...this.configured.byCorridor };
    let fallback = this.configured.default;
    for (const change of [...this.changes].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) {
      if (change.corridor === '*:*') fallback = change.percent;
      else byCorridor[change.corridor] = change.percent;
    }
    return { default: fallback, byCorridor };
  }
}
