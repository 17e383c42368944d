import { err, ok, type Result } from '../shared/result';
import type { AuditActor } from './audit-log';
import {
  MIN_PASSWORD_LENGTH, normalEmail, toOperatorView, type Operator, type OperatorRole, type OperatorStatus, type OperatorView,
} from './operator';
import { signOutEverywhere, type SessionDeps } from './operator-sessions';

/** Failures of operator management; a closed set each transport maps. */
export type OperatorAdminErrorCode = 'validation_error' | 'not_found' | 'duplicate_operator' | 'invalid_state';

/** A new local operator: its TOTP secret and the otpauth:// URI to scan are in this answer only. */
export interface CreatedOperator extends OperatorView {
  readonly totpSecret: string;
  readonly otpauthUrl: string;
}

/** Name shown by authenticator apps next to the code. */
const TOTP_ISSUER_LABEL = 'Payout gateway';

/**
 * Creates a local operator (docs/decisions.md § Operators: sign-in, sessions, roles, audit log) with
 * `password` hashed (argon2id) and a new TOTP secret. Errors: `validation_error` (e-mail, a password
 * shorter than MIN_PASSWORD_LENGTH), `duplicate_operator` (e-mail taken). Writes a `createOperator` audit row.
 */
export async function createOperator(
  deps: SessionDeps, input: { email: string; role: OperatorRole; password: string }, actor: AuditActor, requestId: string | null,
): Promise<Result<CreatedOperator, OperatorAdminErrorCode>> {
  const email = normalEmail(input.email);
  if (!email) return err('validation_error', 'email must be an e-mail address', { fields: [{ path: 'body.email', message: 'Not an e-mail address' }] });
  if (input.password.length < MIN_PASSWORD_LENGTH) {
    return err('validation_error', `password must have at least ${MIN_PASSWORD_LENGTH} characters`, { fields: [{ path: 'body.password', message: 'Too short' }] });
  }
  const now = deps.clock.now();
  const totpSecret = deps.totp.newSecret();
  const operator: Operator = {
    id: deps.ids.next('opr'), email, role: input.role, status: 'active', passwordHash: await deps.passwords.hash(input.password), totpSecret,
    totpLastStep: null, oidcIssuer: null, oidcSubject: null, createdAt: now, updatedAt: now,
  };
  if (!(await deps.operators.insert(operator))) return err('duplicate_operator', `An operator with e-mail ${email} already exists`);
  const view = toOperatorView(operator);
  await deps.audit.append({
    id: deps.ids.next('aud'), at: now, actor, action: 'createOperator', targetType: 'operator', targetId: operator.id,
    before: null, after: view, reason: null, requestId,
  });
  return ok({ ...view, totpSecret, otpauthUrl: deps.totp.uri(totpSecret, `${TOTP_ISSUER_LABEL}:${email}`) });
}

/** Every operator, oldest first, without secrets. */
export async function listOperators(deps: Pick<SessionDeps, 'operators'>): Promise<OperatorView[]> {
  return (await deps.operators.list()).map(toOperatorView);
}

/**
 * Changes an operator's role or status (enable, disable). Disabling ends every session of the
 * operator at once; a role change applies from the next request (sessions read the role each
 * time). Errors: `not_found`; `invalid_state` when the change would leave no active admin.
 * Writes an `updateOperator` audit row with before and after.
 */
export async function updateOperator(
  deps: SessionDeps, operatorId: string, change: { role?: OperatorRole; status?: OperatorStatus }, actor: AuditActor, requestId: string | null,
): Promise<Result<OperatorView, OperatorAdminErrorCode>> {
  const current = await deps.operators.findById(operatorId);
  if (!current) return err('not_found', `Operator ${operatorId} not found`);
  const role = change.role ?? current.role;
  const status = change.status ?? current.status;
  const losesAdmin = current.role === 'admin' && current.status === 'active' && (role !== 'admin' || status !== 'active');
  if (losesAdmin) {
    const admins = (await deps.operators.list()).filter((o) => o.role === 'admin' && o.status === 'active');
    if (admins.length <= 1) return err('invalid_state', 'This is the last active admin operator: make another admin first');
  }
  const now = deps.clock.now();
  const updated = await deps.operators.update(operatorId, { role, status }, now);
  if (!updated) return err('not_found', `Operator ${operatorId} not found`);
  await deps.audit.append({
    id: deps.ids.next('aud'), at: now, actor, action: 'updateOperator', targetType: 'operator', targetId: operatorId,
    before: toOperatorView(current), after: toOperatorView(updated), reason: null, requestId,
  });
  if (status === 'disabled' && current.status !== 'disabled') await signOutEverywhere(deps, operatorId, actor, requestId);
  return ok(toOperatorView(updated));
}
