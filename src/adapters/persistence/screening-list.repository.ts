import type { EntityManager } from '@mikro-orm/postgresql';
import type { ListEntry, ListSource, LoadedList, SanctionsList } from '../../core/screening/sanctions-screen';
import type { ScreeningListStore } from '../../core/screening/load-list';

interface ListRow {
  source: ListSource;
  version: string;
  published_at: Date;
  loaded_at: Date;
  entry_count: number;
  entries?: ListEntry[] | string;
}

const versionOf = (row: ListRow): LoadedList => ({
  source: row.source, version: row.version, publishedAt: new Date(row.published_at), loadedAt: new Date(row.loaded_at), entries: row.entry_count,
});

/**
 * The loaded sanctions lists in `screening_lists` (ScreeningListStore port; docs/decisions.md §
 * Screening): one current row per source, replaced whole by a load, so every replica reads the same.
 */
export class ScreeningListRepository implements ScreeningListStore {
  constructor(private readonly em: EntityManager) {}

  async save(list: SanctionsList, loadedAt: Date): Promise<void> {
    await this.em.getConnection().execute(
      `insert into screening_lists (source, version, published_at, loaded_at, entry_count, entries) values (?, ?, ?, ?, ?, ?::jsonb)
       on conflict (source) do update set version = excluded.version, published_at = excluded.published_at,
         loaded_at = excluded.loaded_at, entry_count = excluded.entry_count, entries = excluded.entries`,
      [list.source, list.version, list.publishedAt, loadedAt, list.entries.length, JSON.stringify(list.entries)],
    );
  }

  async versions(): Promise<LoadedList[]> {
    const rows = await this.em.getConnection().execute<ListRow[]>(
      'select source, version, published_at, loaded_at, entry_count from screening_lists order by source',
    );
    return rows.map(versionOf);
  }

  async loadAll(): Promise<(SanctionsList & { loadedAt: Date })[]> {
    const rows = await this.em.getConnection().execute<ListRow[]>('select * from screening_lists order by source');
    return rows.map((row) => ({
      ...versionOf(row),
      entries: typeof row.entries === 'string' ? (JSON.parse(row.entries) as ListEntry[]) : (row.entries ?? []),
    }));
  }
}
