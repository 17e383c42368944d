import { err, ok, type Result } from '../shared/result';
import { LIST_SOURCES, type ListSource, type LoadedList, type SanctionsList } from './sanctions-screen';

/** Port: the loaded lists, shared by every replica (docs/decisions.md § Screening). */
export interface ScreeningListStore {
  /** Replaces the source's current list with `list`, stamped `loadedAt`. */
  save(list: SanctionsList, loadedAt: Date): Promise<void>;
  /** Each source's current version (no entries): cheap, polled by replicas to see a new load. */
  versions(): Promise<LoadedList[]>;
  /** Every current list with its entries, to build the in-memory screen. */
  loadAll(): Promise<(SanctionsList & { loadedAt: Date })[]>;
}

/** Port: parses a list file in its source's published format (docs/decisions.md § Screening). Errors: `validation_error`. */
export type ListParser = (source: ListSource, document: string) => Result<SanctionsList, 'validation_error'>;

/** What loading a list needs. */
export interface LoadListDeps {
  readonly parse: ListParser;
  readonly lists: ScreeningListStore;
  readonly clock: { now(): Date };
  /** Called once a list is stored, e.g. to rebuild this replica's screen at once. */
  readonly onLoaded?: (loaded: LoadedList) => void;
}

/**
 * Parses, validates and stores a sanctions list file (docs/operations.md § Sanctions screening):
 * nothing is stored unless the whole file parses. Returns the version now loaded. Errors:
 * `validation_error` (unknown source, not the source's format, no entries).
 */
export async function loadList(deps: LoadListDeps, source: string, document: string): Promise<Result<LoadedList, 'validation_error'>> {
  const known = LIST_SOURCES.find((s) => s === source);
  if (!known) return err('validation_error', `source must be one of ${LIST_SOURCES.join(', ')}`, { field: 'source' });
  const parsed = deps.parse(known, document);
  if (!parsed.ok) return parsed;
  const loadedAt = deps.clock.now();
  await deps.lists.save(parsed.value, loadedAt);
  const loaded: LoadedList = {
    source: known, version: parsed.value.version, publishedAt: parsed.value.publishedAt, loadedAt, entries: parsed.value.entries.length,
  };
  deps.onLoaded?.(loaded);
  return ok(loaded);
}
