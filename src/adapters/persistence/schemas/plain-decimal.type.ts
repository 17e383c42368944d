import { Type } from '@mikro-orm/core';
import Decimal from 'decimal.js';

/**
 * `numeric(38, 6)` column read back as a plain minimal decimal string: PostgreSQL returns
 * "1500.000000" for 1500; the domain keeps "1500" and views pad to the currency's scale (docs/decisions.md § Money).
 */
export class PlainDecimalType extends Type<string, string> {
  override convertToJSValue(value: string): string {
    return value === null || value === undefined ? value : new Decimal(value).toFixed();
  }

  override getColumnType(): string {
    return 'numeric(38,6)';
  }

  override compareAsType(): string {
    return 'string';
  }
}
