import type { EntityManager } from '@mikro-orm/postgresql';
import type { RatePin, RatePinStore } from '../../core/quotes/rate-pins';
import type { FiatCurrency, Stablecoin } from '../../core/shared/money';

interface PinRow {
  id: string;
  fiat: string;
  stablecoin: string;
  rate: string;
  reason: string;
  created_by: string;
  created_at: Date;
  expires_at: Date;
}

/** Operators' pinned rates in `rate_pins` (RatePinStore port; docs/decisions.md § FX quotes: live rates): inserted once, never updated. */
export class RatePinRepository implements RatePinStore {
  constructor(private readonly em: EntityManager) {}

  async insert(pin: RatePin): Promise<void> {
    await this.em.getConnection().execute(
      'insert into rate_pins (id, fiat, stablecoin, rate, reason, created_by, created_at, expires_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
      [pin.id, pin.fiat, pin.stablecoin, pin.rate, pin.reason, pin.createdBy, pin.createdAt, pin.expiresAt],
    );
  }

  async active(now: Date): Promise<RatePin[]> {
    const rows = await this.em.getConnection().execute<PinRow[]>(
      // rate::text keeps the exact decimal; trailing zeros of numeric(20,8) are trimmed by the caller's Decimal.
      'select id, fiat, stablecoin, rate::text as rate, reason, created_by, created_at, expires_at from rate_pins where expires_at > ? order by created_at desc, id desc limit 100',
      [now],
    );
    return rows.map((row) => ({
      id: row.id, fiat: row.fiat as FiatCurrency, stablecoin: row.stablecoin as Stablecoin, rate: trimZeros(row.rate), reason: row.reason,
      createdBy: row.created_by, createdAt: new Date(row.created_at), expiresAt: new Date(row.expires_at),
    }));
  }
}

/** `18.10000000` → `18.1`, `19.00000000` → `19`: the rate as the operator gave it, exactly. */
function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}
