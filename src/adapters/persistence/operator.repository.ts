import type { EntityManager } from '@mikro-orm/postgresql';
import type { Operator, OperatorRole, OperatorStatus } from '../../core/operators/operator';
import type { OperatorSession, OperatorStore, SessionStore, SignInAttempt, SignInAttemptStore } from '../../core/operators/operator-ports';

/** Seals and opens the TOTP secret at rest (the personal-data box). */
export interface SecretSeal {
  seal(clear: string): string;
  open(sealed: string): string;
}

interface OperatorRow {
  id: string; email: string; role: OperatorRole; status: OperatorStatus; password_hash: string | null; totp_secret: string | null;
  totp_last_step: string | null; oidc_issuer: string | null; oidc_subject: string | null; created_at: Date; updated_at: Date;
}

const COLUMNS = 'id, email, role, status, password_hash, totp_secret, totp_last_step::text as totp_last_step, oidc_issuer, oidc_subject, created_at, updated_at';
const UNIQUE_VIOLATION = '23505';

/**
 * Operators in `operators` (OperatorStore port; docs/decisions.md § Operators: sign-in, sessions,
 * roles, audit log). The TOTP secret is sealed with `seal` before it is written.
 */
export class OperatorRepository implements OperatorStore {
  constructor(private readonly em: EntityManager, private readonly secrets: SecretSeal) {}

  private of(row: OperatorRow): Operator {
    return {
      id: row.id, email: row.email, role: row.role, status: row.status, passwordHash: row.password_hash,
      totpSecret: row.totp_secret === null ? null : this.secrets.open(row.totp_secret),
      totpLastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
      oidcIssuer: row.oidc_issuer, oidcSubject: row.oidc_subject, createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at),
    };
  }

  private async one(where: string, params: unknown[]): Promise<Operator | undefined> {
    const [row] = await this.em.getConnection().execute<OperatorRow[]>(`select ${COLUMNS} from operators where ${where}`, params);
    return row ? this.of(row) : undefined;
  }

  async insert(o: Operator): Promise<boolean> {
    try {
      await this.em.getConnection().execute(
        `insert into operators (id, email, role, status, password_hash, totp_secret, totp_last_step, oidc_issuer, oidc_subject, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [o.id, o.email, o.role, o.status, o.passwordHash, o.totpSecret === null ? null : this.secrets.seal(o.totpSecret), o.totpLastStep,
          o.oidcIssuer, o.oidcSubject, o.createdAt, o.updatedAt],
      );
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return false;
      throw error;
    }
  }

  findById(id: string): Promise<Operator | undefined> {
    return this.one('id = ?', [id]);
  }

  findByEmail(email: string): Promise<Operator | undefined> {
    return this.one('email = ?', [email]);
  }

  findBySubject(issuer: string, subject: string): Promise<Operator | undefined> {
    return this.one('oidc_issuer = ? and oidc_subject = ?', [issuer, subject]);
  }

  async list(): Promise<Operator[]> {
    const rows = await this.em.getConnection().execute<OperatorRow[]>(`select ${COLUMNS} from operators order by created_at, id`);
    return rows.map((row) => this.of(row));
  }

  async update(id: string, change: { role: OperatorRole; status: OperatorStatus; email?: string }, at: Date): Promise<Operator | undefined> {
    const [row] = await this.em.getConnection().execute<OperatorRow[]>(
      `update operators set role = ?, status = ?, email = coalesce(?, email), updated_at = ? where id = ? returning ${COLUMNS}`,
      [change.role, change.status, change.email ?? null, at, id],
    );
    return row ? this.of(row) : undefined;
  }

  async useTotpStep(id: string, step: number): Promise<boolean> {
    // One statement: two sign-ins racing with the same code cannot both pass.
    const rows = await this.em.getConnection().execute<{ id: string }[]>(
      'update operators set totp_last_step = ? where id = ? and (totp_last_step is null or totp_last_step < ?) returning id',
      [step, id, step],
    );
    return rows.length === 1;
  }
}

interface SessionRow {
  id_hash: string; operator_id: string; csrf_hash: string; method: 'password' | 'oidc';
  created_at: Date; last_seen_at: Date; expires_at: Date; revoked_at: Date | null;
}

/** Operator sessions in `operator_sessions` (SessionStore port): hashes only, never the tokens. */
export class OperatorSessionRepository implements SessionStore {
  constructor(private readonly em: EntityManager) {}

  async insert(s: OperatorSession): Promise<void> {
    await this.em.getConnection().execute(
      'insert into operator_sessions (id_hash, operator_id, csrf_hash, method, created_at, last_seen_at, expires_at, revoked_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
      [s.idHash, s.operatorId, s.csrfHash, s.method, s.createdAt, s.lastSeenAt, s.expiresAt, s.revokedAt],
    );
  }

  async find(idHash: string): Promise<OperatorSession | undefined> {
    const [row] = await this.em.getConnection().execute<SessionRow[]>('select * from operator_sessions where id_hash = ?', [idHash]);
    return row && {
      idHash: row.id_hash, operatorId: row.operator_id, csrfHash: row.csrf_hash, method: row.method, createdAt: new Date(row.created_at),
      lastSeenAt: new Date(row.last_seen_at), expiresAt: new Date(row.expires_at), revokedAt: row.revoked_at ? new Date(row.revoked_at) : null,
    };
  }

  async touch(idHash: string, at: Date): Promise<void> {
    await this.em.getConnection().execute('update operator_sessions set last_seen_at = greatest(last_seen_at, ?) where id_hash = ?', [at, idHash]);
  }

  async revoke(idHash: string, at: Date): Promise<void> {
    await this.em.getConnection().execute('update operator_sessions set revoked_at = ? where id_hash = ? and revoked_at is null', [at, idHash]);
  }

  async revokeAll(operatorId: string, at: Date): Promise<number> {
    const rows = await this.em.getConnection().execute<{ id_hash: string }[]>(
      'update operator_sessions set revoked_at = ? where operator_id = ? and revoked_at is null returning id_hash', [at, operatorId],
    );
    return rows.length;
  }
}

/** OpenID Connect sign-in attempts in `operator_sign_in_attempts` (SignInAttemptStore port), each taken once. */
export class SignInAttemptRepository implements SignInAttemptStore {
  constructor(private readonly em: EntityManager) {}

  async insert(idHash: string, a: SignInAttempt): Promise<void> {
    await this.em.getConnection().execute(
      'insert into operator_sign_in_attempts (id_hash, state, nonce, code_verifier, expires_at) values (?, ?, ?, ?, ?)',
      [idHash, a.state, a.nonce, a.codeVerifier, a.expiresAt],
    );
  }

  async take(idHash: string, now: Date): Promise<SignInAttempt | undefined> {
    // Abandoned attempts go with any later sign-in, so the table stays small without a sweeper.
    await this.em.getConnection().execute('delete from operator_sign_in_attempts where expires_at <= ? and id_hash <> ?', [now, idHash]);
    const [row] = await this.em.getConnection().execute<{ state: string; nonce: string; code_verifier: string; expires_at: Date }[]>(
      'delete from operator_sign_in_attempts where id_hash = ? returning state, nonce, code_verifier, expires_at', [idHash],
    );
    if (!row || new Date(row.expires_at) <= now) return undefined;
    return { state: row.state, nonce: row.nonce, codeVerifier: row.code_verifier, expiresAt: new Date(row.expires_at) };
  }
}
