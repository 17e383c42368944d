/**
 * One page of a newest-first keyset list (customers, ledger transactions, the webhook event log),
 * as a store returns it and a use case passes it on (docs/api.md § Lists and paging).
 */
export interface KeysetPage<T> {
  /** The entries, newest first. */
  readonly entries: T[];
  /**
   * `cursors[i]` resumes the list just after `entries[i]`: the cursor of a GraphQL edge. Opaque,
   * the same form as `nextCursor`; as long as `entries`.
   */
  readonly cursors: string[];
  /** Set when more entries follow: the cursor of the last entry (REST's Link cursor). */
  readonly nextCursor?: string;
}
