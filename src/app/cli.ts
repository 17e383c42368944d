import 'reflect-metadata';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CLI_COMMANDS, cliActor, cliHelp, commandHelp, unknownCommand, unknownFlag, validateFlags, type CliCommand, type FlagValues } from './cli-commands';
import type * as ConfigModule from './config';
import type * as ContainerModule from './container';
import type * as DatabaseModule from './database';
import type * as EmbeddedModule from './embedded-database';
import type * as LoggerModule from './logger';
import { auditContexts } from '../adapters/access/audit-context';

// The service's modules (container, ORM, database drivers) load only once a command is valid and
// runs: help and refused input answer without them, in a fraction of the start-up time.

/** Exit codes (README "Operations"): 0 done or help, 1 refused by the use case or failed, 2 bad input. */
const EXIT = { done: 0, failed: 1, badInput: 2 } as const;

const USAGE = cliHelp();

/** The embedded server if one is already running (npm start), else a fresh start of it. */
async function embeddedUrl(config: ConfigModule.Config): Promise<{ url: string; embedded?: EmbeddedModule.EmbeddedDatabase }> {
  const { Client } = require('pg') as typeof import('pg');
  const { startEmbeddedDatabase } = require('./embedded-database') as typeof EmbeddedModule;
  const url = `postgres://postgres:postgres@127.0.0.1:${config.EMBEDDED_DB_PORT}/payout`;
  const probe = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await probe.connect();
    await probe.end();
    return { url };
  } catch {
    const embedded = await startEmbeddedDatabase({ dataDir: path.resolve(config.DATA_DIR), port: config.EMBEDDED_DB_PORT, databaseName: 'payout' });
    return { url: embedded.url, embedded };
  }
}

/** What the command line asks for, or why it cannot be run (a message for stderr). */
type Parsed = { help: string } | { command: CliCommand; values: FlagValues } | { error: string };

/**
 * Parses `argv` strictly: one known command, only that command's flags, each with a value; `--help`
 * (or `-h`, or `help [command]`) anywhere asks for help instead. Pure.
 */
function parseCommandLine(argv: string[]): Parsed {
  const [first, ...rest] = argv;
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  if (first === undefined || first === '--help' || first === '-h') return wantsHelp ? { help: USAGE } : { error: `a command is required\n\n${USAGE}` };
  const named = first === 'help' ? rest[0] : first;
  const command = CLI_COMMANDS.find((c) => c.name === named);
  if (first === 'help') return named === undefined ? { help: USAGE } : command ? { help: commandHelp(command) } : { error: `${unknownCommand(named)}\n\n${USAGE}` };
  if (!command) return { error: `${unknownCommand(first)}\n\n${USAGE}` };
  if (wantsHelp) return { help: commandHelp(command) };
  try {
    const { values, positionals } = parseArgs({
      args: rest, strict: true, allowPositionals: true,
      options: Object.fromEntries(command.flags.map((f) => [f.name, { type: 'string' as const }])),
    });
    if (positionals.length > 0) return { error: `${command.name}: unexpected argument ${positionals[0]}\n\n${commandHelp(command)}` };
    return { command, values: values as FlagValues };
  } catch (error) {
    // parseArgs names the flag: unknown option, missing value, or a value that looks like another flag.
    const unknown = (error as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'([^']+)'/.exec((error as Error).message)?.[1] : undefined;
    const problem = unknown ? unknownFlag(command, unknown) : `${command.name}: ${(error as Error).message}`;
    return { error: `${problem}\n\n${commandHelp(command)}` };
  }
}

async function main(argv: string[]): Promise<number> {
  const parsed = parseCommandLine(argv);
  if ('help' in parsed) {
    process.stdout.write(parsed.help);
    return EXIT.done;
  }
  if ('error' in parsed) {
    process.stderr.write(`${parsed.error}\n`);
    return EXIT.badInput;
  }
  const checked = validateFlags(parsed.command, parsed.values);
  if (!checked.ok) {
    process.stderr.write(`validation_error: ${checked.problems.join('; ')}\n\n${commandHelp(parsed.command)}`);
    return EXIT.badInput;
  }

  const { loadConfig } = require('./config') as typeof ConfigModule;
  const { createLogger } = require('./logger') as typeof LoggerModule;
  const { openDatabase } = require('./database') as typeof DatabaseModule;
  const { buildContainer } = require('./container') as typeof ContainerModule;
  const config = loadConfig({ ...process.env, WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
  // Logs (the migrator's lines) go to stderr, in LOG_FORMAT: stdout carries only the command's JSON result.
  const logger = createLogger(config.LOG_LEVEL, { format: config.LOG_FORMAT, stream: 'stderr' });
  const target: { url: string; embedded?: EmbeddedModule.EmbeddedDatabase } = config.DATABASE_URL ? { url: config.DATABASE_URL } : await embeddedUrl(config);
  const database = await openDatabase(target.url, 2, logger);
  const { admin, operators } = buildContainer(config, database.orm, logger);
  try {
    // Every change the command makes is audited with the CLI's user as the actor (docs/decisions.md § Operators: audit log).
    const command = parsed.command;
    const result = await auditContexts.run({ actor: cliActor(), requestId: null }, () => command.run(admin, checked.input, operators));
    if (!result.ok) {
      process.stderr.write(`${result.code}: ${result.message}\n`);
      return result.code === 'validation_error' ? EXIT.badInput : EXIT.failed;
    }
    process.stdout.write(`${JSON.stringify(result.value ?? { ok: true }, null, 2)}\n`);
    return EXIT.done;
  } finally {
    await database.close();
    await target.embedded?.stop();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code), (error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(EXIT.failed);
});
