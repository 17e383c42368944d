/**
 * Operators: the people who run the platform (docs/decisions.md § Operators: sign-in, sessions,
 * roles, audit log). Pure types and rules.
 */

/** Roles, weakest first: `viewer` reads; `operator` also works the queues; `admin` also manages tenants, keys, pricing and operators. */
export const OPERATOR_ROLES = ['viewer', 'operator', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** `active` operators may sign in; `disabled` ones may not, and their sessions stop working at once. */
export const OPERATOR_STATUSES = ['active', 'disabled'] as const;
export type OperatorStatus = (typeof OPERATOR_STATUSES)[number];

/**
 * A stored operator (`opr_<ULID>`). Local accounts have `passwordHash` (argon2id, PHC string) and
 * `totpSecret` (base32, clear here; sealed at rest by the store); accounts from the identity provider
 * have `oidcIssuer` and `oidcSubject` instead.
 */
export interface Operator {
  readonly id: string;
  /** Lower-case e-mail address; unique. */
  readonly email: string;
  readonly role: OperatorRole;
  readonly status: OperatorStatus;
  readonly passwordHash: string | null;
  readonly totpSecret: string | null;
  /** The last TOTP time step accepted (30-second steps since the epoch), so a code is never accepted twice. */
  readonly totpLastStep: number | null;
  readonly oidcIssuer: string | null;
  readonly oidcSubject: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What the API shows of an operator: never the password hash or TOTP secret. */
export interface OperatorView {
  readonly operatorId: string;
  readonly email: string;
  readonly role: OperatorRole;
  readonly status: OperatorStatus;
  /** `local` (password and TOTP) or `oidc` (the company's identity provider). */
  readonly signIn: 'local' | 'oidc';
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The public view of `operator`. Pure. */
export function toOperatorView(operator: Operator): OperatorView {
  return {
    operatorId: operator.id, email: operator.email, role: operator.role, status: operator.status,
    signIn: operator.oidcSubject !== null ? 'oidc' : 'local',
    createdAt: operator.createdAt.toISOString(), updatedAt: operator.updatedAt.toISOString(),
  };
}

/** True when `role` may do what `needed` may (viewer < operator < admin). Pure. */
export function roleAllows(role: OperatorRole, needed: OperatorRole): boolean {
  return OPERATOR_ROLES.indexOf(role) >= OPERATOR_ROLES.indexOf(needed);
}

/** A plausible e-mail address, lower-cased and trimmed, or undefined. Pure. */
export function normalEmail(raw: string): string | undefined {
  const email = raw.trim().toLowerCase();
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : undefined;
}

/** Shortest local password accepted (characters); a passphrase is encouraged (docs/operations.md § Operators). */
export const MIN_PASSWORD_LENGTH = 12;
