import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditContext } from '../../core/operators/audited-admin';

/**
 * The actor and request id of the call in progress, for the audit log (docs/decisions.md §
 * Operators: audit log). REST runs each admin handler inside `run`; the CLI runs its command inside
 * it; the audited admin use cases read it with `currentAuditContext`.
 */
export const auditContexts = new AsyncLocalStorage<AuditContext>();

/** The context of the call in progress, or undefined outside any transport (start-up seed, tests). */
export const currentAuditContext = (): AuditContext | undefined => auditContexts.getStore();
