import type { Operator, OperatorRole, OperatorStatus } from './operator';

/** Port: stored operators (docs/decisions.md § Operators: sign-in, sessions, roles, audit log). */
export interface OperatorStore {
  /** Inserts `operator`; false when its e-mail (or identity-provider subject) is already taken. */
  insert(operator: Operator): Promise<boolean>;
  findById(id: string): Promise<Operator | undefined>;
  findByEmail(email: string): Promise<Operator | undefined>;
  findBySubject(issuer: string, subject: string): Promise<Operator | undefined>;
  /** Every operator, oldest first. */
  list(): Promise<Operator[]>;
  /** Sets role and status; returns the operator after the change, undefined when unknown. */
  update(id: string, change: { role: OperatorRole; status: OperatorStatus; email?: string }, at: Date): Promise<Operator | undefined>;
  /**
   * Records `step` as the last TOTP time step accepted, only if it is later than the stored one;
   * false when another sign-in already used it (a replayed code).
   */
  useTotpStep(id: string, step: number): Promise<boolean>;
}

/** A stored session: only hashes of its id and CSRF token are kept. */
export interface OperatorSession {
  readonly idHash: string;
  readonly operatorId: string;
  readonly csrfHash: string;
  readonly method: 'password' | 'oidc';
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  /** The absolute end of the session, whatever its use. */
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
}

/** Port: operator sessions. */
export interface SessionStore {
  insert(session: OperatorSession): Promise<void>;
  find(idHash: string): Promise<OperatorSession | undefined>;
  /** Moves `lastSeenAt` forward (idle timeout). */
  touch(idHash: string, at: Date): Promise<void>;
  /** Revokes one session; idempotent. */
  revoke(idHash: string, at: Date): Promise<void>;
  /** Revokes every live session of an operator; returns how many. */
  revokeAll(operatorId: string, at: Date): Promise<number>;
}

/** Port: password hashing (argon2id in production). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** True when `password` matches `hash`; false (never throws) on a malformed hash. */
  verify(hash: string, password: string): Promise<boolean>;
}

/** Port: RFC 6238 time-based one-time passwords (6 digits, 30-second steps, SHA-1: what authenticator apps use). */
export interface Totp {
  /** A new random base32 secret (at least 160 bits). */
  newSecret(): string;
  /** The otpauth:// URI an authenticator app scans. */
  uri(secret: string, label: string): string;
  /** The time step `code` is valid for at `now` (one step of drift either way), or undefined. */
  verify(secret: string, code: string, now: Date): Promise<number | undefined>;
}

/** Port: unguessable tokens (session ids, CSRF tokens) and their one-way hashes. */
export interface TokenSource {
  /** A new random token, URL-safe, at least 256 bits. */
  next(): string;
  /** Hex SHA-256 of `token`. */
  hash(token: string): string;
}

/** An OpenID Connect sign-in under way: what the callback must check (state, nonce) and prove (PKCE verifier). */
export interface SignInAttempt {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
  readonly expiresAt: Date;
}

/** Port: sign-in attempts, keyed by the hash of the token in the browser's attempt cookie; each is taken once. */
export interface SignInAttemptStore {
  insert(idHash: string, attempt: SignInAttempt): Promise<void>;
  /** Removes and returns the attempt if it has not expired at `now`; expired ones are removed too. */
  take(idHash: string, now: Date): Promise<SignInAttempt | undefined>;
}
