import { Migration } from '@mikro-orm/migrations';

/**
 * Operators of the platform (docs/decisions.md § Operators: sign-in, sessions, roles, audit log):
 * their accounts (local with a password hash and a sealed TOTP secret, or from the identity provider),
 * their sessions (only hashes of the session id and CSRF token are kept), the short-lived OpenID
 * Connect sign-in attempts, and the append-only audit log that PostgreSQL itself keeps from
 * UPDATE, DELETE and TRUNCATE.
 */
export class Migration20261127211000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "operators" (
      "id" varchar(40) not null, "email" varchar(254) not null, "role" varchar(10) not null, "status" varchar(10) not null,
      "password_hash" text null, "totp_secret" text null, "totp_last_step" bigint null,
      "oidc_issuer" varchar(500) null, "oidc_subject" varchar(255) null,
      "created_at" timestamptz not null, "updated_at" timestamptz not null,
      constraint "operators_pkey" primary key ("id"),
      constraint operators_role_check check (role in ('viewer', 'operator', 'admin')),
      constraint operators_status_check check (status in ('active', 'disabled')),
      constraint operators_email_lower_check check (email = lower(email)),
      constraint operators_local_check check ((password_hash is null) = (totp_secret is null)),
      constraint operators_oidc_check check ((oidc_issuer is null) = (oidc_subject is null)));`);
    this.addSql('create unique index "operators_email_key" on "operators" ("email");');
    this.addSql('create unique index "operators_oidc_key" on "operators" ("oidc_issuer", "oidc_subject") where oidc_issuer is not null;');

    this.addSql(`create table "operator_sessions" (
      "id_hash" char(64) not null, "operator_id" varchar(40) not null references "operators" ("id"),
      "csrf_hash" char(64) not null, "method" varchar(10) not null,
      "created_at" timestamptz not null, "last_seen_at" timestamptz not null, "expires_at" timestamptz not null,
      "revoked_at" timestamptz null,
      constraint "operator_sessions_pkey" primary key ("id_hash"),
      constraint operator_sessions_method_check check (method in ('password', 'oidc')));`);
    this.addSql('create index "operator_sessions_operator_idx" on "operator_sessions" ("operator_id") where revoked_at is null;');

    this.addSql(`create table "operator_sign_in_attempts" (
      "id_hash" char(64) not null, "state" varchar(100) not null, "nonce" varchar(100) not null,
      "code_verifier" varchar(200) not null, "expires_at" timestamptz not null,
      constraint "operator_sign_in_attempts_pkey" primary key ("id_hash"));`);

    this.addSql(`create table "audit_log" (
      "id" varchar(40) not null, "at" timestamptz not null,
      "actor_kind" varchar(10) not null, "actor_id" varchar(300) not null, "actor_role" varchar(10) not null,
      "action" varchar(80) not null, "target_type" varchar(40) not null, "target_id" varchar(200) null,
      "before" jsonb null, "after" jsonb null, "reason" varchar(1000) null, "request_id" varchar(100) null,
      constraint "audit_log_pkey" primary key ("id"),
      constraint audit_log_actor_kind_check check (actor_kind in ('session', 'admin_key', 'cli', 'system')),
      constraint audit_log_actor_role_check check (actor_role in ('viewer', 'operator', 'admin')));`);
    this.addSql('create index "audit_log_at_idx" on "audit_log" ("at" desc, "id" desc);');
    this.addSql('create index "audit_log_actor_idx" on "audit_log" ("actor_id", "at" desc);');
    this.addSql('create index "audit_log_target_idx" on "audit_log" ("target_type", "target_id", "at" desc);');
    this.addSql(`create function audit_log_append_only() returns trigger language plpgsql as $$
      begin raise exception 'audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege'; end $$;`);
    this.addSql(`create trigger audit_log_no_update_delete before update or delete on "audit_log"
      for each row execute function audit_log_append_only();`);
    this.addSql(`create trigger audit_log_no_truncate before truncate on "audit_log"
      for each statement execute function audit_log_append_only();`);
    // A deployment that runs the service under its own role (the `payout_app` role, docs/operations.md § Operators) loses the rights too.
    this.addSql(`do $$ begin
      if exists (select 1 from pg_roles where rolname = 'payout_app') then
        execute 'revoke update, delete, truncate on audit_log from payout_app';
      end if; end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "audit_log";');
    this.addSql('drop function if exists audit_log_append_only();');
    this.addSql('drop table if exists "operator_sign_in_attempts";');
    this.addSql('drop table if exists "operator_sessions";');
    this.addSql('drop table if exists "operators";');
  }

}
