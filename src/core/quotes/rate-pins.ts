import type { Clock, IdGenerator } from '../shared/clock';
import { Decimal, FIAT_CURRENCIES, STABLECOINS, type FiatCurrency, type Stablecoin } from '../shared/money';
import { err, ok, type Result } from '../shared/result';
import { pairKey, type RatePair } from './rate-feed';

/**
 * A manual mid rate an operator pins on a pair for an incident (docs/decisions.md § FX quotes: live
 * rates): it wins over the sources until `expiresAt`, the spread still applies on top. Stored once
 * and never changed (the audit record): who pinned it (`createdBy`, the admin key id), why, when.
 */
export interface RatePin extends RatePair {
  readonly id: string;
  /** Units of fiat per 1 stablecoin, an exact positive decimal string. */
  readonly rate: string;
  readonly reason: string;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** Port: pins, stored for audit and shared by every replica (each reads the active ones at its refresh). */
export interface RatePinStore {
  insert(pin: RatePin): Promise<void>;
  /** Pins not expired at `now`, newest first. */
  active(now: Date): Promise<RatePin[]>;
}

/** An operator's request to pin a rate (POST /v1/admin/rates/pins). */
export interface PinCommand {
  readonly fiat: string;
  readonly stablecoin: string;
  readonly rate: string;
  /** Minutes from now until the pin lapses, 1 to 1440. */
  readonly expiresInMinutes: number;
  readonly reason: string;
}

/** Where a new pin goes: the store, and the replica's own book so it applies at once. */
export interface PinDeps {
  readonly pins: RatePinStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Whether the live book quotes the pair; undefined when no live source is configured. */
  readonly quotes?: (pair: RatePair) => boolean;
  readonly onPinned?: (pin: RatePin) => void;
}

const RATE = /^\d{1,12}(\.\d{1,8})?$/;

/**
 * Pins a manual mid rate (docs/decisions.md § FX quotes: live rates). Errors: `validation_error`
 * (field named: a pair the service does not quote live, a rate that is not a positive decimal of at
 * most 12 + 8 digits, an expiry outside 1 to 1440 minutes, a reason empty or over 200 characters),
 * `invalid_state` (no live source is configured: every tenant is on the catalog's rates).
 */
export async function pinRate(deps: PinDeps, command: PinCommand, createdBy: string): Promise<Result<RatePin, 'validation_error' | 'invalid_state'>> {
  if (!deps.quotes) return err('invalid_state', 'No live rate source is configured (RATES_SOURCES): every tenant is priced at the catalog rates');
  const fiat = command.fiat as FiatCurrency;
  const stablecoin = command.stablecoin as Stablecoin;
  if (!FIAT_CURRENCIES.includes(fiat) || !STABLECOINS.includes(stablecoin) || !deps.quotes({ fiat, stablecoin })) {
    return err('validation_error', `${command.stablecoin}/${command.fiat} is not a pair the service quotes`, { field: 'fiat' });
  }
  if (!RATE.test(command.rate) || new Decimal(command.rate).lte(0)) return err('validation_error', 'rate must be a positive decimal string', { field: 'rate' });
  if (!Number.isInteger(command.expiresInMinutes) || command.expiresInMinutes < 1 || command.expiresInMinutes > 1440) {
    return err('validation_error', 'expiresInMinutes must be a whole number from 1 to 1440', { field: 'expiresInMinutes' });
  }
  const reason = command.reason.trim();
  if (reason.length === 0 || reason.length > 200) return err('validation_error', 'reason must be 1 to 200 characters', { field: 'reason' });
  const now = deps.clock.now();
  const pin: RatePin = {
    id: deps.ids.next('pin'), fiat, stablecoin, rate: new Decimal(command.rate).toString(), reason, createdBy, createdAt: now,
    expiresAt: new Date(now.getTime() + command.expiresInMinutes * 60_000),
  };
  await deps.pins.insert(pin);
  deps.onPinned?.(pin);
  return ok(pin);
}

/** The pin in force for `pair` at `now`: the newest not expired, or undefined. Pure. */
export function pinInForce(pins: readonly RatePin[], pair: RatePair, now: Date): RatePin | undefined {
  const key = pairKey(pair);
  return pins
    .filter((pin) => pairKey(pin) === key && pin.expiresAt.getTime() > now.getTime())
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
}
