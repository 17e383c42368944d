/**
 * The raw twin of the lifecycle benchmark (bench/lifecycle.bench.ts): a hand-written express 5 +
 * pg.Pool service doing the same durable work per payment as the service, in the project's own
 * tables, written the way a careful hand-written service would be (one transaction per step,
 * plain parameterised queries, no ORM, no validation beyond the bench's body):
 * - POST /v1/payments/moneyout: in one transaction the idempotency row, the payment row, the outbox
 *   row, then last the checked hold (available → held on the tenant's balance rows, a ledger
 *   transaction and its two entries);
 * - its worker: claims due payments (FOR UPDATE SKIP LOCKED, leased), then accepts and settles each
 *   one, one transaction per move: the status-guarded update, an outbox row, the two balance rows, a
 *   ledger transaction and its two entries; woken by its own creates, else polling every 200 ms;
 * - GET /v1/payments/{id}: one select, tenant-scoped, answered as the payment view.
 * The tenant comes from the bearer key through an in-memory map (the service caches its keys too).
 * Started in-process by `npm run bench:lifecycle`.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import express from 'express';
import { Pool, type PoolClient } from 'pg';
import { monotonicFactory } from 'ulid';
import { benchPayment, writeMoneyOutRows } from './raw-server';

export interface TwinServer {
  readonly baseUrl: string;
  close(): Promise<void>;
}

const POLL_MS = 200;
const BATCH = 50;
const LEASE_MS = 30_000;

interface DuePayment { id: string; tenant_id: string; status: string; source_currency: string; amount_stablecoin: string }

/** Starts the twin on 127.0.0.1:<random> with `poolMax` connections; `tenantOfKey` maps each issuer key to its tenant. */
export async function startTwinServer(databaseUrl: string, poolMax: number, tenantOfKey: ReadonlyMap<string, string>): Promise<TwinServer> {
  const pool = new Pool({ connectionString: databaseUrl, max: poolMax });
  const ulid = monotonicFactory();
  // One balance row per (tenant, currency, kind): the hand-written copy of the single-row design.
  const accounts = new Map<string, string>();
  const rows = await pool.query<{ id: string; tenant_id: string; currency: string; kind: string }>(
    `select distinct on (tenant_id, currency, kind) id, tenant_id, currency, kind from ledger_accounts
      where tenant_id = any($1) order by tenant_id, currency, kind, id`, [[...tenantOfKey.values()]]);
  for (const r of rows.rows) accounts.set(`${r.tenant_id}|${r.currency}|${r.kind}`, r.id);
  const account = (tenantId: string, currency: string, kind: string) => {
    const id = accounts.get(`${tenantId}|${currency}|${kind}`);
    if (!id) throw new Error(`no ${kind} account for ${tenantId} ${currency}`);
    return id;
  };

  async function post(client: PoolClient, t: { tenantId: string; currency: string; from: string; to: string; amount: string; kind: string; paymentId: string; checked: boolean; at: Date }): Promise<boolean> {
    const debited = await client.query(
      `update ledger_accounts set balance = balance - $1, updated_at = $2 where id = $3 ${t.checked ? 'and balance >= $1' : ''}`,
      [t.amount, t.at, account(t.tenantId, t.currency, t.from)]);
    if (debited.rowCount !== 1) return false;
    await client.query('update ledger_accounts set balance = balance + $1, updated_at = $2 where id = $3', [t.amount, t.at, account(t.tenantId, t.currency, t.to)]);
    const txId = `ldg_${ulid()}`;
    await client.query(
      `insert into ledger_transactions (id, tenant_id, currency, kind, amount, from_kind, to_kind, payment_id, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [txId, t.tenantId, t.currency, t.kind, t.amount, t.from, t.to, t.paymentId, t.at]);
    await client.query(
      `insert into ledger_entries (transaction_id, account_id, amount, created_at) values ($1, $2, $3, $5), ($1, $4, $6, $5)`,
      [txId, account(t.tenantId, t.currency, t.from), `-${t.amount}`, account(t.tenantId, t.currency, t.to), t.at, t.amount]);
    return true;
  }

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json());
  const tenantOf = (req: express.Request) => tenantOfKey.get(String(req.get('authorization') ?? '').replace(/^Bearer /, ''));

  app.post('/v1/payments/moneyout', async (req, res) => {
    const tenantId = tenantOf(req);
    if (!tenantId) return void res.status(401).json({ error: 'unauthorized' });
    const body = (req.body ?? {}) as Record<string, unknown>;
    const key = String(req.get('idempotency-key') ?? randomUUID()).toLowerCase();
    const now = new Date();
    const payment = benchPayment(`pay_${ulid()}`, body, now);
    const client = await pool.connect();
    try {
      await client.query('begin');
      await writeMoneyOutRows(client, tenantId, key, body, payment, now);
      // Last, so the balance rows stay locked only until the commit.
      const held = await post(client, {
        tenantId, currency: payment.sourceCurrency, from: 'available', to: 'held', amount: payment.amountStablecoin, kind: 'hold',
        paymentId: payment.id, checked: true, at: now,
      });
      if (!held) {
        await client.query('rollback');
        return void res.status(422).json({ error: 'insufficient_balance' });
      }
      await client.query('commit');
      res.status(201).json(payment);
      wake();
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      res.status(500).json({ error: error instanceof Error ? error.message : String(error) });
    } finally {
      client.release();
    }
  });

  app.get('/v1/payments/:id', async (req, res) => {
    const tenantId = tenantOf(req);
    if (!tenantId) return void res.status(401).json({ error: 'unauthorized' });
    const { rows: found } = await pool.query(
      `select id, status, payment_method, source_currency, amount_stablecoin, fiat_amount, destination_currency, provider_ref, reference,
              created_at, updated_at, failure_reason, exchange_rate, payout_fee from payments where id = $1 and tenant_id = $2`,
      [req.params.id, tenantId]);
    const p = found[0];
    if (!p) return void res.status(404).json({ error: 'not_found' });
    res.json({
      id: p.id, status: p.status, paymentMethod: p.payment_method, sourceCurrency: p.source_currency,
      amountStablecoin: Number(p.amount_stablecoin).toFixed(6), fiatAmount: Number(p.fiat_amount).toFixed(2),
      destinationCurrency: p.destination_currency, providerRef: p.provider_ref, reference: p.reference,
      createdAt: new Date(p.created_at).toISOString(), updatedAt: new Date(p.updated_at).toISOString(),
      failureReason: p.failure_reason, exchangeRate: p.exchange_rate, payoutFee: Number(p.payout_fee).toFixed(6),
    });
  });

  // The worker: accept, then settle, each in its own transaction (the sandbox answers at once).
  const MOVES: Record<string, { to: string; event: string; from: string; toKind: string; fromKind: string; kind: string; final: boolean }> = {
    initiated: { from: 'initiated', to: 'provider_accepted', event: 'payment.processing', fromKind: 'held', toKind: 'in_transit', kind: 'send', final: false },
    provider_accepted: { from: 'provider_accepted', to: 'succeeded', event: 'payment.succeeded', fromKind: 'in_transit', toKind: 'settled', kind: 'settle', final: true },
  };
  async function move(p: DuePayment): Promise<void> {
    const m = MOVES[p.status];
    if (!m) return;
    const client = await pool.connect();
    try {
      const now = new Date();
      await client.query('begin');
      const updated = await client.query(
        `update payments set status = $1, updated_at = $2, next_action_at = $3 ${m.from === 'initiated' ? ", accepted_at = $2, provider_ref = 'sbx_' || id" : ''}
          where id = $4 and status = $5 returning *`, [m.to, now, m.final ? null : now, p.id, m.from]);
      if (updated.rowCount !== 1) return void (await client.query('rollback'));
      await client.query(
        'insert into outbox_events (id, tenant_id, type, entity_id, payload, created_at) values ($1, $2, $3, $4, $5, $6)',
        [randomUUID(), p.tenant_id, m.event, p.id, JSON.stringify(updated.rows[0]), now]);
      await post(client, {
        tenantId: p.tenant_id, currency: p.source_currency, from: m.fromKind, to: m.toKind, amount: p.amount_stablecoin, kind: m.kind,
        paymentId: p.id, checked: false, at: now,
      });
      await client.query('commit');
    } catch {
      await client.query('rollback').catch(() => undefined);
    } finally {
      client.release();
    }
  }
  let running = true;
  let wakeUp: (() => void) | undefined;
  let woken = false;
  function wake(): void {
    woken = true;
    wakeUp?.();
  }
  const loop = (async () => {
    while (running) {
      woken = false;
      let claimed: DuePayment[] = [];
      try {
        const now = new Date();
        claimed = (await pool.query<DuePayment>(
          `update payments set next_action_at = $1, attempts = attempts + 1
            where id in (select id from payments where next_action_at <= $2 and status in ('initiated', 'provider_accepted')
                          order by next_action_at limit $3 for update skip locked)
            returning id, tenant_id, status, source_currency, amount_stablecoin`,
          [new Date(now.getTime() + LEASE_MS), now, BATCH])).rows;
        await Promise.all(claimed.map(move));
      } catch {
        // A failed pass is retried after the idle wait, as the service's worker does.
      }
      if (running && claimed.length < BATCH && !woken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => { wakeUp = undefined; resolve(); }, POLL_MS);
          wakeUp = () => { clearTimeout(timer); wakeUp = undefined; resolve(); };
        });
      }
    }
  })();

  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      running = false;
      wakeUp?.();
      await loop;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pool.end();
    },
  };
}
