import { Migration } from '@mikro-orm/migrations';

/**
 * The deposit register (docs/decisions.md § Ledger): one row per credited onchain deposit, unique
 * per (blockchain, canonical hash) across all tenants. Backfilled from the deposit ledger
 * transactions already posted, first credit winning; the others (duplicates, and hashes that are
 * not a valid transaction hash of their chain) are reported, never deleted: each one as a WARNING
 * while this runs, and at any time through the view `deposit_anomalies`.
 */
export class Migration20261123163205 extends Migration {

  override async up(): Promise<void> {
    // Bytes a base58 string decodes to (leading '1's are zero bytes); -1 when it is not base58.
    this.addSql(`create function base58_byte_length(encoded text) returns int language plpgsql immutable strict as $$
      declare
        alphabet constant text := '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
        value numeric := 0;
        digit int;
        bytes int := 0;
      begin
        if length(encoded) > 90 then return -1; end if;
        for i in 1 .. length(encoded) loop
          digit := strpos(alphabet, substr(encoded, i, 1)) - 1;
          if digit < 0 then return -1; end if;
          value := value * 58 + digit;
        end loop;
        while value > 0 loop
          value := div(value, 256);
          bytes := bytes + 1;
        end loop;
        return length(substring(encoded from '^1*')) + bytes;
      end $$;`);
    // The canonical hash a legacy deposit stands for, whitespace forgiven so padded copies are
    // recognised as the duplicates they are; null when it is no valid hash of its chain.
    this.addSql(`create function deposit_canonical_hash(blockchain text, raw text) returns text language sql immutable strict as $$
      select case
        when blockchain = 'BSC' and btrim(raw, E' \\t\\r\\n') ~ '^0x[0-9a-fA-F]{64}$' then lower(btrim(raw, E' \\t\\r\\n'))
        when blockchain = 'SOLANA' and base58_byte_length(btrim(raw, E' \\t\\r\\n')) = 64 then btrim(raw, E' \\t\\r\\n')
      end $$;`);

    this.addSql(`alter table "ledger_transactions" alter column "kind" type varchar(20);`);
    this.addSql(`create table "deposits" ("id" varchar(40) not null, "tenant_id" varchar(40) not null, "blockchain" varchar(10) not null, "tx_hash" varchar(90) not null, "currency" varchar(4) not null, "amount" numeric(38,6) not null, "ledger_transaction_id" varchar(40) not null, "created_at" timestamptz not null, constraint "deposits_pkey" primary key ("id"), constraint deposits_tx_hash_canonical_check check ((blockchain = 'BSC' and tx_hash ~ '^0x[0-9a-f]{64}$') or (blockchain = 'SOLANA' and base58_byte_length(tx_hash) = 64)));`);
    this.addSql(`alter table "deposits" add constraint "deposits_ledger_transaction_id_unique" unique ("ledger_transaction_id");`);
    this.addSql(`create index "deposits_tenant_created_idx" on "deposits" ("tenant_id", "created_at");`);
    this.addSql(`alter table "deposits" add constraint "deposits_chain_hash_unique" unique ("blockchain", "tx_hash");`);

    // Deposit ledger transactions carry '<blockchain>:<hash as given>' in external_ref.
    this.addSql(`create view "deposit_ledger_claims" as
      select t.id as ledger_transaction_id, t.tenant_id, t.currency, t.amount, t.external_ref, t.created_at,
             split_part(t.external_ref, ':', 1) as blockchain,
             deposit_canonical_hash(split_part(t.external_ref, ':', 1), substr(t.external_ref, strpos(t.external_ref, ':') + 1)) as tx_hash
        from ledger_transactions t
       where t.kind = 'deposit';`);
    this.addSql(`insert into deposits (id, tenant_id, blockchain, tx_hash, currency, amount, ledger_transaction_id, created_at)
      select distinct on (blockchain, tx_hash) 'dep_' || substr(ledger_transaction_id, 5), tenant_id, blockchain, tx_hash, currency, amount,
             ledger_transaction_id, created_at
        from deposit_ledger_claims
       where tx_hash is not null
       order by blockchain, tx_hash, created_at, ledger_transaction_id;`);
    // What an operator reviews: every deposit credit the register does not hold, and why.
    this.addSql(`create view "deposit_anomalies" as
      select c.ledger_transaction_id, c.tenant_id, c.currency, c.amount, c.external_ref, c.created_at,
             case when c.tx_hash is null then 'malformed_hash' else 'duplicate' end as problem,
             first.tenant_id as first_credit_tenant_id, first.ledger_transaction_id as first_credit_ledger_transaction_id
        from deposit_ledger_claims c
        left join deposits mine on mine.ledger_transaction_id = c.ledger_transaction_id
        left join deposits first on first.blockchain = c.blockchain and first.tx_hash = c.tx_hash
       where mine.id is null;`);
    this.addSql(`do $$
      declare anomaly record;
      begin
        for anomaly in select * from deposit_anomalies order by created_at, ledger_transaction_id loop
          raise warning 'deposit % of tenant % (% %, %) is %; first credit: % of tenant %; nothing deleted, see view deposit_anomalies',
            anomaly.ledger_transaction_id, anomaly.tenant_id, anomaly.amount, anomaly.currency, anomaly.external_ref, anomaly.problem,
            anomaly.first_credit_ledger_transaction_id, anomaly.first_credit_tenant_id;
        end loop;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop view if exists "deposit_anomalies";`);
    this.addSql(`drop view if exists "deposit_ledger_claims";`);
    this.addSql(`drop table if exists "deposits" cascade;`);
    this.addSql(`drop function if exists deposit_canonical_hash(text, text);`);
    this.addSql(`drop function if exists base58_byte_length(text);`);
    this.addSql(`alter table "ledger_transactions" alter column "kind" type varchar(12);`);
  }

}
