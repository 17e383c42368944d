import type { Result } from '../shared/result';
import type { AuditActor, AuditCursor, AuditEntry, AuditFilter } from './audit-log';
import type { OperatorRole, OperatorStatus, OperatorView } from './operator';
import { createOperator, listOperators, updateOperator, type CreatedOperator, type OperatorAdminErrorCode } from './operator-admin';
import {
  csrfMatches, csrfTokenOf, resolveSession, signInWithIdentity, signInWithPassword, signOut, signOutEverywhere,
  type IssuedSession, type LiveSession, type ProvenIdentity, type SessionDeps, type SessionPolicy,
} from './operator-sessions';

/** Most audit rows one page returns. */
export const MAX_AUDIT_PAGE = 200;

/**
 * The operator use cases (docs/decisions.md § Operators: sign-in, sessions, roles, audit log) bound
 * to their ports; REST, the console and the CLI call these. `requestId` is the transport's request
 * id (null from the CLI); `actor` is who acts, as the transport authenticated it.
 */
export interface OperatorApplication {
  readonly policy: SessionPolicy;
  signInWithPassword(input: { email: string; password: string; totpCode: string }, requestId: string | null): Promise<Result<IssuedSession, 'unauthorized'>>;
  signInWithIdentity(identity: ProvenIdentity, requestId: string | null): Promise<Result<IssuedSession, 'forbidden'>>;
  resolveSession(sessionToken: string): Promise<Result<LiveSession, 'unauthorized'>>;
  csrfMatches(live: LiveSession, presented: string | undefined): boolean;
  /** The CSRF token of the session whose cookie holds `sessionToken` (the same at every call). */
  csrfTokenOf(sessionToken: string): string;
  signOut(live: LiveSession, requestId: string | null): Promise<void>;
  /** Ends every session of `operatorId`; returns how many were live. */
  signOutEverywhere(operatorId: string, actor: AuditActor, requestId: string | null): Promise<number>;
  createOperator(input: { email: string; role: OperatorRole; password: string }, actor: AuditActor, requestId: string | null): Promise<Result<CreatedOperator, OperatorAdminErrorCode>>;
  listOperators(): Promise<OperatorView[]>;
  updateOperator(operatorId: string, change: { role?: OperatorRole; status?: OperatorStatus }, actor: AuditActor, requestId: string | null): Promise<Result<OperatorView, OperatorAdminErrorCode>>;
  /**
   * Audit rows matching `filter`, newest first, after `cursor`, at most `limit` (1 to MAX_AUDIT_PAGE + 1: a page
   * reader asks one row more than it shows to know whether another page follows).
   */
  listAuditLog(filter: AuditFilter, cursor: AuditCursor | undefined, limit: number): Promise<AuditEntry[]>;
  /** Every audit row matching `filter`, newest first, in batches (CSV export). */
  streamAuditLog(filter: AuditFilter): AsyncIterable<AuditEntry[]>;
}

/** Rows per batch of a streamed export: bounded memory whatever the log's size. */
const EXPORT_BATCH = 500;

/** Binds the operator use cases to `deps`. */
export function createOperatorApplication(deps: SessionDeps): OperatorApplication {
  return {
    policy: deps.policy,
    signInWithPassword: (input, requestId) => signInWithPassword(deps, input, requestId),
    signInWithIdentity: (identity, requestId) => signInWithIdentity(deps, identity, requestId),
    resolveSession: (token) => resolveSession(deps, token),
    csrfMatches: (live, presented) => csrfMatches(deps, live, presented),
    csrfTokenOf: (sessionToken) => csrfTokenOf(deps, sessionToken),
    signOut: (live, requestId) => signOut(deps, live, requestId),
    signOutEverywhere: (operatorId, actor, requestId) => signOutEverywhere(deps, operatorId, actor, requestId),
    createOperator: (input, actor, requestId) => createOperator(deps, input, actor, requestId),
    listOperators: () => listOperators(deps),
    updateOperator: (operatorId, change, actor, requestId) => updateOperator(deps, operatorId, change, actor, requestId),
    listAuditLog: (filter, cursor, limit) => deps.audit.list(filter, cursor, Math.min(Math.max(limit, 1), MAX_AUDIT_PAGE + 1)),
    streamAuditLog: (filter) => deps.audit.stream(filter, EXPORT_BATCH),
  };
}
