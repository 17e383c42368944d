import { randomUUID } from 'node:crypto';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { cliCommand, exitWithin, killChildren, spawnChild } from '../support/child-process';
import { liveTenant, testRouting } from '../support/live-rails';
import { ScriptedProvider } from '../support/scripted-provider';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';
import { solanaTxHash } from '../support/tx-hashes';

// Each run starts the CLI through ts-node (one to four seconds on a loaded machine); independent runs go in parallel.
jest.setTimeout(90_000);

/**
 * Runs the operator CLI as an operator would, against `databaseUrl` and with the service's
 * WEBHOOK_SECRET_KEY (payments' personal data is sealed under it); resolves with its exit code and output.
 */
async function cli(databaseUrl: string, ...args: string[]) {
  const child = spawnChild(...cliCommand(...args), {
    DATABASE_URL: databaseUrl, WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  });
  const exit = await exitWithin(child, 60_000);
  return { code: exit?.code, stdout: child.stdout.join('\n'), stderr: child.stderr.filter((l) => !l.startsWith('npm warn')).join('\n') };
}

/**
 * The reconciliation and refund commands of the operator CLI (docs/decisions.md § Reconciliation,
 * § Ledger), checked by the REST admin routes' schemas.
 */
describe('operator CLI: reconciliation:report, refunds:list, refunds:mark-sent', () => {
  let service: TestService;
  let url: string;
  let admin: string;
  const live = new ScriptedProvider('scripted_live');
  beforeAll(async () => {
    const sandbox = new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 });
    service = await startTestService({
      RECONCILIATION_STUCK_AFTER_SECONDS: '1', RECONCILIATION_RECHECK_SECONDS: '1', RECONCILIATION_POLL_INTERVAL_MS: '50',
    }, { routing: testRouting(sandbox, () => live) });
    url = service.config.DATABASE_URL!;
    admin = await service.newAdminKey();
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
    // Line-anchored: a CLI started beside another may first log that it waits for the other's migration lock.
    expect(badDate.stderr).toMatch(/^validation_error: --from: /m);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^validation_error: --to is required/m);
    expect(unconfigured.code).toBe(1);
    expect(unconfigured.stderr).toMatch(/^provider_unavailable: /m);
    expect((await cli(url, 'reconciliation:report', '--help')).stdout).toMatch(/^Usage: npm run cli -- reconciliation:report --provider/);
  });

  it('lists pending refunds and records a refund sent; bad input exits 2, a refused hash exits 1', async () => {
    const { apiKey } = await liveTenant(service, admin);
    const id: string = (await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } })).body.id;
    await eventually(async () => ((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'provider_accepted' ? true : undefined));
    live.answer(id, { kind: 'failed', reason: 'Recipient wallet closed', code: 'recipient_account_invalid' });
    await eventually(async () => ((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'failed' ? true : undefined));

    const listed = await cli(url, 'refunds:list', '--status', 'pending', '--limit', '500');
    expect(listed.code).toBe(0);
    const refund = (JSON.parse(listed.stdout) as { refundId: string; paymentId: string; status: string }[]).find((r) => r.paymentId === id);
    expect(refund).toMatchObject({ status: 'pending', txHash: null });
    const txHash = solanaTxHash();
    const [badLimit, badHash, missing] = await Promise.all([
      cli(url, 'refunds:list', '--limit', '0'),
      cli(url, 'refunds:mark-sent', '--refund', refund!.refundId, '--tx-hash', '0xabc'),
      cli(url, 'refunds:mark-sent', '--refund', refund!.refundId),
    ]);
    expect([badLimit.code, badLimit.stdout]).toEqual([2, '']);
    expect(badLimit.stderr).toMatch(/^validation_error: --limit: /m);
    expect([badHash.code, badHash.stdout]).toEqual([2, '']);
    expect(badHash.stderr).toMatch(/^validation_error: txHash must be a base58 transaction signature/m);
    expect(missing.stderr).toMatch(/^validation_error: --tx-hash is required/m);
    expect((await service.call('GET', '/v1/admin/refunds?status=pending&limit=500', { apiKey: admin })).body.map((r: { refundId: string }) => r.refundId))
      .toContain(refund!.refundId);

    const sent = await cli(url, 'refunds:mark-sent', '--refund', refund!.refundId, '--tx-hash', txHash);
    expect(sent.code).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ refundId: refund!.refundId, status: 'sent', txHash });
    const again = await cli(url, 'refunds:mark-sent', '--refund', refund!.refundId, '--tx-hash', solanaTxHash());
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^invalid_state: /m);
  });
});
