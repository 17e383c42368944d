import { randomUUID } from 'node:crypto';
import { bscTxHash } from '../support/tx-hashes';
import { cliCommand, exitWithin, freshDatabase, killChildren, spawnChild } from '../support/child-process';
import { startTestService, type TestService } from '../support/test-service';

// Each run starts the CLI through ts-node (one to four seconds on a loaded machine); independent runs go in parallel.
jest.setTimeout(90_000);

/** Runs the operator CLI as an operator would, against `databaseUrl` (with `env` besides); resolves with its exit code and output. */
async function cliWith(env: Record<string, string>, databaseUrl: string, ...args: string[]) {
  const child = spawnChild(...cliCommand(...args), { ...env, DATABASE_URL: databaseUrl });
  const exit = await exitWithin(child, 60_000);
  return { code: exit?.code, stdout: child.stdout.join('\n'), stderr: child.stderr.filter((l) => !l.startsWith('npm warn')).join('\n') };
}
const cli = (databaseUrl: string, ...args: string[]) => cliWith({}, databaseUrl, ...args);

const COMMANDS = [
  'tenants:list', 'tenants:create', 'tenants:update', 'keys:list', 'keys:create', 'admin-keys:create', 'admin-keys:list', 'keys:revoke', 'deposits:create',
  'reconciliation:report', 'refunds:list', 'refunds:mark-sent', 'refunds:retry', 'screening:load',
  'operators:create', 'operators:list', 'operators:update', 'operators:sign-out-everywhere', 'audit-log:list',
];
// Each `--help` run is a process start; the reconciliation and refund commands' are run in reconciliation-cli.test.ts,
// every command's text is checked in test/unit/cli-commands.test.ts.
const HELP_RUNS = COMMANDS.slice(0, 9);

