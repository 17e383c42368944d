import { DefaultLogger, type LogContext, type LoggerNamespace, type LoggerOptions } from '@mikro-orm/core';
import type { Logger } from 'pino';

/** MikroORM's log levels mapped to pino's; anything else MikroORM logs is info. */
const LEVELS = { error: 'error', warning: 'warn' } as const;

/**
 * MikroORM's logger writing through pino (docs/decisions.md § Running it): one JSON line per
 * message, with MikroORM's namespace (`migrator`, `query`, `discovery`, ...) as a field and no ANSI
 * colours, so migrator output (`Processing 'Migration…'`, `Applied '…'`) reads like every other line.
 * Which namespaces are enabled is MikroORM's own rule (the migrator always logs; queries only in
 * debug mode, which the service never turns on).
 */
export class PinoOrmLogger extends DefaultLogger {
  constructor(options: LoggerOptions, private readonly pino: Logger) {
    super(options);
  }

  /** Writes `message` at the level `context.level` implies (info by default) with `{ namespace }`. */
  override log(namespace: LoggerNamespace | (string & {}), message: string, context?: LogContext): void {
    // MikroORM's own isEnabled types its namespace narrowly but reads any string.
    if (!this.isEnabled(namespace as LoggerNamespace, context)) return;
    const level = context?.level === 'error' || context?.level === 'warning' ? LEVELS[context.level] : 'info';
    this.pino[level]({ namespace, ...(context?.label ? { label: context.label } : {}) }, message.replace(/\s+/g, ' ').trim());
  }
}
