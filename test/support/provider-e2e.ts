import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Payment } from '../../src/core/payments/payment';
import type { PayoutProvider, StatusOutcome, SubmitOutcome } from '../../src/core/payments/payout-provider';
import { startServiceChild } from './child-process';
import { eventually, type TestService } from './test-service';

/** The shipped catalog with `edit` applied to its payout routes, written to a temp file (for CATALOG_PATH). */
export function catalogWithRoutes(edit: (routes: Array<{ country: string; method: string; codes?: string[]; providers: string[]; strategy?: string }>) => void): string {
  const catalog = JSON.parse(readFileSync(path.resolve(__dirname, '../../data/corridors.json'), 'utf8'));
  edit(catalog.payoutRoutes);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'routes-')), 'corridors.json');
  writeFileSync(file, JSON.stringify(catalog));
  return file;
}

/** A second provider at the core's edge for failover tests: accepts every payout, then reports success. */
export function backupProvider(): PayoutProvider & { submitted: string[] } {
  const submitted: string[] = [];
  return {
    name: 'backup',
    submitted,
    async submit(payment: Payment): Promise<SubmitOutcome> {
      submitted.push(payment.id);
      return { kind: 'accepted', providerRef: `BKP_${payment.id.slice(4)}` };
    },
    async status(): Promise<StatusOutcome> {
      return { kind: 'succeeded' };
    },
  };
}

/** Reads from the service's database. */
export function sqlOf(service: TestService) {
  return <T>(text: string, params: unknown[] = []) => service.database.orm.em.fork().getConnection().execute(text, params) as Promise<T[]>;
}

/** The payment's outbox event types, oldest first. */
export async function eventTypes(service: TestService, paymentId: string): Promise<string[]> {
  const rows = await sqlOf(service)<{ type: string }>('select type from outbox_events where entity_id = ? order by created_at, id', [paymentId]);
  return rows.map((r) => r.type);
}

/** The payment's ledger transaction kinds, oldest first. */
export async function ledgerKinds(service: TestService, paymentId: string): Promise<string[]> {
  const rows = await sqlOf(service)<{ kind: string }>('select kind from ledger_transactions where payment_id = ? order by created_at', [paymentId]);
  return rows.map((r) => r.kind);
}

/** The provider events stored for a payment: outcome and verdict, oldest first. */
export async function storedCallbacks(service: TestService, paymentId: string): Promise<Array<{ provider: string; outcome: string | null; verdict: string }>> {
  return sqlOf(service)('select provider, outcome, verdict from provider_events where payment_id = ? order by received_at', [paymentId]);
}

/** Waits until the payment (seen by the admin API, with its provider) is in `status`. */
export async function settled(service: TestService, adminKey: string, paymentId: string, status: string, timeoutMs = 15_000): Promise<any> {
  return eventually(async () => {
    const res = await service.call('GET', `/v1/admin/payments/${paymentId}`, { apiKey: adminKey });
    return res.body?.status === status ? res.body : undefined;
  }, timeoutMs);
}

/** provider_callbacks_total of `provider` and `verdict` in /metrics (read with an admin key); 0 before the first. */
export async function callbackCount(service: TestService, adminKey: string, provider: string, verdict: string): Promise<number> {
  const text = (await service.call('GET', '/metrics', { apiKey: adminKey })).text;
  const line = text.split('\n').find((l) => l.startsWith(`provider_callbacks_total{provider="${provider}",verdict="${verdict}"} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

/**
 * Never pay twice across a crash (docs/decisions.md § Payout providers: never pay twice): a child
 * service with `workerEnv` submits the `ids` (payments of the tenant behind `apiKey`, still
 * `initiated`) until the provider's simulator has recorded `ids.length` of them (`recorded`), is
 * killed with SIGKILL, and `afterKill` checks what the simulator got; the payments are then still
 * `initiated`. A second child finishes them all (`succeeded`) and is stopped. The caller asserts
 * the simulator's ledger afterwards (one submission per payment).
 */
export async function killedWhileProviderHolds(
  service: TestService, apiKey: string, ids: readonly string[], workerEnv: Record<string, string>,
  recorded: () => number, afterKill: () => void = () => undefined,
): Promise<void> {
  const first = await startServiceChild(workerEnv);
  await eventually(async () => (recorded() === ids.length ? true : undefined), 45_000);
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('exit', resolve));
  afterKill();
  const status = async (id: string) => (await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status as string;
  expect(await Promise.all(ids.map(status))).toEqual(ids.map(() => 'initiated'));
  const second = await startServiceChild(workerEnv);
  try {
    await eventually(async () => ((await Promise.all(ids.map(status))).every((s) => s === 'succeeded') ? true : undefined), 60_000);
  } finally {
    second.kill('SIGTERM');
    await new Promise((resolve) => second.once('exit', resolve));
  }
}
