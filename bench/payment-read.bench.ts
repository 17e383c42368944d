/**
 * Cost of reading a payment (GET /v1/payments/{id}), the read that opens the sealed account number
 * and name (docs/decisions.md § Personal data and secrets), on a fresh database
 * `payout_bench_payment_read` (bench/bench-database.ts: DATABASE_URL's server, else the embedded
 * one). Starts the service with workers off, creates 200 payments, then measures: the use case
 * in-process (getPayment, sequential; microseconds per read, wall and this process's CPU), the
 * opening of one sealed value alone (what a read adds twice: account number and name), and HTTP
 * with autocannon (connections and seconds from BENCH_CONNECTIONS,
 * BENCH_SECONDS; defaults 10 and 8) on one payment. Run:
 * `npx ts-node --transpile-only bench/payment-read.bench.ts`.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { PersonalDataBox } from '../src/adapters/providers/personal-data-box';
import { openBenchDatabase } from './bench-database';
import { startServiceServer } from './service-server';

const DATABASE = 'payout_bench_payment_read';
const PAYMENTS = 200;
const IN_PROCESS_READS = 5000;
const OPENS = 50_000;

/** Microseconds to open one sealed account number, averaged over OPENS. */
function openCostUs(): number {
  const box = new PersonalDataBox(Buffer.alloc(32, 3));
  const sealed = box.seal('254712345678');
  for (let i = 0; i < 1000; i++) box.open(sealed);
  const started = process.hrtime.bigint();
  for (let i = 0; i < OPENS; i++) box.open(sealed);
  return Number(process.hrtime.bigint() - started) / 1000 / OPENS;
}

async function main(): Promise<void> {
  const bench = await openBenchDatabase(10, DATABASE);
  const service = await startServiceServer(bench.database, bench.url, 10);
  try {
    const ids: string[] = [];
    for (let i = 0; i < PAYMENTS; i++) {
      const res = await fetch(`${service.baseUrl}/v1/payments/moneyout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${service.apiKey}`, 'idempotency-key': randomUUID() },
        body: JSON.stringify({
          fiatAmount: 1500, sourceCurrency: 'USDC', destinationCurrency: 'KES', country: 'KE', blockchain: 'SOLANA', paymentMethod: 'MOMO',
          accountName: 'Jane Wanjiku', accountNumber: `2547${String(i).padStart(8, '0')}`, paymentCode: 'MPESA', reference: `ref-${randomUUID()}`,
          refundAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', optionalIssuerFee: 'NO',
        }),
      });
      if (res.status !== 201) throw new Error(`money-out answered ${res.status}: ${await res.text()}`);
      ids.push(((await res.json()) as { id: string }).id);
    }
    const principal = await service.container.application.authenticate(service.apiKey);
    if (!principal.ok || !principal.value.tenantId) throw new Error('the bench key does not authenticate');
    const tenantId = principal.value.tenantId;

    for (let i = 0; i < 500; i++) await service.container.application.getPayment(tenantId, ids[i % PAYMENTS]!);
    const started = process.hrtime.bigint();
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < IN_PROCESS_READS; i++) {
      const read = await service.container.application.getPayment(tenantId, ids[i % PAYMENTS]!);
      if (!read.ok) throw new Error('read failed');
    }
    const inProcessUs = Number(process.hrtime.bigint() - started) / 1000 / IN_PROCESS_READS;
    const cpu = process.cpuUsage(cpuBefore);
    // CPU time of this process per read: what sealing adds, less disturbed by other load than wall time.
    const inProcessCpuUs = (cpu.user + cpu.system) / IN_PROCESS_READS;

    const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
    const duration = Number(process.env.BENCH_SECONDS ?? 8);
    const target = { url: `${service.baseUrl}/v1/payments/${ids[0]}`, connections, headers: { authorization: `Bearer ${service.apiKey}` } };
    await autocannon({ ...target, duration: 2 });
    const r = await autocannon({ ...target, duration });
    process.stdout.write(`${JSON.stringify({
      openUsPerValue: Number(openCostUs().toFixed(2)), inProcessUsPerRead: Math.round(inProcessUs), inProcessCpuUsPerRead: Math.round(inProcessCpuUs), http: { connections, seconds: duration, reqPerSec: Math.round(r.requests.average), p50Ms: r.latency.p50, p99Ms: r.latency.p99, non2xx: r.non2xx },
    })}\n`);
  } finally {
    await service.close();
    await bench.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
