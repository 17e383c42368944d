import type { EntityManager } from '@mikro-orm/postgresql';
import { idNumberHashInput, type PersonalDataBox } from '../providers/personal-data-box';

/** Rows sealed by one run of the backfill, per table. */
export interface BackfillReport {
  readonly customers: number;
  readonly payments: number;
  readonly idempotencyKeys: number;
}

/** One table's part of the backfill: which rows are still in clear, and how one becomes sealed. */
interface Pass {
  /** Selects the next rows still in clear after the cursor (its `?`s), in key order, `limit ?`, locked. */
  readonly select: string;
  /** The cursor before the first row. */
  readonly start: string[];
  /** The row's key: the cursor after it. */
  readonly keyOf: (row: Row) => string[];
  /** `update ... from (values %VALUES%) as v(...)`: writes the sealed forms and empties the clear ones. */
  readonly update: string;
  /** The values of one row for `update`, in its column order. */
  readonly valuesOf: (row: Row) => (string | null)[];
}

type Row = Record<string, string | null>;

function passes(box: PersonalDataBox): Record<keyof BackfillReport, Pass> {
  const sealed = (v: string | null | undefined) => (v === null || v === undefined ? null : box.seal(v));
  return {
    customers: {
      select: 'select id, id_type, id_number from customers where id > ? and id_number is not null order by id limit ? for update',
      start: [''],
      keyOf: (r) => [r.id!],
      update: `update customers c set id_number_sealed = v.sealed, id_number_hash = v.hash, id_number = null
                 from (values %VALUES%) as v(id, sealed, hash) where c.id = v.id`,
      valuesOf: (r) => [r.id!, box.seal(r.id_number!), box.keyedHash('id-number', idNumberHashInput(r.id_type!, r.id_number!))],
    },
    payments: {
      select: `select id, account_number, account_name from payments
                where id > ? and (account_number is not null or account_name is not null) order by id limit ? for update`,
      start: [''],
      keyOf: (r) => [r.id!],
      update: `update payments p set account_number_sealed = coalesce(v.number, p.account_number_sealed),
                 account_name_sealed = coalesce(v.name, p.account_name_sealed), account_number = null, account_name = null
                 from (values %VALUES%) as v(id, number, name) where p.id = v.id`,
      valuesOf: (r) => [r.id!, sealed(r.account_number), sealed(r.account_name)],
    },
    // Fingerprints of requests made before: canonical JSON (it starts with `{`), holding account data.
    idempotencyKeys: {
      select: `select tenant_id, key, fingerprint from idempotency_keys
                where (tenant_id, key) > (?, ?) and fingerprint like '{%' order by tenant_id, key limit ? for update`,
      start: ['', ''],
      keyOf: (r) => [r.tenant_id!, r.key!],
      update: `update idempotency_keys i set fingerprint = v.fingerprint
                 from (values %VALUES%) as v(tenant_id, key, fingerprint) where i.tenant_id = v.tenant_id and i.key = v.key`,
      valuesOf: (r) => [r.tenant_id!, r.key!, box.keyedHash('idempotency-fingerprint', r.fingerprint!)],
    },
  };
}

async function run(em: EntityManager, pass: Pass, batchSize: number): Promise<number> {
  let after = pass.start;
  let sealedRows = 0;
  for (;;) {
    // One transaction per batch: a crash loses at most a batch, and the next start resumes. The
    // rows stay locked (FOR UPDATE, waiting rather than skipping, so no row is left behind) until
    // their sealed forms are committed; a second replica running the backfill waits, then finds them done.
    const batch = await em.transactional(async (tx) => {
      const rows = await tx.execute<Row[]>(pass.select, [...after, batchSize]);
      if (rows.length === 0) return rows;
      const values = rows.map(pass.valuesOf);
      const tuple = `(${values[0]!.map(() => '?').join(', ')})`;
      await tx.execute(pass.update.replace('%VALUES%', values.map(() => tuple).join(', ')), values.flat());
      return rows;
    });
    if (batch.length === 0) return sealedRows;
    sealedRows += batch.length;
    after = pass.keyOf(batch[batch.length - 1]!);
  }
}

/**
 * Seals the personal data of rows written in clear before sealing existed (docs/decisions.md §
 * Personal data and secrets): customers' id numbers (sealed, plus their keyed hash), payments'
 * account numbers and names, and idempotency fingerprints (replaced by their keyed hash), in
 * batches of `batchSize` rows, emptying the clear columns. Idempotent and resumable: it only ever
 * picks rows still in clear. The service runs it at start, after migrations and before serving.
 * Returns how many rows it sealed; it never reads a value out anywhere else (nor logs one).
 */
export async function sealClearPersonalData(em: EntityManager, box: PersonalDataBox, batchSize = 500): Promise<BackfillReport> {
  const all = passes(box);
  const fork = em.fork();
  return {
    customers: await run(fork, all.customers, batchSize),
    payments: await run(fork, all.payments, batchSize),
    idempotencyKeys: await run(fork, all.idempotencyKeys, batchSize),
  };
}
