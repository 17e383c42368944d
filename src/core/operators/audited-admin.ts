import type { AdminApplication } from '../admin/admin-application';
import type { Clock, IdGenerator } from '../shared/clock';
import type { Result } from '../shared/result';
import type { ScreeningAdmin } from '../screening/screening-admin';
import type { AuditActor, AuditLog } from './audit-log';

/** Who is acting and under which request, as the transport that received the call knows it. */
export interface AuditContext {
  readonly actor: AuditActor;
  readonly requestId: string | null;
}

/** Recorded when no transport named an actor: start-up seeding and tests calling the use cases directly. */
export const SYSTEM_ACTOR: AuditActor = { kind: 'system', id: 'system', role: 'admin' };

interface Deps {
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The actor of the call in progress (REST gate, CLI), or undefined for the service itself. */
  readonly context: () => AuditContext | undefined;
}

/** What a row says about one call: its target, snapshots and reason. */
interface Row {
  readonly targetType: string;
  readonly targetId: string | null;
  readonly before?: unknown;
  readonly after: unknown;
  readonly reason?: string | null;
}

/**
 * The admin use cases, each write followed by its audit row (docs/decisions.md § Operators: audit
 * log): who (the context's actor), what (the use case's name), the target, before and after, the
 * reason and the request id. Refused calls change nothing and write nothing. The actor key of
 * refunds, pins, spreads and reviews is the actor's id, so the per-feature tables agree with the log.
 * Never records a secret: issued keys are recorded without the key.
 */
export function auditedAdmin(base: AdminApplication, deps: Deps): AdminApplication {
  const actorId = () => deps.context()?.actor.id ?? SYSTEM_ACTOR.id;
  async function write(action: string, row: Row): Promise<void> {
    const context = deps.context();
    await deps.audit.append({
      id: deps.ids.next('aud'), at: deps.clock.now(), actor: context?.actor ?? SYSTEM_ACTOR, action,
      targetType: row.targetType, targetId: row.targetId, before: row.before ?? null, after: row.after ?? null,
      reason: row.reason ?? null, requestId: context?.requestId ?? null,
    });
  }
  async function recorded<T, C extends string>(action: string, call: Promise<Result<T, C>>, row: (value: T) => Row): Promise<Result<T, C>> {
    const result = await call;
    if (result.ok) await write(action, row(result.value));
    return result;
  }
  const withoutKey = <V extends { apiKey: string }>({ apiKey: _secret, ...view }: V) => view;
  const screening: ScreeningAdmin | undefined = base.screening && {
    ...base.screening,
    loadList: (source, document) => recorded('loadScreeningList', base.screening!.loadList(source, document), (list) => ({ targetType: 'screening_list', targetId: source, after: list })),
    clearReview: (paymentId, _keyId, reason) => recorded('clearComplianceReview', base.screening!.clearReview(paymentId, actorId(), reason),
      (review) => ({ targetType: 'compliance_review', targetId: paymentId, before: { status: 'pending' }, after: { status: review.status }, reason })),
    rejectReview: (paymentId, _keyId, reason) => recorded('rejectComplianceReview', base.screening!.rejectReview(paymentId, actorId(), reason),
      (review) => ({ targetType: 'compliance_review', targetId: paymentId, before: { status: 'pending' }, after: { status: review.status }, reason })),
  };
  return {
    ...base,
    ...(screening ? { screening } : {}),
    createTenant: (input) => recorded('createTenant', base.createTenant(input), (tenant) => ({ targetType: 'tenant', targetId: tenant.tenantId, after: tenant })),
    updateTenant: async (tenantId, patch) => {
      const before = (await base.listTenants()).find((t) => t.tenantId === tenantId) ?? null;
      return recorded('updateTenant', base.updateTenant(tenantId, patch), (tenant) => ({ targetType: 'tenant', targetId: tenantId, before, after: tenant }));
    },
    issueApiKey: (tenantId, input) => recorded('issueApiKey', base.issueApiKey(tenantId, input), (key) => ({ targetType: 'api_key', targetId: key.keyId, after: withoutKey(key) })),
    issueAdminKey: async (input) => {
      const key = await base.issueAdminKey(input);
      await write('issueAdminKey', { targetType: 'api_key', targetId: key.keyId, after: withoutKey(key) });
      return key;
    },
    revokeApiKey: (keyId) => recorded('revokeApiKey', base.revokeApiKey(keyId), () => ({ targetType: 'api_key', targetId: keyId, after: { revoked: true } })),
    recordDeposit: (tenantId, command) => recorded('recordDeposit', base.recordDeposit(tenantId, command),
      (receipt) => ({ targetType: 'deposit', targetId: receipt.depositId, after: { tenantId, ...receipt } })),
    fundSandboxTenant: (tenantId, funding) => recorded('fundSandboxTenant', base.fundSandboxTenant(tenantId, funding),
      (funded) => ({ targetType: 'tenant', targetId: tenantId, after: funded })),
    simulatePayment: (paymentId, outcome) => recorded('simulatePayment', base.simulatePayment(paymentId, outcome),
      (payment) => ({ targetType: 'payment', targetId: paymentId, after: { outcome, status: payment.status } })),
    markRefundSent: (refundId, txHash) => recorded('markRefundSent', base.markRefundSent(refundId, txHash, actorId()),
      (refund) => ({ targetType: 'refund', targetId: refundId, after: { status: refund.status, txHash } })),
    retryRefund: (refundId) => recorded('retryRefund', base.retryRefund(refundId, actorId()),
      (refund) => ({ targetType: 'refund', targetId: refundId, before: { status: 'failed' }, after: { status: refund.status } })),
    pinRate: (command) => recorded('pinRate', base.pinRate(command, actorId()),
      (pin) => ({ targetType: 'rate_pin', targetId: pin.id, after: pin, reason: command.reason })),
    setSpread: (command) => recorded('setRateSpread', base.setSpread(command, actorId()),
      (change) => ({ targetType: 'rate_spread', targetId: `${command.country}:${command.paymentMethod}`, after: change, reason: command.reason })),
  };
}
