import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import {
  ACCOUNT_KINDS, type BalanceView, type LedgerReader, type LedgerStore, type LedgerTransactionView, type Transfer, type UncheckedTransfer,
} from '../../core/ledger/ledger';
import type { IdGenerator } from '../../core/shared/clock';
import { formatAmount, STABLECOINS, type Stablecoin } from '../../core/shared/money';
import { LedgerAccountSchema } from './schemas/ledger.schema';
import { decodeCursor, encodeCursor } from './keyset-cursor';
import { gatherLegs, LEDGER_SLOTS, plainLegs, postStatement, rowsOf } from './ledger-post.statement';

let nextHoldSlot = 0;

/** The slot the next hold takes: round robin, so concurrent holds of one tenant lock different rows. */
function holdSlot(): number {
  nextHoldSlot = (nextHoldSlot + 1) % LEDGER_SLOTS;
  return nextHoldSlot;
}

/**
 * LedgerStore on PostgreSQL, bound to one transaction's manager (docs/decisions.md § Ledger: balance
 * slots). `post` writes unchecked transfers; a hold's slow path, `gatherAndHold`, serves
 * PaymentTxRepository.create.
 */
export class LedgerTxStore implements LedgerStore {
  constructor(private readonly em: EntityManager, private readonly ids: IdGenerator) {}

  async post(t: UncheckedTransfer): Promise<'posted' | 'duplicate'> {
    try {
      const rows = await this.em.execute<unknown[]>(...ledgerPostStatement(t, this.ids).statement);
      // Unchecked, so only missing accounts leave it unposted: a bug, never an answer.
      if (rows.length < 2) throw new Error(`ledger accounts missing for tenant ${t.tenantId} ${t.currency}`);
      return 'posted';
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return 'duplicate';
      throw error;
    }
  }

  /**
   * The slow path of a hold its slot does not cover: locks every slot of the debited account (in
   * slot order, so two of these never deadlock), refuses when their sum does not cover the amount
   * (an exact check: nothing can move them meanwhile), else debits as many slots as it takes and
   * credits the hold's slot, as one ledger transaction. `transactionId` is the one the fast path tried.
   */
  async gatherAndHold(t: Transfer, slot: number, transactionId: string): Promise<'posted' | 'insufficient_funds'> {
    const balances = await this.em.execute<{ slot: number; balance: string }[]>(
      'select slot, balance from ledger_accounts where tenant_id = ? and currency = ? and kind = ? order by slot for update',
      [t.tenantId, t.currency, t.from]);
    const debits = gatherLegs(t.amount, slot, balances.map((b) => ({ slot: Number(b.slot), balance: String(b.balance) })));
    if (!debits) return 'insufficient_funds';
    // Unchecked: the rows are locked and their balances known; the non-negative check backs it.
    const rows = await this.em.execute<unknown[]>(...postStatement(t, transactionId, debits, [{ slot, amount: t.amount }], slot, false));
    if (rows.length < 2) throw new Error(`ledger accounts missing for tenant ${t.tenantId} ${t.currency}`);
    return 'posted';
  }
}

/**
 * The one statement that posts `t` without gathering (see plainLegs), the slot a hold takes, and
 * the transaction id it writes; a hold it returns no rows for needs `gatherAndHold`.
 */
export function ledgerPostStatement(t: Transfer, ids: IdGenerator): { statement: [string, unknown[]]; holdSlot: number; transactionId: string } {
  const slot = t.kind === 'hold' ? holdSlot() : 0;
  const legs = plainLegs(t, slot);
  const transactionId = t.transactionId ?? ids.next('ldg');
  return { statement: postStatement(t, transactionId, legs.debits, legs.credits, legs.slot, t.requireFunds === true), holdSlot: slot, transactionId };
}

/** Creates the ledger accounts of a new tenant, every row at zero (each slot, and the debit rows of DEBIT_ROW_KINDS), for every stablecoin. */
export async function createLedgerAccounts(em: EntityManager, tenantId: string, ids: IdGenerator, at: Date): Promise<void> {
  await em.insertMany(LedgerAccountSchema, STABLECOINS.flatMap((currency) => ACCOUNT_KINDS.flatMap((kind) =>
    Array.from({ length: rowsOf(kind) }, (_, slot) => ({ id: ids.next('ldg'), tenantId, currency, kind, slot, balance: '0', updatedAt: at })))));
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
    // Each account's balance is the sum of its slots.
    const rows = await this.em.fork().execute<{ currency: string; kind: string; balance: string }[]>(
      `select currency, kind, sum(balance) as balance from ledger_accounts
        where tenant_id = ? and kind in ('available', 'held', 'in_transit') group by currency, kind`, [tenantId]);
    return STABLECOINS.map((currency) => {
      const of = (kind: string) => String(rows.find((r) => r.currency === currency && r.kind === kind)?.balance ?? '0');
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
