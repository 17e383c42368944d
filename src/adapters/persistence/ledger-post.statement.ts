import type { AccountKind, Transfer } from '../../core/ledger/ledger';
import { Decimal } from '../../core/shared/money';

/**
 * Balance slots (docs/decisions.md § Ledger): every ledger account of a tenant and stablecoin is
 * kept as LEDGER_SLOTS rows, its balance their sum. A hold takes one slot, and the payment's later
 * moves post in that slot, so one tenant's payouts lock different rows instead of one hot row.
 * Existing tenants' rows were slot 0 and got the other slots at zero (the migration); changing this
 * number needs a migration adding the rows.
 */
export const LEDGER_SLOTS = 16;

/**
 * Accounts kept as two sides of rows, as a T-account (docs/decisions.md § Ledger: debit rows):
 * `held` is credited by a money-out's hold on the request path and debited by the payout worker's
 * send or release, so the two write different rows and a worker's batch never holds up a hold. The
 * debit row of slot s is slot `s + LEDGER_SLOTS`: it only ever goes down (never above zero), the
 * credit rows (slots 0 to LEDGER_SLOTS - 1) only up (never below); the account is the sum of both.
 */
export const DEBIT_ROW_KINDS: readonly AccountKind[] = ['held'];

/** Slot `slot`'s debit row (SQL expressions). */
const debitRow = (slot: string) => `(${slot} + ${LEDGER_SLOTS})`;

/** The row a debit of `kind` in slot `slot` (an SQL expression) posts to: the slot, or its debit row (DEBIT_ROW_KINDS). */
export function debitRowSql(kind: AccountKind, slot: string): string {
  return DEBIT_ROW_KINDS.includes(kind) ? debitRow(slot) : slot;
}

/** As debitRowSql, for a kind known only to the statement: `kind` and `slot` are SQL expressions. */
export function debitRowCaseSql(kind: string, slot: string): string {
  return `(case when ${kind} in (${DEBIT_ROW_KINDS.map((k) => `'${k}'`).join(', ')}) then ${debitRow(slot)} else ${slot} end)`;
}

/** How many rows a tenant's account of `kind` has in each stablecoin: its slots, twice for DEBIT_ROW_KINDS. */
export function rowsOf(kind: AccountKind): number {
  return DEBIT_ROW_KINDS.includes(kind) ? 2 * LEDGER_SLOTS : LEDGER_SLOTS;
}

/** A slot: a number, or the slot of the transfer's payment (the one its hold took, 0 before slots). */
type SlotRef = number | 'payment';

/** One side's rows of a posting: how much each slot's account moves (positive decimal string). */
export interface Leg {
  readonly slot: SlotRef;
  readonly amount: string;
}

/**
 * The one statement posting `t` (docs/decisions.md § Ledger): debits the `debits` slots of
 * `t.from` (each only while it covers its amount when `checked`; in its debit rows when `t.from`
 * has them, DEBIT_ROW_KINDS), credits the `credits` slots of
 * `t.to` only when every debit applied, and writes the transaction row (`slot`: the payment's slot)
 * and one entry per leg. Statement atomicity means a refused debit or a duplicate changes nothing;
 * a checked posting must have one debit, so a refusal leaves no other debit applied. Returns the
 * SQL and its parameters; the statement returns one row per entry written.
 */
