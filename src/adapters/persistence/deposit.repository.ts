import type { EntityManager } from '@mikro-orm/postgresql';
import type { Blockchain } from '../../core/catalog/catalog';
import { toDepositView, type Deposit, type DepositFinding, type DepositView } from '../../core/deposits/deposit';
import type { ChainCursor, DepositFindingReader, DepositListFilter, DepositReader } from '../../core/deposits/deposit-ports';
import type { KeysetPage } from '../../core/shared/keyset-page';
import { cursorOf, depositOf, findingOf } from './deposit-rows';
import { decodeCursor, encodeCursor } from './keyset-cursor';

const DEPOSIT_ID = /^dep_[0-9A-Z]{26}$/;
const KEYS_PER_QUERY = 1000;

/**
 * Deposit reads (DepositReader, DepositFindingReader ports; docs/decisions.md § Onchain deposits):
 * the tenant's list by keyset on (created_at, id) over deposits_tenant_created_idx, the finality
 * pass's detected rows over the partial index deposits_detected_idx, and the watchers' positions.
 */
export class DepositReadRepository implements DepositReader, DepositFindingReader {
  constructor(private readonly em: EntityManager) {}

  async findForTenant(tenantId: string, depositId: string): Promise<Deposit | undefined> {
    const rows = await this.rows('select * from deposits where id = ? and tenant_id = ?', [depositId, tenantId]);
    return rows[0] ? depositOf(rows[0]) : undefined;
  }

  async listForTenant(tenantId: string, limit: number, filter: DepositListFilter, cursor?: string): Promise<KeysetPage<Deposit> | 'bad_cursor'> {
    const after = cursor !== undefined ? decodeCursor(cursor, DEPOSIT_ID) : undefined;
    if (cursor !== undefined && !after) return 'bad_cursor';
    const where = ['tenant_id = ?'];
    const params: unknown[] = [tenantId];
    const anyOf = (column: string, values: readonly string[] | undefined) => {
      if (!values || values.length === 0) return;
      where.push(`${column} in (${values.map(() => '?').join(', ')})`);
      params.push(...values);
    };
    anyOf('blockchain', filter.blockchain);
    anyOf('currency', filter.currency);
    anyOf('status', filter.status);
    const add = (condition: string, ...values: unknown[]) => {
      where.push(condition);
      params.push(...values);
    };
    if (filter.createdFrom) add('created_at >= ?', filter.createdFrom);
    if (filter.createdTo) add('created_at < ?', filter.createdTo);
    if (after) add('(created_at, id) < (?, ?)', ...after);
    const rows = await this.rows(`select * from deposits where ${where.join(' and ')} order by created_at desc, id desc limit ?`, [...params, limit + 1]);
    const entries = rows.slice(0, limit).map(depositOf);
    const cursors = entries.map((d) => encodeCursor(d.createdAt, d.id));
    return { entries, cursors, ...(rows.length > limit ? { nextCursor: cursors[cursors.length - 1] } : {}) };
  }

  async findByKeys(chain: Blockchain, keys: ReadonlyArray<{ txHash: string; index: number }>): Promise<Deposit[]> {
    const found: Deposit[] = [];
    // In chunks: a catch-up scan may answer thousands of transfers, and a statement takes at most 65,535 parameters.
    for (let start = 0; start < keys.length; start += KEYS_PER_QUERY) {
      const chunk = keys.slice(start, start + KEYS_PER_QUERY);
      const rows = await this.rows(
        `select * from deposits where blockchain = ? and (tx_hash, transfer_index) in (${chunk.map(() => '(?, ?)').join(', ')})`,
        [chain, ...chunk.flatMap((k) => [k.txHash, k.index])],
      );
      found.push(...rows.map(depositOf));
    }
    return found;
  }

  async detectedUpTo(chain: Blockchain, height: bigint, limit: number, after?: { height: bigint; id: string }): Promise<Deposit[]> {
    const rows = await this.rows(
      `select * from deposits where blockchain = ? and status = 'detected' and height <= ?::bigint
          ${after ? 'and (height, id) > (?::bigint, ?)' : ''}
        order by height, id limit ?`,
      [chain, height.toString(), ...(after ? [after.height.toString(), after.id] : []), limit],
    );
    return rows.map(depositOf);
  }

  async cursorOf(chain: Blockchain): Promise<ChainCursor | undefined> {
    const rows = await this.rows('select * from chain_watchers where blockchain = ?', [chain]);
    return rows[0] ? cursorOf(rows[0]) : undefined;
  }

  async heads(): Promise<ReadonlyMap<Blockchain, bigint>> {
    const rows = await this.rows('select blockchain, head from chain_watchers where heights_at is not null', []);
    return new Map(rows.map((r) => [r.blockchain as Blockchain, BigInt(String(r.head))]));
  }

  /** Deposits of `tenantIds` detected, credited or dropped since `since`, as their API views (DepositChanges port of the live feed). */
  async changedSince(tenantIds: readonly string[], since: Date, limit: number): Promise<Array<{ tenantId: string; deposit: DepositView }>> {
    if (tenantIds.length === 0) return [];
    const [rows, heads] = await Promise.all([this.rows(
      `select * from deposits where tenant_id in (${tenantIds.map(() => '?').join(', ')})
          and greatest(created_at, coalesce(credited_at, created_at), coalesce(dropped_at, created_at)) >= ?
        order by greatest(created_at, coalesce(credited_at, created_at), coalesce(dropped_at, created_at)), id limit ?`,
      [...tenantIds, since, limit],
    ), this.heads()]);
    return rows.map(depositOf).map((d) => ({ tenantId: d.tenantId, deposit: toDepositView(d, heads.get(d.blockchain)) }));
  }

  async listFindings(limit: number): Promise<DepositFinding[]> {
    return (await this.rows('select * from deposit_findings order by created_at desc, id desc limit ?', [limit])).map(findingOf);
  }

  private rows(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    return this.em.fork().execute<Record<string, unknown>[]>(sql, params);
  }
}
