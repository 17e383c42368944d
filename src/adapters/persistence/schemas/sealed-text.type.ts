import { Type, type Platform } from '@mikro-orm/core';
import type { PersonalDataBox } from '../../providers/personal-data-box';

/** The box of each ORM, keyed by its configuration (the platform a type is given leads back to it). */
const boxes = new WeakMap<object, PersonalDataBox>();

/**
 * Gives an ORM the box its sealed columns use. The composition root calls this once, right after
 * opening the database and before any read or write of a sealed column.
 */
export function usePersonalDataBox(orm: { config: object }, box: PersonalDataBox): void {
  boxes.set(orm.config, box);
}

function boxOf(platform: Platform): PersonalDataBox {
  const box = boxes.get(platform.getConfig());
  if (!box) throw new Error('no personal data box registered for this ORM (usePersonalDataBox)');
  return box;
}

/**
 * A `text` column holding a sealed value (docs/decisions.md § Personal data and secrets): the
 * domain sees the clear string, the database only `pd1.…`. Every path through the ORM (insert,
 * findOne, `em.map` of raw rows, and `insertStatement`) converts, so no reader can forget to.
 * Nothing may query by such a column: sealing is randomised. Use a keyed-hash column for equality.
 */
export class SealedTextType extends Type<string, string> {
  override convertToDatabaseValue(value: string, platform: Platform): string {
    return value === null || value === undefined ? value : boxOf(platform).seal(value);
  }

  override convertToJSValue(value: string, platform: Platform): string {
    return value === null || value === undefined ? value : boxOf(platform).open(value);
  }

  /** Hydration would otherwise seal every value again just to keep a comparable copy. */
  override ensureComparable(): boolean {
    return false;
  }

  override getColumnType(): string {
    return 'text';
  }

  override compareAsType(): string {
    return 'string';
  }
}
