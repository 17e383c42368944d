import type { PaymentStatus } from '../../core/payments/payment';
import type { PaymentMoveWrite, PaymentPatch } from '../../core/payments/payment-ports';
import { WEBHOOK_EVENT_TYPES } from '../../core/events/outbox-event';
import type { IdGenerator } from '../../core/shared/clock';
import { receivesEventSql } from './outbox.writer';
import { debitRowCaseSql } from './ledger-post.statement';

/** The column each patchable property is stored in, and its SQL type (for the typed input rows). */
const PATCHABLE: Record<keyof PaymentPatch, readonly [column: string, type: string]> = {
  status: ['status', 'text'],
  providerRef: ['provider_ref', 'text'],
  failureReason: ['failure_reason', 'text'],
  failureCode: ['failure_code', 'text'],
  nextActionAt: ['next_action_at', 'timestamptz'],
  acceptedAt: ['accepted_at', 'timestamptz'],
  updatedAt: ['updated_at', 'timestamptz'],
  provider: ['provider', 'text'],
  submittedAt: ['submitted_at', 'timestamptz'],
};
const PATCH_KEYS = Object.keys(PATCHABLE) as (keyof PaymentPatch)[];

/** A status-guarded patch of one payment: applied only while it is in `from`. */
export interface GuardedPatch {
  readonly paymentId: string;
  readonly from: PaymentStatus;
  readonly patch: PaymentPatch;
}

/**
 * Input rows and the `moved` CTE shared by both statements below: one typed row per patch (its id,
 * its guard, and per patchable column a value and whether the patch sets it), then one UPDATE of
 * every payment still in its guard's status, returning the rows as written. `extra` adds typed
 * columns to each input row (name, SQL type, the value of each patch in order).
 */
function guardedUpdate(patches: readonly GuardedPatch[], extra: readonly [string, string, (i: number) => unknown][] = []): [string, unknown[]] {
  const params: unknown[] = [];
  const types = [
    'text', 'text', ...PATCH_KEYS.flatMap((k) => [PATCHABLE[k][1], 'boolean']), ...extra.map(([, type]) => type),
  ];
  const rows = patches.map((p, i) => {
    params.push(p.paymentId, p.from);
    for (const k of PATCH_KEYS) params.push(p.patch[k] ?? null, p.patch[k] !== undefined);
    for (const [, , value] of extra) params.push(value(i));
    return `(${types.map((t) => `?::${t}`).join(', ')})`;
  });
  const columns = ['id', 'from_status', ...PATCH_KEYS.flatMap((k) => [PATCHABLE[k][0], `set_${PATCHABLE[k][0]}`]), ...extra.map(([name]) => name)];
  const sets = PATCH_KEYS.map((k) => {
    const c = PATCHABLE[k][0];
    return `"${c}" = case when i.set_${c} then i.${c} else p.${c} end`;
  }).join(',\n    ');
  const sql = `input(${columns.join(', ')}) as (values ${rows.join(',\n  ')}),
moved as (
  update payments p set
    ${sets}
  from input i where p.id = i.id and p.status = i.from_status
  returning p.*)`;
  return [sql, params];
}

/**
 * One statement applying `patches` (PaymentStore.update for many payments; docs/decisions.md
 * § Performance): each applied only while its payment is still in its guard's status. Returns the
 * rows as written (a missed guard returns none for its payment). At most one patch per payment.
 */
export function paymentPatchesStatement(patches: readonly GuardedPatch[]): [string, unknown[]] {
  const [ctes, params] = guardedUpdate(patches);
  return [`with ${ctes}\nselect * from moved`, params];
}

/**
 * One statement applying payment moves (docs/decisions.md § Performance: a pass's moves are one
 * round trip): the status-guarded update of each payment (`moved`), then, for the payments it
 * moved only, their outbox events with the webhook deliveries of each (as outboxStatement writes
 * them), and their ledger transfers: one ledger transaction and two entries each, posted in the
 * payment's balance slot (the one its hold took; a debit of `held` in that slot's debit row,
 * DEBIT_ROW_KINDS), every touched row updated once by the net of its legs. Returns the row of each moved payment as written, plus `ledger_rows` (its entries
 * written: 2). No NOTIFY: the caller's unit of work wakes the listeners after its commit. A transfer the ledger
 * already holds fails the whole statement (unique payment and kind). At most one move per payment.
 */
