import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntitySchema, Platform, Type } from '@mikro-orm/core';

type ToDb = (value: unknown, platform: Platform) => unknown;

const cache = new Map<string, { sql: string; props: { name: string; toDb: ToDb }[] }>();

const asIs: ToDb = (v) => v;
const json: ToDb = (v) => (v === null || v === undefined ? v : JSON.stringify(v));

/** How one property's value is written: JSON serialised, through its custom type (e.g. sealed), or as is. */
function writerOf(prop: { runtimeType: string; type: string; customType?: Type<unknown, unknown> }): ToDb {
  if (prop.runtimeType === 'object' || prop.type === 'json' || prop.type === 'JsonType') return json;
  const custom = prop.customType;
  return custom ? (v, platform) => (v === null || v === undefined ? v : custom.convertToDatabaseValue(v, platform)) : asIs;
}

/**
 * `insert into <table> (...) values (...)` for one mapped entity, built once from its MikroORM
 * metadata, so hot paths write a row without the unit-of-work machinery. JSON properties are
 * serialised and custom types applied (sealed columns are sealed: docs/decisions.md § Personal
 * data and secrets); `extra` is appended verbatim after the values (e.g. `returning id`).
 */
export function insertStatement(em: EntityManager, schema: EntitySchema<any>, row: object, extra = ''): [string, unknown[]] {
  const meta = em.getMetadata().get(schema.meta.className);
  const key = `${meta.className}|${extra}`;
  let plan = cache.get(key);
  if (!plan) {
    const props = meta.props.filter((p) => p.fieldNames?.length === 1 && p.persist !== false);
    const columns = props.map((p) => `"${p.fieldNames[0]}"`).join(', ');
    plan = {
      sql: `insert into "${meta.tableName}" (${columns}) values (${props.map(() => '?').join(', ')}) ${extra}`.trim(),
      props: props.map((p) => ({ name: p.name, toDb: writerOf(p) })),
    };
    cache.set(key, plan);
  }
  const platform = em.getPlatform();
  const values = plan.props.map((p) => p.toDb((row as Record<string, unknown>)[p.name] ?? null, platform));
  return [plan.sql, values];
}
