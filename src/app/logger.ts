import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * The service logger: JSON lines on stdout (or `destination`: the CLI logs to stderr, keeping stdout
 * for its JSON result); secrets and keys are redacted wherever they would appear.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'payout-gateway' },
    redact: {
      paths: ['authorization', 'headers.authorization', '*.authorization', 'apiKey', '*.apiKey', 'secret', '*.secret'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
