import { Migration } from '@mikro-orm/migrations';

/**
 * Admin keys are platform keys with no tenant (docs/decisions.md § Authentication, tenants and
 * keys). Revokes every live admin key bound to a tenant, reporting each one (a WARNING while this
 * runs, and the view `tenant_bound_admin_keys` afterwards), then makes the database refuse any
 * live key whose scope and tenant disagree. Revoked rows stay, as the record of what happened.
 */
export class Migration20261123163441 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`do $$
      declare k record;
      begin
        for k in select id, tenant_id, label, created_at from api_keys
                  where scope = 'admin' and tenant_id is not null and revoked_at is null order by created_at, id loop
          raise warning 'revoking admin key % (label %, created %) bound to tenant %: admin keys belong to no tenant',
            k.id, k.label, k.created_at, k.tenant_id;
          -- Running replicas drop the key from their authentication cache.
          perform pg_notify('api_key_revoked', k.id);
        end loop;
      end $$;`);
    this.addSql(`update api_keys set revoked_at = now() where scope = 'admin' and tenant_id is not null and revoked_at is null;`);
    this.addSql(`create view "tenant_bound_admin_keys" as
      select id, tenant_id, label, created_at, revoked_at from api_keys where scope = 'admin' and tenant_id is not null;`);
    this.addSql(`alter table "api_keys" add constraint api_keys_scope_tenant_check check(revoked_at is not null or (scope = 'admin' and tenant_id is null) or (scope = 'issuer' and tenant_id is not null));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "api_keys" drop constraint api_keys_scope_tenant_check;`);
    this.addSql(`drop view if exists "tenant_bound_admin_keys";`);
  }

}
