import { randomUUID } from 'node:crypto';
import { exitWithin, killChildren, spawnChild } from '../support/child-process';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

// Each run starts ts-node (two to five seconds on a loaded machine); independent runs go in parallel.
jest.setTimeout(90_000);

/**
 * Runs the operator CLI as an operator would, against `databaseUrl` and with the service's
 * WEBHOOK_SECRET_KEY (payments' personal data is sealed under it); resolves with its exit code and output.
 */
async function cli(databaseUrl: string, ...args: string[]) {
  const child = spawnChild('npx', ['ts-node', '--transpile-only', 'src/app/cli.ts', ...args], {
    DATABASE_URL: databaseUrl, WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  });
  const exit = await exitWithin(child, 60_000);
  return { code: exit?.code, stdout: child.stdout.join('\n'), stderr: child.stderr.filter((l) => !l.startsWith('npm warn')).join('\n') };
}

/** The reconciliation commands of the operator CLI (docs/decisions.md § Reconciliation), checked by the REST admin route's schemas. */
describe('operator CLI: reconciliation:report', () => {
  let service: TestService;
  let url: string;
  beforeAll(async () => {
    service = await startTestService();
    url = service.config.DATABASE_URL!;
  });
  afterEach(() => killChildren());
  afterAll(() => service.close());

  it('prints the report as JSON; bad flags exit 2, an unconfigured provider exits 1', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    const { apiKey } = await service.newTenant();
    const id: string = (await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } })).body.id;
    await eventually(async () => ((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'succeeded' ? true : undefined));
    const to = new Date(Date.now() + 1000).toISOString();

    const [done, badDate, missing, unconfigured] = await Promise.all([
      cli(url, 'reconciliation:report', '--provider', 'sandbox', '--from', from, '--to', to),
      cli(url, 'reconciliation:report', '--provider', 'sandbox', '--from', 'yesterday', '--to', to),
      cli(url, 'reconciliation:report', '--provider', 'sandbox', '--from', from),
      cli(url, 'reconciliation:report', '--provider', 'paystack', '--from', from, '--to', to),
    ]);
    expect(done.code).toBe(0);
    const report = JSON.parse(done.stdout);
    expect(report).toMatchObject({ provider: 'sandbox', from, to, missingAtProvider: [], statusMismatches: [], amountMismatches: [], atProviderOnly: [] });
    expect(report.compared).toBeGreaterThanOrEqual(1);
    expect([badDate.code, badDate.stdout]).toEqual([2, '']);
    expect(badDate.stderr).toMatch(/^validation_error: --from: /);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^validation_error: --to is required/);
    expect(unconfigured.code).toBe(1);
    expect(unconfigured.stderr).toMatch(/^provider_unavailable: /);
    expect((await cli(url, 'reconciliation:report', '--help')).stdout).toMatch(/^Usage: npm run cli -- reconciliation:report --provider/);
  });
});
