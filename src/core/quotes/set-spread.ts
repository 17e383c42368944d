import { MONEY_OUT_COUNTRIES, PAYMENT_METHODS } from '../catalog/catalog';
import type { Clock, IdGenerator } from '../shared/clock';
import { Decimal } from '../shared/money';
import { err, ok, type Result } from '../shared/result';
import type { SpreadChange, SpreadStore } from './spread';

/** An operator's spread change (POST /v1/admin/rates/spreads): `*` for any country or method. */
export interface SpreadCommand {
  readonly country: string;
  readonly paymentMethod: string;
  /** Percent under the mid, 0 to 10, at most 4 places (e.g. `"0.5"`). */
  readonly percent: string;
  readonly reason: string;
}

/** Where a change goes: the store (audit), and this replica's spreads so it applies at once. */
export interface SpreadDeps {
  readonly spreads: SpreadStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly onSet?: (change: SpreadChange) => void;
}

const PERCENT = /^\d{1,2}(\.\d{1,4})?$/;
const MAX_SPREAD = new Decimal(10);

/**
 * Sets the spread of a corridor and payment method for live tenants (docs/decisions.md § FX quotes:
 * live rates), recorded with the admin key that set it. `*`/`*` sets the default. Errors:
 * `validation_error` (field named: a country or method the catalog does not know, a percent outside
 * 0 to 10 or with more than 4 places, a reason empty or over 200 characters).
 */
export async function setSpread(deps: SpreadDeps, command: SpreadCommand, createdBy: string): Promise<Result<SpreadChange, 'validation_error'>> {
  if (command.country !== '*' && !(MONEY_OUT_COUNTRIES as readonly string[]).includes(command.country)) {
    return err('validation_error', 'country must be a payout country code or *', { field: 'country' });
  }
  if (command.paymentMethod !== '*' && !(PAYMENT_METHODS as readonly string[]).includes(command.paymentMethod)) {
    return err('validation_error', `paymentMethod must be one of ${PAYMENT_METHODS.join(', ')} or *`, { field: 'paymentMethod' });
  }
  if (command.country !== '*' && command.paymentMethod === '*') {
    return err('validation_error', 'a country needs a payment method: use <country>:<method>, *:<method> or *:*', { field: 'paymentMethod' });
  }
  if (!PERCENT.test(command.percent) || new Decimal(command.percent).gt(MAX_SPREAD)) {
    return err('validation_error', 'percent must be a decimal string from 0 to 10 with at most 4 places', { field: 'percent' });
  }
  const reason = command.reason.trim();
  if (reason.length === 0 || reason.length > 200) return err('validation_error', 'reason must be 1 to 200 characters', { field: 'reason' });
  const change: SpreadChange = {
    id: deps.ids.next('spr'), corridor: `${command.country}:${command.paymentMethod}`, percent: new Decimal(command.percent).toString(),
    reason, createdBy, createdAt: deps.clock.now(),
  };
  await deps.spreads.insert(change);
  deps.onSet?.(change);
  return ok(change);
}
