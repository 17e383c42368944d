import pino, { type Logger } from 'pino';

/** A pino logger whose lines are kept in memory, parsed, for tests that assert what the service logs. */
export interface CapturedLog {
  readonly logger: Logger;
  /** Every line written so far, parsed from JSON, in order. */
  readonly lines: Record<string, any>[];
  /** The raw text written so far. */
  text(): string;
}

/** A captured logger at `level` (default debug, so debug-level lines can be asserted too). */
export function captureLog(level = 'debug'): CapturedLog {
  const raw: string[] = [];
  const lines: Record<string, any>[] = [];
  const logger = pino({ level }, {
    write(chunk: string) {
      raw.push(chunk);
      lines.push(JSON.parse(chunk));
    },
  });
  return { logger, lines, text: () => raw.join('') };
}
