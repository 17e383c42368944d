import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditCursor, AuditEntry, AuditFilter, AuditLog } from '../../core/operators/audit-log';
import type { OperatorRole } from '../../core/operators/operator';

interface AuditRow {
  id: string; at: Date; actor_kind: AuditEntry['actor']['kind']; actor_id: string; actor_role: OperatorRole; action: string;
  target_type: string; target_id: string | null; before: unknown; after: unknown; reason: string | null; request_id: string | null;
}

const entryOf = (row: AuditRow): AuditEntry => ({
  id: row.id, at: new Date(row.at), actor: { kind: row.actor_kind, id: row.actor_id, role: row.actor_role }, action: row.action,
  targetType: row.target_type, targetId: row.target_id, before: row.before, after: row.after, reason: row.reason, requestId: row.request_id,
});

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `value` as JSON for a jsonb column: strings made well-formed first (a lone surrogate becomes
 * U+FFFD, as PostgreSQL's UTF-8 text columns store it), since jsonb refuses the `\ud800` escape.
 */
function jsonOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? v.replace(LONE_SURROGATE, '\uFFFD') : v));
}

/** The WHERE clause and parameters of `filter`, keyset `cursor` included (newest first). */
function whereOf(filter: AuditFilter, cursor: AuditCursor | undefined): [string, unknown[]] {
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, ...values: unknown[]) => {
    parts.push(sql);
    params.push(...values);
  };
  if (filter.actorId !== undefined) add('actor_id = ?', filter.actorId);
  if (filter.action !== undefined) add('action = ?', filter.action);
  if (filter.targetType !== undefined) add('target_type = ?', filter.targetType);
  if (filter.targetId !== undefined) add('target_id = ?', filter.targetId);
  if (filter.from !== undefined) add('at >= ?', filter.from);
  if (filter.to !== undefined) add('at < ?', filter.to);
  if (cursor) add('(at, id) < (?, ?)', cursor.at, cursor.id);
  return [parts.length > 0 ? `where ${parts.join(' and ')}` : '', params];
}

/**
 * The append-only `audit_log` (AuditLog port; docs/decisions.md § Operators: audit log). PostgreSQL
 * refuses UPDATE, DELETE and TRUNCATE on the table (a trigger), so this class only inserts and reads.
 */
export class AuditLogRepository implements AuditLog {
  constructor(private readonly em: EntityManager) {}

  async append(e: AuditEntry): Promise<void> {
    await this.em.getConnection().execute(
      `insert into audit_log (id, at, actor_kind, actor_id, actor_role, action, target_type, target_id, before, after, reason, request_id)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?)`,
      [e.id, e.at, e.actor.kind, e.actor.id, e.actor.role, e.action, e.targetType, e.targetId,
        jsonOf(e.before), jsonOf(e.after), e.reason, e.requestId],
    );
  }

  async list(filter: AuditFilter, cursor: AuditCursor | undefined, limit: number): Promise<AuditEntry[]> {
    const [where, params] = whereOf(filter, cursor);
    const rows = await this.em.getConnection().execute<AuditRow[]>(`select * from audit_log ${where} order by at desc, id desc limit ?`, [...params, limit]);
    return rows.map(entryOf);
  }

  async *stream(filter: AuditFilter, batchSize: number): AsyncIterable<AuditEntry[]> {
    let cursor: AuditCursor | undefined;
    for (;;) {
      const batch = await this.list(filter, cursor, batchSize);
      if (batch.length > 0) yield batch;
      if (batch.length < batchSize) return;
      const last = batch[batch.length - 1]!;
      cursor = { at: last.at, id: last.id };
    }
  }
}
