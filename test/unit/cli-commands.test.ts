import { acceptedValues, CLI_COMMANDS, cliHelp, commandHelp, routeOf, unknownCommand, unknownFlag, validateFlags, type CliCommand } from '../../src/app/cli-commands';

const command = (name: string): CliCommand => CLI_COMMANDS.find((c) => c.name === name)!;

/** What each flag with a closed set of values accepts, as an operator types it (README "Operations"). */
const ACCEPTED: Record<string, Record<string, string[]>> = {
  'tenants:create': { environment: ['sandbox', 'live'] },
  'tenants:update': {
    'rate-limit': ['1..1000000', 'default'], 'webhook-limit': ['0..1000', 'default'], blockchain: ['BSC', 'SOLANA'], 'source-currency': ['USDC', 'USDT'],
  },
  'keys:create': { scope: ['issuer', 'admin'] },
  'deposits:create': { currency: ['USDC', 'USDT'], blockchain: ['BSC', 'SOLANA'], index: ['0..2147483647'] },
  'reconciliation:report': { provider: ['sandbox', 'mpesa', 'mtn_momo', 'paystack', 'flutterwave', 'pawapay'] },
  'refunds:list': { status: ['pending', 'broadcast', 'confirmed', 'failed', 'sent'], limit: ['1..500'] },
  'screening:load': { source: ['ofac-sdn', 'un-consolidated'] },
  'operators:create': { role: ['viewer', 'operator', 'admin'] },
  'operators:update': { role: ['viewer', 'operator', 'admin'], status: ['active', 'disabled'] },
  'audit-log:list': { limit: ['1..200'] },
};

/** The problems validateFlags reports about `--flag` when it is given `value` (other flags' problems left out). */
const problemsOf = (name: string, flag: string, value: string) => {
  const checked = validateFlags(command(name), { [flag]: value });
  return checked.ok ? [] : checked.problems.filter((p) => p.startsWith(`--${flag}:`) || p.startsWith(`--${flag} `));
};

describe('operator CLI help and refusals (README "Operations")', () => {
  it('--help lists every command with what it does', () => {
    const help = cliHelp();
    expect(CLI_COMMANDS.map((c) => c.name)).toEqual([
      'tenants:list', 'tenants:create', 'tenants:update', 'keys:list', 'keys:create', 'admin-keys:create', 'admin-keys:list', 'keys:revoke',
      'deposits:create', 'reconciliation:report', 'refunds:list', 'refunds:mark-sent', 'refunds:retry', 'screening:load',
      'operators:create', 'operators:list', 'operators:update', 'operators:sign-out-everywhere', 'audit-log:list',
    ]);
    for (const c of CLI_COMMANDS) expect(help).toMatch(new RegExp(`^ {2}${c.name} +${routeOf(c).summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    expect(help).toContain('npm run cli -- <command> --help');
  });

  it('every flag with a closed set of values is listed as the schema accepts it, in help and in refusals', () => {
    const listed = Object.fromEntries(CLI_COMMANDS.map((c) => [c.name, Object.fromEntries(c.flags.flatMap((f) => {
      const values = acceptedValues(c, f);
      return values ? [[f.name, [...values]]] : [];
    }))]).filter(([, flags]) => Object.keys(flags as object).length > 0));
    expect(listed).toEqual(ACCEPTED);
    for (const [name, flags] of Object.entries(ACCEPTED)) {
      const usage = commandHelp(command(name)).split('\n')[0]!;
      for (const [flag, values] of Object.entries(flags)) expect(usage).toContain(`--${flag} ${values.join('|')}`);
    }
  });

  it('each listed value is accepted as written; anything else is refused with the list, verbatim', () => {
    for (const [name, flags] of Object.entries(ACCEPTED)) {
      for (const [flag, values] of Object.entries(flags)) {
        const list = values.join('|');
        for (const value of values) {
          const range = /^(\d+)\.\.(\d+)$/.exec(value);
          const written = range ? [range[1]!, range[2]!] : [value];
          for (const w of written) expect({ name, flag, w, problems: problemsOf(name, flag, w) }).toEqual({ name, flag, w, problems: [] });
          if (range) {
            expect(problemsOf(name, flag, String(Number(range[2]) + 1))).toEqual([expect.stringMatching(new RegExp(`^--${flag}: Too big: .* \\(accepted: ${list.replace(/[.|]/g, '\\$&')}\\)$`))]);
          }
        }
        const wrong = values.some((v) => /^\d/.test(v)) ? 'plenty' : values[0]!.toLowerCase() === values[0] ? values[0]!.toUpperCase() : values[0]!.toLowerCase();
        const refused = problemsOf(name, flag, wrong);
        expect(refused).toEqual([values.some((v) => /^\d/.test(v))
          ? `--${flag}: Invalid input: expected number, received ${flag === 'limit' ? 'NaN' : 'string'} (accepted: ${list})`
          : `--${flag}: "${wrong}" is not one of: ${list}`]);
      }
    }
  });

  it('an unknown flag is refused with the flags the command takes, and the one meant when only one starts so', () => {
    expect(unknownFlag(command('tenants:update'), '--source')).toBe(
      'tenants:update: unknown flag --source (did you mean --source-currency?); accepted: --tenant, --name, --rate-limit, --webhook-limit, --refund-address, --blockchain, --source-currency, --help',
    );
    expect(unknownFlag(command('deposits:create'), '--hash')).toBe(
      'deposits:create: unknown flag --hash; accepted: --tenant, --currency, --amount, --blockchain, --tx-hash, --index, --help',
    );
    expect(unknownFlag(command('tenants:list'), '--tenant')).toBe('tenants:list: unknown flag --tenant; accepted: --help');
    expect(unknownCommand('tenant:list')).toBe(`unknown command tenant:list; commands: ${CLI_COMMANDS.map((c) => c.name).join(', ')}`);
  });

  it('a command without flags says so in its help', () => {
    expect(commandHelp(command('tenants:list'))).toBe('Usage: npm run cli -- tenants:list\n\nList tenants. Same validation as GET /v1/admin/tenants.\n\n  (no flags)\n  --help  This text\n');
  });
});