export function postStatement(t: Transfer, transactionId: string, debits: Leg[], credits: Leg[], slot: SlotRef | null, checked: boolean): [string, unknown[]] {
  if (checked && debits.length !== 1) throw new Error('a checked posting has exactly one debit');
  const slotSql = (s: SlotRef, into: unknown[]) => {
    if (s !== 'payment') return `${Number(s)}`;
    into.push(t.paymentId ?? null);
    return "coalesce((select h.slot from ledger_transactions h where h.payment_id = ?::text and h.kind = 'hold'), 0)";
  };
  if (checked && DEBIT_ROW_KINDS.includes(t.from)) throw new Error('a checked posting debits an account of one row per slot');
  const valueParams: unknown[] = [];
  const values = (legs: Leg[], row: (slot: string) => string) => legs.map((l) => {
    const s = row(slotSql(l.slot, valueParams));
    valueParams.push(l.amount);
    return `(${s}::smallint, ?::numeric)`;
  }).join(', ');
  const d = values(debits, (slot) => debitRowSql(t.from, slot));
  const c = values(credits, (slot) => slot);
  const txSlotParams: unknown[] = [];
  const txSlot = slot === null ? 'null::smallint' : `${slotSql(slot, txSlotParams)}::smallint`;
  const sql = `
with d(slot, amount) as (values ${d}),
c(slot, amount) as (values ${c}),
src as (
  update ledger_accounts a set balance = a.balance - d.amount, updated_at = ?
    from d where a.tenant_id = ? and a.currency = ? and a.kind = ? and a.slot = d.slot and (not ? or a.balance >= d.amount)
  returning a.id, d.amount),
dst as (
  update ledger_accounts a set balance = a.balance + c.amount, updated_at = ?
    from c where a.tenant_id = ? and a.currency = ? and a.kind = ? and a.slot = c.slot and (select count(*) from src) = ?
  returning a.id, c.amount),
txn as (
  insert into ledger_transactions (id, tenant_id, currency, kind, amount, from_kind, to_kind, payment_id, external_ref, created_at, slot)
  select ?, ?, ?, ?, ?::numeric, ?, ?, ?::text, ?::text, ?::timestamptz, ${txSlot} where exists (select 1 from dst)
  returning id)
insert into ledger_entries (transaction_id, account_id, amount, created_at)
select txn.id, src.id, -src.amount, ?::timestamptz from txn, src
union all
select txn.id, dst.id, dst.amount, ?::timestamptz from txn, dst
returning transaction_id`;
  return [sql, [
    ...valueParams,
    t.at, t.tenantId, t.currency, t.from, checked,
    t.at, t.tenantId, t.currency, t.to, debits.length,
    transactionId, t.tenantId, t.currency, t.kind, t.amount, t.from, t.to, t.paymentId ?? null, t.externalRef ?? null, t.at, ...txSlotParams,
    t.at, t.at,
  ]];
}

/**
 * How `t` posts when it needs no gathering: a hold debits and credits `holdSlot`; a payment's later
 * move posts in the payment's slot; a transfer without a payment (a deposit, a sandbox funding)
 * debits slot 0 and, into `available`, spreads over every slot so later holds find funds in theirs.
 */
export function plainLegs(t: Transfer, holdSlot: number): { debits: Leg[]; credits: Leg[]; slot: SlotRef | null } {
  if (t.kind === 'hold') return { debits: [{ slot: holdSlot, amount: t.amount }], credits: [{ slot: holdSlot, amount: t.amount }], slot: holdSlot };
  if (t.paymentId !== undefined) {
    return { debits: [{ slot: 'payment', amount: t.amount }], credits: [{ slot: 'payment', amount: t.amount }], slot: 'payment' };
  }
  const credits = t.to === 'available' ? spread(t.amount, LEDGER_SLOTS) : [{ slot: 0, amount: t.amount }];
  return { debits: [{ slot: 0, amount: t.amount }], credits, slot: null };
}

/** `amount` split into `slots` shares at scale 6 (the first slots take the remainder's micro-units), zero shares left out. Pure. */
export function spread(amount: string, slots: number): Leg[] {
  const micros = new Decimal(amount).mul(1_000_000);
  const base = micros.divToInt(slots);
  const rest = micros.minus(base.mul(slots)).toNumber();
  const legs: Leg[] = [];
  for (let slot = 0; slot < slots; slot++) {
    const share = base.plus(slot < rest ? 1 : 0);
    if (share.gt(0)) legs.push({ slot, amount: share.div(1_000_000).toFixed(6) });
  }
  return legs;
}

/**
 * Which slots a hold of `amount` in `slot` takes from when its own slot does not cover it, given
 * every slot's locked balance: its own slot first, then the fullest others, until covered; undefined
 * when all of them together do not cover it (the exact refusal). Pure.
 */
export function gatherLegs(amount: string, slot: number, balances: { slot: number; balance: string }[]): Leg[] | undefined {
  const total = balances.reduce((sum, b) => sum.plus(b.balance), new Decimal(0));
  let left = new Decimal(amount);
  if (total.lt(left)) return undefined;
  const order = [...balances].sort((a, b) => (a.slot === slot ? -1 : b.slot === slot ? 1 : new Decimal(b.balance).cmp(a.balance)));
  const legs: Leg[] = [];
  for (const b of order) {
    if (left.lte(0)) break;
    const take = Decimal.min(left, b.balance);
    if (take.gt(0)) legs.push({ slot: b.slot, amount: take.toFixed(6) });
    left = left.minus(take);
  }
  return legs;
}
