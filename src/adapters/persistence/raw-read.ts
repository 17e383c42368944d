import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntitySchema, Platform } from '@mikro-orm/core';
import { SealedTextType } from './schemas/sealed-text.type';

interface Column {
  readonly prop: string;
  readonly field: string;
  readonly read?: (value: unknown, platform: Platform) => unknown;
  /** Opened on first read only: a sealed column costs a decryption nobody may need (a GET never shows it). */
  readonly lazy: boolean;
}

const plans = new Map<string, { columns: Column[]; make: (props: Record<string, unknown>) => object }>();

/**
 * Reads raw rows (`select *` or `returning *` of the entity's table) into entities without the
 * ORM's unit of work, from a plan built once from the entity's MikroORM metadata: custom types
 * convert as `em.map` would (decimal strings made plain, sealed columns opened: docs/decisions.md
 * § Personal data and secrets). Sealed columns are opened on first access, so hot reads that never
 * look at them (GET by id, the payment view) skip the decryption. For hot paths only (docs/decisions.md
 * § Performance); everything else uses the ORM.
 */
export function rowReader<T extends object>(em: EntityManager, schema: EntitySchema<T>): (row: Record<string, unknown>) => T {
  const meta = em.getMetadata().get(schema.meta.className);
  let plan = plans.get(meta.className);
  if (!plan) {
    const columns = meta.props.filter((p) => p.fieldNames?.length === 1 && p.persist !== false).map((p): Column => {
      const custom = p.customType;
      const prop = p.name;
      const field = p.fieldNames[0]!;
      if (custom) {
        return {
          prop, field, lazy: custom instanceof SealedTextType,
          read: (v: unknown, platform: Platform) => (v === null || v === undefined ? v : custom.convertToJSValue(v, platform)),
        };
      }
      // The ORM's driver leaves timestamps as text for its own hydration; a domain Date is made here.
      if (p.runtimeType === 'Date') return { prop, field, lazy: false, read: (v: unknown) => (v === null || v === undefined || v instanceof Date ? v : new Date(v as string)) };
      return { prop, field, lazy: false };
    });
    const ctor = meta.class as unknown as new (props: Record<string, unknown>) => object;
    plan = { columns, make: (props) => new ctor(props) };
    plans.set(meta.className, plan);
  }
  const { columns, make } = plan;
  const platform = em.getPlatform();
  return (row) => {
    const props: Record<string, unknown> = {};
    const lazy: Column[] = [];
    for (const c of columns) {
      const value = row[c.field];
      if (c.lazy && value !== null && value !== undefined) lazy.push(c);
      else props[c.prop] = c.read ? c.read(value, platform) : value;
    }
    const entity = make(props) as Record<string, unknown>;
    for (const c of lazy) {
      let opened: unknown;
      let done = false;
      Object.defineProperty(entity, c.prop, {
        enumerable: true,
        configurable: true,
        get: () => {
          if (!done) {
            opened = c.read!(row[c.field], platform);
            done = true;
          }
          return opened;
        },
        set: (v: unknown) => {
          opened = v;
          done = true;
        },
      });
    }
    return entity as T;
  };
}
