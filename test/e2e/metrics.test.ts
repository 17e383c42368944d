import { randomUUID } from 'node:crypto';
import { freshDatabase } from '../support/child-process';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

/** One sample of the Prometheus text format: series name, labels and value. */
interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** Parses Prometheus text (the label values here hold no quotes or commas). */
function samples(text: string): Sample[] {
  return text.split('\n').filter((line) => line !== '' && !line.startsWith('#')).map((line) => {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample: ${line}`);
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    return { name: match[1]!, labels, value: Number(match[3]) };
  });
}

/** The samples of series `name` whose labels include `labels`, as [labels, value], in the order served. */
const series = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
  all.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).map((s) => [s.labels, s.value]);

const FINAL = ['succeeded', 'failed', 'refunded'];

/**
 * /metrics after payouts through the sandbox (README "Metrics and health"), on a database of its
 * own so that every payment counted is one of this test's (another suite's workers would move
 * payments of a shared database and count them in their own process).
 */
describe('metrics: payouts through the sandbox', () => {
  let service: TestService;
  let db: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    db = await freshDatabase();
    service = await startTestService({ DATABASE_URL: db.url, BUILD_COMMIT: '39e3278' });
  });
  afterAll(async () => {
    await service.close();
    await db.drop();
  });

  it('transitions by provider and corridor, provider call latency, time to a final status and build_info', async () => {
    const admin = await service.newAdminKey();
    const { apiKey } = await service.newTenant();
    // Sandbox outcomes by the account's last four digits (docs/decisions.md § Sandbox values).
    const bodies = [
      moneyOutBody({ accountNumber: '254712345678' }), // KE MOMO: accepted, then succeeded
      moneyOutBody({ accountNumber: '254712340000' }), // KE MOMO: rejected at submission, failed
      moneyOutBody({ paymentMethod: 'BANK', paymentCode: '01', accountNumber: '1234561111' }), // KE BANK: accepted, then failed
    ];
    const ids: string[] = [];
    for (const body of bodies) {
      const created = await service.call('POST', '/v1/payments/moneyout', { apiKey, body, headers: { 'idempotency-key': randomUUID() } });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    const finals = await Promise.all(ids.map((id) => eventually(async () => {
      const { body } = await service.call('GET', `/v1/payments/${id}`, { apiKey });
      return FINAL.includes(body.status) ? body as { status: string; createdAt: string; updatedAt: string } : undefined;
    })));
    expect(finals.map((p) => p.status)).toEqual(['succeeded', 'failed', 'failed']);

    // A move is counted just after its commit: wait for the last one.
    const scraped = await eventually(async () => {
      const res = await service.call('GET', '/metrics', { apiKey: admin });
      const all = samples(res.text);
      const moves = series(all, 'payment_transitions_total').reduce((sum, [, value]) => sum + (value as number), 0);
      return moves === 8 ? all : undefined;
    });
    const corridor = (country: string, method: string) => ({ country, payment_method: method });
    expect(series(scraped, 'payment_transitions_total')).toEqual(expect.arrayContaining([
      [{ status: 'initiated', provider: 'none', ...corridor('KE', 'MOMO') }, 2],
      [{ status: 'initiated', provider: 'none', ...corridor('KE', 'BANK') }, 1],
      [{ status: 'provider_accepted', provider: 'sandbox', ...corridor('KE', 'MOMO') }, 1],
      [{ status: 'provider_accepted', provider: 'sandbox', ...corridor('KE', 'BANK') }, 1],
      [{ status: 'succeeded', provider: 'sandbox', ...corridor('KE', 'MOMO') }, 1],
      [{ status: 'failed', provider: 'sandbox', ...corridor('KE', 'MOMO') }, 1],
      [{ status: 'failed', provider: 'sandbox', ...corridor('KE', 'BANK') }, 1],
    ]));
    expect(series(scraped, 'payment_transitions_total')).toHaveLength(7);

    // Every submit and status call reached the sandbox; the sandbox answers retry and pending until its delays pass.
    const calls = (operation: string, outcome: string) =>
      series(scraped, 'payout_provider_call_duration_seconds_count', { provider: 'sandbox', operation, outcome }).map(([, v]) => v);
    expect([calls('submit', 'accepted'), calls('submit', 'rejected'), calls('status', 'succeeded'), calls('status', 'failed')]).toEqual([[2], [1], [1], [1]]);
    expect(series(scraped, 'payout_provider_call_duration_seconds_count').map(([labels]) => (labels as Record<string, string>).outcome).sort())
      .toEqual(expect.arrayContaining(['accepted', 'rejected', 'succeeded', 'failed']));
    expect(series(scraped, 'payout_provider_call_duration_seconds_bucket', { provider: 'sandbox', operation: 'submit', outcome: 'accepted', le: '+Inf' }))
      .toEqual([[expect.anything(), 2]]);

    // Seconds from creation to the final status: exactly the payment's own updatedAt - createdAt.
    const took = (p: { createdAt: string; updatedAt: string }) => (Date.parse(p.updatedAt) - Date.parse(p.createdAt)) / 1000;
    // Series appear in the order the payments ended, which the two workers' timing decides: compared as a set.
    const byStatus = (a: unknown[], b: unknown[]) => String((a[0] as { status: string }).status).localeCompare((b[0] as { status: string }).status);
    expect([...series(scraped, 'payment_time_to_final_seconds_count')].sort(byStatus)).toEqual([
      [{ status: 'failed', provider: 'sandbox' }, 2], [{ status: 'succeeded', provider: 'sandbox' }, 1],
    ]);
    const [succeededSum] = series(scraped, 'payment_time_to_final_seconds_sum', { status: 'succeeded' });
    expect(succeededSum![1]).toBeCloseTo(took(finals[0]!), 6);
    const [failedSum] = series(scraped, 'payment_time_to_final_seconds_sum', { status: 'failed' });
    expect(failedSum![1]).toBeCloseTo(took(finals[1]!) + took(finals[2]!), 6);

    expect(series(scraped, 'build_info')).toEqual([[{ version: '0.5.0', node: process.version, commit: '39e3278' }, 1]]);
  });
});
