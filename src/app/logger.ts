import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

/**
 * How log lines are written (README "Configuration", LOG_FORMAT): `json`, one pino JSON object per
 * line, for production and anything that reads the logs; `pretty`, pino-pretty's one readable line
 * per entry, for a developer's terminal.
 */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Where a process writes its log lines: the service on stdout, the CLI on stderr (its stdout is the command's result). */
export type LogStream = 'stdout' | 'stderr';

/** How a logger writes: the format (default `json`) and the stream (default `stdout`). */
export interface LogOutput {
  readonly format?: LogFormat;
  readonly stream?: LogStream;
}

/**
 * LOG_FORMAT's default for a NODE_ENV value (docs/decisions.md § Running it): `pretty` in
 * development (NODE_ENV unset or `development`), `json` everywhere else, production included.
 */
export function defaultLogFormat(nodeEnv: string | undefined): LogFormat {
  return nodeEnv === undefined || nodeEnv === '' || nodeEnv === 'development' ? 'pretty' : 'json';
}

/**
 * The service logger at `level` (a pino level name): JSON lines, or pino-pretty's readable lines
 * when `output.format` is `pretty`, on stdout or stderr. Secrets and keys are redacted wherever they
 * would appear, in both formats (pretty formats the redacted JSON). Every write is synchronous, so
 * a line logged just before `process.exit` is never lost.
 * pino-pretty is a development dependency, absent from the production image: it is loaded only
 * here and only for `pretty`, which the configuration refuses in production (config.ts).
 */
export function createLogger(level: string, output: LogOutput = {}): Logger {
  const options: LoggerOptions = {
    level,
    base: { service: 'payout-gateway' },
    redact: {
      paths: ['authorization', 'headers.authorization', '*.authorization', 'apiKey', '*.apiKey', 'secret', '*.secret'],
      censor: '[redacted]',
    },
  };
  const stream = output.stream ?? 'stdout';
  if (output.format === 'pretty') return pino(options, prettyDestination(stream === 'stdout' ? process.stdout : process.stderr));
  return pino(options, pino.destination({ fd: stream === 'stdout' ? 1 : 2, sync: true }));
}

/**
 * A destination that formats each JSON line with pino-pretty and writes it at once (stdout and
 * stderr are synchronous on Linux for files, pipes and terminals). Colours only on a terminal.
 */
function prettyDestination(out: NodeJS.WriteStream): DestinationStream {
  // Loaded on demand: production has no pino-pretty and never asks for it.
  const { prettyFactory } = require('pino-pretty') as typeof import('pino-pretty');
  const prettify = prettyFactory({ colorize: out.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' });
  return { write: (line: string) => void out.write(prettify(line)) };
}

/** The configuration problems a refused start reports: each message, and the variables it names. */
export interface StartProblems {
  readonly variables: readonly string[];
  readonly problems: readonly string[];
}

/**
 * Reports a configuration the service refused at start as ONE fatal log line (`invalid
 * configuration`, with `variables` and `problems`; never a value), in the format the environment
 * asks for: `env` is read leniently because it is the configuration that failed. A valid LOG_FORMAT
 * is honoured outside production; otherwise the NODE_ENV default applies, and an unknown NODE_ENV
 * or production always gets JSON, so production never loads pino-pretty (docs/decisions.md § Running it).
 */
export function logConfigurationRefused(refused: StartProblems, env: Readonly<Record<string, string | undefined>>, stream: LogStream = 'stdout'): void {
  const nodeEnv = env.NODE_ENV;
  const known = nodeEnv === undefined || nodeEnv === '' || nodeEnv === 'development' || nodeEnv === 'test';
  const asked = (LOG_FORMATS as readonly string[]).includes(env.LOG_FORMAT ?? '') ? env.LOG_FORMAT as LogFormat : undefined;
  const format: LogFormat = known ? asked ?? defaultLogFormat(nodeEnv) : 'json';
  // At info whatever LOG_LEVEL says: LOG_LEVEL may be the variable at fault, and a refused start must never be silent.
  createLogger('info', { format, stream }).fatal({ variables: refused.variables, problems: refused.problems }, 'invalid configuration');
}
