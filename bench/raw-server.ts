/**
 * Baseline for the money-out benchmark (bench/moneyout.bench.ts): a bare express 5 + pg.Pool server
 * whose POST /v1/payments/moneyout does the minimal database work of a money-out in ONE transaction
 * (an idempotency_keys row, a payments row, an outbox_events row; same tables and columns as the
 * service) and answers 201 with a payment-sized JSON body. No validation, no auth, no pricing, no
 * ledger: it measures what express + pg + PostgreSQL cost for those writes, the floor the service
 * is compared against. Started in-process by `npm run bench:moneyout`.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import express from 'express';
import { Pool, type PoolClient } from 'pg';
import { monotonicFactory } from 'ulid';

export interface RawServer {
  readonly baseUrl: string;
  close(): Promise<void>;
}

const TENANT = 'ten_bench_raw';
const RATE = '129.250000';
const FEE = '0.150000';
const TTL_MS = 24 * 3_600_000;

/** The payment JSON both raw servers answer a money-out with, priced at the fixed bench rate and fee. */
export type BenchPayment = ReturnType<typeof benchPayment>;

/** The payment of a money-out `body` at the fixed bench rate and fee (float arithmetic: the baseline prices nothing). */
export function benchPayment(id: string, body: Record<string, unknown>, now: Date) {
  const fiat = Number(body.fiatAmount ?? 0);
  return {
    id, status: 'initiated', paymentMethod: String(body.paymentMethod), sourceCurrency: String(body.sourceCurrency),
    amountStablecoin: (fiat / Number(RATE) + Number(FEE)).toFixed(6), fiatAmount: fiat.toFixed(2),
    destinationCurrency: String(body.destinationCurrency), providerRef: null, reference: String(body.reference),
    createdAt: now.toISOString(), updatedAt: now.toISOString(), failureReason: null, exchangeRate: RATE, payoutFee: FEE,
  };
}

/**
 * The minimal durable money-out inside the caller's transaction: the idempotency_keys, payments and
 * outbox_events rows (the same tables and columns as the service).
 */
export async function writeMoneyOutRows(
  client: PoolClient, tenantId: string, key: string, body: Record<string, unknown>, payment: BenchPayment, now: Date,
): Promise<void> {
  await client.query(
    `insert into idempotency_keys (tenant_id, key, operation, fingerprint, response_status, response_body, resource_id, created_at, expires_at)
     values ($1, $2, 'moneyout', $3, 201, $4, $5, $6, $7)`,
    [tenantId, key, JSON.stringify(body), JSON.stringify(payment), payment.id, now, new Date(now.getTime() + TTL_MS)],
  );
  await client.query(
    `insert into payments (id, tenant_id, status, payment_method, source_currency, destination_currency, country, blockchain,
       amount_stablecoin, fiat_amount, exchange_rate, payout_fee, account_name, account_number, payment_code, reference,
       refund_address, optional_issuer_fee, next_action_at, attempts, created_at, updated_at)
     values ($1, $2, 'initiated', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, 0, $18, $18)`,
    [payment.id, tenantId, payment.paymentMethod, payment.sourceCurrency, payment.destinationCurrency, String(body.country),
      String(body.blockchain), payment.amountStablecoin, payment.fiatAmount, RATE, FEE, String(body.accountName),
      String(body.accountNumber), String(body.paymentCode), payment.reference, String(body.refundAddress),
      String(body.optionalIssuerFee), now],
  );
  await client.query(
    `insert into outbox_events (id, tenant_id, type, entity_id, payload, created_at) values ($1, $2, 'payment.initiated', $3, $4, $5)`,
    [randomUUID(), tenantId, payment.id, JSON.stringify(payment), now],
  );
}

/** Starts the baseline on 127.0.0.1 and a random port, with a pool of `poolMax` connections to `databaseUrl`. */
export async function startRawServer(databaseUrl: string, poolMax: number): Promise<RawServer> {
  const pool = new Pool({ connectionString: databaseUrl, max: poolMax });
  const ulid = monotonicFactory();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json());

  app.post('/v1/payments/moneyout', async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const key = String(req.get('idempotency-key') ?? randomUUID()).toLowerCase();
    const now = new Date();
    const payment = benchPayment(`pay_${ulid()}`, body, now);
    const client = await pool.connect();
    try {
      await client.query('begin');
      await writeMoneyOutRows(client, TENANT, key, body, payment, now);
      await client.query('commit');
      res.status(201).json(payment);
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      res.status(500).json({ error: error instanceof Error ? error.message : String(error) });
    } finally {
      client.release();
    }
  });

  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pool.end();
    },
  };
}
