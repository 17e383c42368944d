import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { cliCommand, exitWithin, killChildren, spawnChild } from '../support/child-process';
import { liveTenant, testRouting } from '../support/live-rails';
import { ScriptedProvider } from '../support/scripted-provider';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

// Each run starts the CLI through ts-node (one to four seconds on a loaded machine).
jest.setTimeout(90_000);

/** Runs the operator CLI against `databaseUrl` with the service's WEBHOOK_SECRET_KEY; resolves with its exit code and output. */
async function cli(databaseUrl: string, ...args: string[]) {
  const child = spawnChild(...cliCommand(...args), { DATABASE_URL: databaseUrl, WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') });
  const exit = await exitWithin(child, 60_000);
  return { code: exit?.code, stdout: child.stdout.join('\n'), stderr: child.stderr.filter((l) => !l.startsWith('npm warn')).join('\n') };
}

/** `refunds:retry` of the operator CLI (docs/decisions.md § Refunds: reads and operators), kept with the operator's login. */
describe('operator CLI: refunds:retry', () => {
  let service: TestService;
  let admin: string;
  const live = new ScriptedProvider('scripted_live');
  beforeAll(async () => {
    const sandbox = new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 });
    service = await startTestService({
      RECONCILIATION_STUCK_AFTER_SECONDS: '1', RECONCILIATION_RECHECK_SECONDS: '1', RECONCILIATION_POLL_INTERVAL_MS: '50',
    }, { routing: testRouting(sandbox, () => live) });
    admin = await service.newAdminKey();
  });
  afterEach(() => killChildren());
  afterAll(() => service.close());

  it('moves a failed refund back to pending, recorded as cli:<login>; a refund that is not failed exits 1 invalid_state', async () => {
    const sql = <T>(text: string, params: unknown[] = []) => service.database.orm.em.fork().getConnection().execute(text, params) as Promise<T[]>;
    const { apiKey } = await liveTenant(service, admin);
    const id: string = (await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody({ reference: `ref-${randomUUID()}` }), headers: { 'idempotency-key': randomUUID() } })).body.id;
    await eventually(async () => ((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'provider_accepted' ? true : undefined));
    live.answer(id, { kind: 'failed', reason: 'Recipient wallet closed', code: 'recipient_account_invalid' });
    const refundId = await eventually(async () => (await sql<{ id: string }>('select id from onchain_refunds where payment_id = ?', [id]))[0]?.id);
    await sql(`update onchain_refunds set status = 'failed' where id = ?`, [refundId]);

    const url = service.config.DATABASE_URL!;
    const retried = await cli(url, 'refunds:retry', '--refund', refundId);
    expect(retried.code).toBe(0);
    expect(JSON.parse(retried.stdout)).toMatchObject({ refundId, status: 'pending', txHash: null });
    expect(await sql('select action, actor from onchain_refund_actions where refund_id = ?', [refundId])).toEqual([{ action: 'retry', actor: `cli:${userInfo().username}` }]);
    const again = await cli(url, 'refunds:retry', '--refund', refundId);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^invalid_state: /m);
  });
});
