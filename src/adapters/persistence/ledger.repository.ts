import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { ACCOUNT_KINDS, type BalanceView, type LedgerReader, type LedgerStore, type LedgerTransactionView, type Transfer } from '../../core/ledger/ledger';
import type { IdGenerator } from '../../core/shared/clock';
import { formatAmount, STABLECOINS, type Stablecoin } from '../../core/shared/money';
import { LedgerAccountSchema } from './schemas/ledger.schema';
import { decodeCursor, encodeCursor } from './keyset-cursor';

/**
 * Posts a transfer as ONE statement (docs/decisions.md § Ledger): debit (conditional on funds when asked), credit,
 * the transaction row and its two entries. Statement atomicity means a refused debit or a duplicate
 * changes nothing; the balance rows are locked only from this statement to commit, which callers
 * make the last statement of their transaction.
 */
const POST_SQL = `
with src as (
  update ledger_accounts set balance = balance - ?::numeric, updated_at = ?
   where tenant_id = ? and currency = ? and kind = ? and (not ? or balance >= ?::numeric)
  returning id),
dst as (
  update ledger_accounts set balance = balance + ?::numeric, updated_at = ?
   where tenant_id = ? and currency = ? and kind = ? and exists (select 1 from src)
  returning id),
txn as (
  insert into ledger_transactions (id, tenant_id, currency, kind, amount, from_kind, to_kind, payment_id, external_ref, created_at)
  select ?, ?, ?, ?, ?::numeric, ?, ?, ?::text, ?::text, ?::timestamptz where exists (select 1 from dst)
  returning id)
insert into ledger_entries (transaction_id, account_id, amount, created_at)
select txn.id, src.id, -(?::numeric), ?::timestamptz from txn, src
union all
select txn.id, dst.id, ?::numeric, ?::timestamptz from txn, dst
returning transaction_id`;

/** LedgerStore on PostgreSQL, bound to one transaction's manager. */
export class LedgerTxStore implements LedgerStore {
  constructor(private readonly em: EntityManager, private readonly ids: IdGenerator) {}

  async post(t: Transfer): Promise<'posted' | 'insufficient_funds' | 'duplicate'> {
    try {
      return postOutcome(t, await this.em.execute<unknown[]>(...ledgerPostStatement(t, this.ids)));
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return 'duplicate';
      throw error;
    }
  }
}

/** The one statement that posts `t` (POST_SQL with its parameters). */
export function ledgerPostStatement(t: Transfer, ids: IdGenerator): [string, unknown[]] {
  const a = t.amount;
  return [POST_SQL, [
    a, t.at, t.tenantId, t.currency, t.from, t.requireFunds === true, a,
    a, t.at, t.tenantId, t.currency, t.to,
    t.transactionId ?? ids.next('ldg'), t.tenantId, t.currency, t.kind, a, t.from, t.to, t.paymentId ?? null, t.externalRef ?? null, t.at,
    a, t.at, a, t.at,
  ]];
}

/** What the rows returned by ledgerPostStatement mean: two entries written, or a refused debit. */
export function postOutcome(t: Transfer, rows: unknown[]): 'posted' | 'insufficient_funds' {
  if (rows.length === 2) return 'posted';
  if (t.requireFunds) return 'insufficient_funds';
  throw new Error(`ledger accounts missing for tenant ${t.tenantId} ${t.currency}`);
}

/** Creates the ledger accounts of a new tenant, all at zero, for every stablecoin. */
export async function createLedgerAccounts(em: EntityManager, tenantId: string, ids: IdGenerator, at: Date): Promise<void> {
  await em.insertMany(LedgerAccountSchema, STABLECOINS.flatMap((currency) =>
    ACCOUNT_KINDS.map((kind) => ({ id: ids.next('ldg'), tenantId, currency, kind, balance: '0', updatedAt: at }))));
}

/** Ids of ledger rows: `ldg_` and a ULID. */
const LEDGER_ID = /^ldg_[0-9A-Z]{26}$/;

interface TxRow {
  id: string; kind: LedgerTransactionView['kind']; currency: Stablecoin; amount: string; from_kind: LedgerTransactionView['from'];
  to_kind: LedgerTransactionView['to']; payment_id: string | null; external_ref: string | null; created_at: Date;
}

/** A `ledger_transactions` row as REST and GraphQL show it: the amount at its currency's scale, times ISO 8601. */
function toTransactionView(r: TxRow): LedgerTransactionView {
  return {
    id: r.id, kind: r.kind, currency: r.currency, amount: formatAmount(r.amount, r.currency), from: r.from_kind, to: r.to_kind,
    paymentId: r.payment_id, txHash: r.external_ref, createdAt: new Date(r.created_at).toISOString(),
  };
}

/** Balance reads (LedgerReader port), tenant-scoped. */
export class LedgerReadRepository implements LedgerReader {
  constructor(private readonly em: EntityManager) {}

  async balances(tenantId: string): Promise<BalanceView[]> {
    const rows = await this.em.fork().find(LedgerAccountSchema, { tenantId, kind: { $in: ['available', 'held', 'in_transit'] } });
    return STABLECOINS.map((currency) => {
      const of = (kind: string) => rows.find((r) => r.currency === currency && r.kind === kind)?.balance ?? '0';
      return {
        currency,
        available: formatAmount(of('available'), currency),
        held: formatAmount(of('held'), currency),
        inTransit: formatAmount(of('in_transit'), currency),
      };
    });
  }

  async transaction(tenantId: string, transactionId: string): Promise<LedgerTransactionView | undefined> {
    if (!LEDGER_ID.test(transactionId)) return undefined;
    const rows = await this.em.fork().execute<TxRow[]>('select * from ledger_transactions where tenant_id = ? and id = ?', [tenantId, transactionId]);
    return rows[0] ? toTransactionView(rows[0]) : undefined;
  }

  async transactions(tenantId: string, limit: number, cursor?: string) {
    const params: unknown[] = [tenantId];
    let after = '';
    if (cursor) {
      const decoded = decodeCursor(cursor, LEDGER_ID);
      if (!decoded) return 'bad_cursor' as const;
      after = 'and (created_at, id) < (?, ?)';
      params.push(...decoded);
    }
    const rows = await this.em.fork().execute<TxRow[]>(
      `select * from ledger_transactions where tenant_id = ? ${after} order by created_at desc, id desc limit ?`,
      [...params, limit + 1],
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      entries: page.map(toTransactionView),
      cursors: page.map((r) => encodeCursor(r.created_at, r.id)),
      ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.created_at, last.id) } : {}),
    };
  }
}
