import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntitySchema } from '@mikro-orm/core';

const cache = new Map<string, { sql: string; props: { name: string; toDb: (v: unknown) => unknown }[] }>();

/**
 * `insert into <table> (...) values (...)` for one mapped entity, built once from its MikroORM
 * metadata, so hot paths write a row without the unit-of-work machinery. JSON properties are
 * serialised; `extra` is appended verbatim after the values (e.g. `returning id`).
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
      props: props.map((p) => ({
        name: p.name,
        toDb: p.runtimeType === 'object' || p.type === 'json' || p.type === 'JsonType' ? (v) => (v === null || v === undefined ? v : JSON.stringify(v)) : (v) => v,
      })),
    };
    cache.set(key, plan);
  }
  const values = plan.props.map((p) => p.toDb((row as Record<string, unknown>)[p.name] ?? null));
  return [plan.sql, values];
}
