import type { EntityManager } from '@mikro-orm/postgresql';
import type { SpreadChange, SpreadStore } from '../../core/quotes/spread';

interface SpreadRow {
  id: string;
  corridor: string;
  percent: string;
  reason: string;
  created_by: string;
  created_at: Date;
}

/** Operators' spread changes in `rate_spreads` (SpreadStore port; docs/decisions.md § FX quotes: live rates): inserted once, never updated. */
export class RateSpreadRepository implements SpreadStore {
  constructor(private readonly em: EntityManager) {}

  async insert(change: SpreadChange): Promise<void> {
    await this.em.getConnection().execute(
      'insert into rate_spreads (id, corridor, percent, reason, created_by, created_at) values (?, ?, ?, ?, ?, ?)',
      [change.id, change.corridor, change.percent, change.reason, change.createdBy, change.createdAt],
    );
  }

  async latest(): Promise<SpreadChange[]> {
    const rows = await this.em.getConnection().execute<SpreadRow[]>(
      `select distinct on (corridor) id, corridor, percent::text as percent, reason, created_by, created_at
         from rate_spreads order by corridor, created_at desc, id desc`,
    );
    return rows.map((row) => ({
      id: row.id, corridor: row.corridor, percent: trimZeros(row.percent), reason: row.reason, createdBy: row.created_by, createdAt: new Date(row.created_at),
    }));
  }
}

/** `0.5000` → `0.5`, `1.0000` → `1`. */
function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}