describe('operator CLI: flags checked by the REST admin schemas, --help everywhere', () => {
  let service: TestService;
  let url: string;
  let admin: string;
  beforeAll(async () => {
    service = await startTestService();
    url = service.config.DATABASE_URL!;
    admin = await service.newAdminKey();
  });
  afterEach(() => killChildren());
  afterAll(() => service.close());

  const tenants = async () => (await service.call('GET', '/v1/admin/tenants', { apiKey: admin })).body as Array<{ name: string; environment: string }>;
  const keysOf = async (tenantId: string) => (await service.call('GET', `/v1/admin/tenants/${tenantId}/api-keys`, { apiKey: admin })).body as unknown[];
  const usdcOf = async (apiKey: string) => ((await service.call('GET', '/v1/balances', { apiKey })).body as Array<{ currency: string; available: string }>)
    .find((b) => b.currency === 'USDC')?.available;

  it('--environment LIVE is refused with exit 2 and no tenant; --environment live makes a live tenant', async () => {
    const name = `cli ${randomUUID()}`;
    const refused = await cli(url, 'tenants:create', '--name', name, '--environment', 'LIVE');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^validation_error: --environment: "LIVE" is not one of: sandbox\|live\n/m);
    expect(refused.stdout).toBe('');
    expect((await tenants()).filter((t) => t.name === name)).toEqual([]);

    const made = await cli(url, 'tenants:create', '--name', name, '--environment', 'live');
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ name, environment: 'live' });
    expect((await tenants()).filter((t) => t.name === name)).toEqual([expect.objectContaining({ environment: 'live' })]);
  });

  it('--currency usdt is refused with exit 2 and records nothing', async () => {
    const { tenantId, apiKey } = await service.newTenant('0');
    const refused = await cli(url, 'deposits:create', '--tenant', tenantId, '--currency', 'usdt', '--amount', '10', '--blockchain', 'BSC', '--tx-hash', bscTxHash());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^validation_error: --currency: "usdt" is not one of: USDC\|USDT\n/m);
    expect(await usdcOf(apiKey)).toBe('0.000000');
    expect(((await service.call('GET', '/v1/balances', { apiKey })).body as Array<{ currency: string; available: string }>).map((b) => [b.currency, b.available]))
      .toEqual([['USDC', '0.000000'], ['USDT', '0.000000']]);
  });

  it('--scope Admin is refused with exit 2 and issues no key', async () => {
    const { tenantId } = await service.newTenant('0');
    const refused = await cli(url, 'keys:create', '--tenant', tenantId, '--scope', 'Admin');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^validation_error: --scope: "Admin" is not one of: issuer\|admin\n/m);
    expect(await keysOf(tenantId)).toHaveLength(1);
  });

  it('unknown flags, flags without a value, missing required flags and unknown commands exit 2', async () => {
    const { tenantId } = await service.newTenant('0');
    const cases: Array<[string[], RegExp]> = [
      [['tenants:list', '--tenant', tenantId], /^tenants:list: unknown flag --tenant; accepted: --help\n/],
      [['keys:list', '--tenant'], /^keys:list: Option '--tenant <value>' argument missing/],
      [['tenants:update', '--tenant', '--name', 'x'], /^tenants:update: Option '--tenant' argument is ambiguous/],
      [['keys:list'], /^validation_error: --tenant is required/],
      [['deposits:create', '--tenant', tenantId, '--currency', 'USDC', '--amount', '10', '--tx-hash', bscTxHash()], /^validation_error: --blockchain is required/],
      [['keys:list', '--tenant', tenantId, 'extra'], /^keys:list: unexpected argument extra/],
      [['tenants:destroy'], new RegExp(`^unknown command tenants:destroy; commands: ${COMMANDS.join(', ')}\n`)],
      [[], /^a command is required/],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(url, ...args)));
    cases.forEach(([args, message], i) => {
      expect({ args, code: runs[i]!.code, stdout: runs[i]!.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(runs[i]!.stderr).toMatch(message);
    });
    expect(await keysOf(tenantId)).toHaveLength(1);
  });

  it('--help on the CLI describes every command, and on every command prints its usage on stdout; both exit 0', async () => {
    const top = await cli(url, '--help');
    expect(top.code).toBe(0);
    // One line per command: its name and what it does.
    for (const name of COMMANDS) expect(top.stdout).toMatch(new RegExp(`^  ${name} +[A-Z][^\n]{8,}$`, 'm'));
    expect(top.stdout).toMatch(/^ {2}tenants:list +List tenants$/m);
    expect(top.stdout).toMatch(/^ {2}keys:revoke +Revoke a key at once, everywhere$/m);
    const helps = await Promise.all(HELP_RUNS.map((name) => cli(url, name, '--help')));
    HELP_RUNS.forEach((name, i) => {
      expect({ name, code: helps[i]!.code, stderr: helps[i]!.stderr }).toEqual({ name, code: 0, stderr: '' });
      expect(helps[i]!.stdout).toMatch(new RegExp(`^Usage: npm run cli -- ${name}`));
      expect(helps[i]!.stdout).toContain('Same validation as ');
    });
    expect((await cli(url, 'help', 'keys:create')).stdout).toContain('--scope issuer');
    // Enum and bounded number flags show what the route's schema accepts, as they are typed.
    expect(helps[HELP_RUNS.indexOf('tenants:update')]!.stdout).toMatch(/^Usage: npm run cli -- tenants:update --tenant ten_\.\.\. \[--name text\] \[--rate-limit 1\.\.1000000\|default\] \[--webhook-limit 0\.\.1000\|default\] \[--refund-address ADDRESS\|none\] \[--blockchain BSC\|SOLANA\] \[--source-currency USDC\|USDT\]$/m);
  });

  it('a refusal lists the accepted flags or values exactly as they are typed, and a listed value is then accepted', async () => {
    const { tenantId } = await service.newTenant('0');
    const window = ['--from', '2026-11-01T00:00:00Z', '--to', '2026-11-02T00:00:00Z'];
    const cases: Array<[string[], RegExp]> = [
      [['tenants:update', '--tenant', tenantId, '--source', 'USDT'],
        /^tenants:update: unknown flag --source \(did you mean --source-currency\?\); accepted: --tenant, --name, --rate-limit, --webhook-limit, --refund-address, --blockchain, --source-currency, --help\n/],
      [['tenants:update', '--tenant', tenantId, '--blockchain', 'solana'], /^validation_error: --blockchain: "solana" is not one of: BSC\|SOLANA\n/],
      [['tenants:update', '--tenant', tenantId, '--rate-limit', 'unlimited'],
        /^validation_error: --rate-limit: Invalid input: expected number, received string \(accepted: 1\.\.1000000\|default\)\n/],
      [['reconciliation:report', '--provider', 'MPESA', ...window], /^validation_error: --provider: "MPESA" is not one of: sandbox\|mpesa\|mtn_momo\|paystack\|flutterwave\|pawapay\n/],
      [['refunds:list', '--status', 'done'], /^validation_error: --status: "done" is not one of: pending\|broadcast\|confirmed\|failed\|sent\n/],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(url, ...args)));
    cases.forEach(([args, message], i) => {
      expect({ args, code: runs[i]!.code, stdout: runs[i]!.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(runs[i]!.stderr).toMatch(message);
    });
    const accepted = await cli(url, 'tenants:update', '--tenant', tenantId, '--source-currency', 'USDT', '--blockchain', 'SOLANA', '--rate-limit', 'default');
    expect(accepted.code).toBe(0);
    expect(JSON.parse(accepted.stdout)).toMatchObject({ tenantId, payoutSourceCurrency: 'USDT', payoutBlockchain: 'SOLANA', rateLimitPerMinute: null });
  });

  it('logs the migrator through pino on stderr, pretty in development and JSON with LOG_FORMAT=json; stdout holds only the JSON result', async () => {
    const [dbPretty, dbJson] = await Promise.all([freshDatabase(), freshDatabase()]);
    try {
      const [pretty, json] = await Promise.all([cli(dbPretty.url, 'tenants:list'), cliWith({ LOG_FORMAT: 'json' }, dbJson.url, 'tenants:list')]);
      for (const run of [pretty, json]) {
        expect(run.code).toBe(0);
        expect(JSON.parse(run.stdout)).toEqual([]);
        expect(run.stderr).not.toContain('\u001b[');
      }
      const prettyLines = pretty.stderr.split('\n').filter((l) => l.trim() !== '');
      expect(prettyLines.some((l) => /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: Applied 'Migration\d+'$/.test(l))).toBe(true);
      expect(prettyLines.filter((l) => l.startsWith('{'))).toEqual([]);
      const lines = json.stderr.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { namespace?: string; msg?: string });
      expect(lines.some((l) => l.namespace === 'migrator' && /^Applied 'Migration\d+'$/.test(l.msg ?? ''))).toBe(true);
    } finally {
      await Promise.all([dbPretty.drop(), dbJson.drop()]);
    }
  });
});
