import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config';

/**
 * The 32-byte key that seals webhook secrets at rest (docs/decisions.md § Personal data and secrets): WEBHOOK_SECRET_KEY (base64)
 * when set; otherwise, outside production, a development key generated once under DATA_DIR.
 * Production without the variable is a configuration error.
 */
export function webhookSecretKey(config: Config): Buffer {
  if (config.WEBHOOK_SECRET_KEY) return Buffer.from(config.WEBHOOK_SECRET_KEY, 'base64');
  if (config.NODE_ENV === 'production') throw new Error('WEBHOOK_SECRET_KEY is required in production');
  const file = path.resolve(config.DATA_DIR, 'webhook-secret.key');
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    // 'wx' fails if another process created it first; then we read theirs.
    try {
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}
