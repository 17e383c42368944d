import { EntitySchema } from '@mikro-orm/core';

/** Row of `reconciliation_checks`: the reconciliation worker's last look at one stuck payment. */
export interface ReconciliationCheckRow {
  paymentId: string;
  tenantId: string;
  /** `PayoutProvider.name` of the provider asked; null while none was. */
  provider: string | null;
  /** How many times the worker looked. */
  checks: number;
  checkedAt: Date | null;
  /** When the worker may look again (also the lease while it looks). */
  nextCheckAt: Date;
  /** A mismatch kind while one stands (docs/decisions.md § Reconciliation), else null. */
  finding: string | null;
  findingDetail: string | null;
}

/**
 * Table `reconciliation_checks` (docs/decisions.md § Reconciliation): one row per payment the
 * reconciliation worker looked at, so replicas share the work and a still-pending payment is asked
 * again only after RECONCILIATION_RECHECK_SECONDS, and the findings it keeps for operators.
 */
export const ReconciliationCheckSchema = new EntitySchema<ReconciliationCheckRow>({
  name: 'ReconciliationCheck',
  tableName: 'reconciliation_checks',
  indexes: [{
    name: 'reconciliation_checks_finding_idx', properties: ['checkedAt'],
    expression: 'create index "reconciliation_checks_finding_idx" on "reconciliation_checks" ("checked_at") where "finding" is not null',
  }],
  checks: [{
    name: 'reconciliation_checks_finding_check',
    expression: "finding in ('missing_at_provider', 'status_mismatch', 'amount_mismatch', 'unknown_provider_status')",
  }],
  properties: {
    paymentId: { type: 'string', primary: true, length: 40 },
    tenantId: { type: 'string', length: 40 },
    provider: { type: 'string', length: 20, nullable: true },
    checks: { type: 'integer', default: 0 },
    checkedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    nextCheckAt: { type: 'Date', columnType: 'timestamptz' },
    finding: { type: 'string', length: 30, nullable: true },
    findingDetail: { type: 'text', nullable: true },
  },
});