export function paymentMovesStatement(ids: IdGenerator, writes: readonly PaymentMoveWrite[]): [string, unknown[]] {
  const txIds = writes.map((w) => w.transfer.transactionId ?? ids.next('ldg'));
  const [update, params] = guardedUpdate(writes, [
    ['event_id', 'uuid', (i) => writes[i]!.event.id],
    ['event_type', 'text', (i) => writes[i]!.event.type],
    ['payload', 'json', (i) => JSON.stringify(writes[i]!.event.payload)],
    ['event_at', 'timestamptz', (i) => writes[i]!.event.createdAt],
    ['tx_id', 'text', (i) => txIds[i]],
    ['tenant_id', 'text', (i) => writes[i]!.transfer.tenantId],
    ['currency', 'text', (i) => writes[i]!.transfer.currency],
    ['amount', 'numeric', (i) => writes[i]!.transfer.amount],
    ['from_kind', 'text', (i) => writes[i]!.transfer.from],
    ['to_kind', 'text', (i) => writes[i]!.transfer.to],
    ['ledger_kind', 'text', (i) => writes[i]!.transfer.kind],
    ['at', 'timestamptz', (i) => writes[i]!.transfer.at],
  ]);
  const webhookTypes = WEBHOOK_EVENT_TYPES.map(() => '?').join(', ');
  const sql = `with ${update},
mi as (select i.* from moved m join input i on i.id = m.id),
outbox_event as (
  insert into outbox_events (id, tenant_id, type, entity_id, payload, created_at)
  select mi.event_id, mi.tenant_id, mi.event_type, mi.id, mi.payload, mi.event_at from mi
  returning id, tenant_id, type, entity_id, created_at),
webhook_deliveries_written as (
  insert into webhook_deliveries
    (id, tenant_id, event_id, registration_id, event_type, entity_id, url, status, attempt, next_retry_at, created_at, updated_at)
  select gen_random_uuid(), r.tenant_id, e.id, r.id, e.type, e.entity_id, r.url, 'pending', 0, e.created_at, e.created_at, e.created_at
    from outbox_event e join webhook_registrations r on r.tenant_id = e.tenant_id and ${receivesEventSql('e.type')}
   where e.type in (${webhookTypes})),
slots as (
  select mi.id, coalesce((select h.slot from ledger_transactions h where h.payment_id = mi.id and h.kind = 'hold'), 0)::smallint as slot from mi),
legs as (
  select mi.tx_id, mi.tenant_id, mi.currency, mi.from_kind as kind,
         ${debitRowCaseSql('mi.from_kind', 's.slot')}::smallint as slot,
         -mi.amount as amount, mi.at from mi join slots s on s.id = mi.id
  union all
  select mi.tx_id, mi.tenant_id, mi.currency, mi.to_kind, s.slot, mi.amount, mi.at from mi join slots s on s.id = mi.id),
balances as (
  update ledger_accounts a set balance = a.balance + d.amount, updated_at = d.at
    from (select tenant_id, currency, kind, slot, sum(amount) as amount, max(at) as at from legs group by tenant_id, currency, kind, slot) d
   where a.tenant_id = d.tenant_id and a.currency = d.currency and a.kind = d.kind and a.slot = d.slot
  returning a.id, a.tenant_id, a.currency, a.kind, a.slot),
txn as (
  insert into ledger_transactions (id, tenant_id, currency, kind, amount, from_kind, to_kind, payment_id, external_ref, created_at, slot)
  select mi.tx_id, mi.tenant_id, mi.currency, mi.ledger_kind, mi.amount, mi.from_kind, mi.to_kind, mi.id, null, mi.at, s.slot
    from mi join slots s on s.id = mi.id
  returning id),
ledger_entries_written as (
  insert into ledger_entries (transaction_id, account_id, amount, created_at)
  select l.tx_id, b.id, l.amount, l.at
    from legs l join txn t on t.id = l.tx_id
    join balances b on b.tenant_id = l.tenant_id and b.currency = l.currency and b.kind = l.kind and b.slot = l.slot
  returning transaction_id)
select m.*, (select count(*) from ledger_entries_written w where w.transaction_id = i.tx_id)::int as ledger_rows
  from moved m join input i on i.id = m.id`;
  return [sql, [...params, ...WEBHOOK_EVENT_TYPES]];
}
