import type { OperatorRole } from './operator';

/**
 * Who did something (docs/decisions.md § Operators: sign-in, sessions, roles, audit log): a signed-in
 * operator (`session`, id `opr_...`), an admin API key (`admin_key`, id `key_...`, acting as
 * `admin`), the operator CLI (`cli`, id `cli:<user>`, acting as `admin`), or the service itself
 * (`system`: start-up seed, tests).
 */
export interface AuditActor {
  readonly kind: 'session' | 'admin_key' | 'cli' | 'system';
  readonly id: string;
  readonly role: OperatorRole;
}

/** One row of the audit log. `before`/`after` are JSON snapshots of the target (never a secret). */
export interface AuditEntry {
  readonly id: string;
  readonly at: Date;
  readonly actor: AuditActor;
  /** What was done: the operation's name, e.g. `updateTenant`, `retryRefund`, `signIn`. */
  readonly action: string;
  /** What it was done to: `tenant`, `api_key`, `refund`, `operator`, `rate_pin`, ... */
  readonly targetType: string;
  readonly targetId: string | null;
  readonly before: unknown;
  readonly after: unknown;
  readonly reason: string | null;
  readonly requestId: string | null;
}

/** Filters of an audit-log read; every one optional. */
export interface AuditFilter {
  readonly actorId?: string;
  readonly action?: string;
  readonly targetType?: string;
  readonly targetId?: string;
  /** Inclusive lower bound of `at`. */
  readonly from?: Date;
  /** Exclusive upper bound of `at`. */
  readonly to?: Date;
}

/** A position in the log, newest first: the last row's time and id. */
export interface AuditCursor {
  readonly at: Date;
  readonly id: string;
}

/** Port: the append-only audit log. */
export interface AuditLog {
  append(entry: AuditEntry): Promise<void>;
  /** Rows matching `filter`, newest first, after `cursor`, at most `limit`. */
  list(filter: AuditFilter, cursor: AuditCursor | undefined, limit: number): Promise<AuditEntry[]>;
  /** Every row matching `filter`, newest first, in batches (for streamed exports). */
  stream(filter: AuditFilter, batchSize: number): AsyncIterable<AuditEntry[]>;
}
