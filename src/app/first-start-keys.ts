import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SeededKeys } from './seed';

/**
 * Writes the keys generated on a production first start to `file` (docs/decisions.md § Running it):
 * created with mode 0600 (readable by the service's OS user only) and never overwritten, so the
 * log and the terminal never see a key. Rejects when the file already exists (it may hold the
 * keys of an earlier database: the operator moves it away) or cannot be written; returns a
 * function that deletes it again, for when storing the keys then fails.
 */
export async function writeKeysFile(file: string, keys: SeededKeys, now: Date): Promise<() => Promise<void>> {
  const lines = [
    `# Payout gateway: API keys generated on the first start, ${now.toISOString()}.`,
    '# They are not stored anywhere else in clear: move them to your secret store, then delete this file.',
    `SANDBOX_TENANT_ID=${keys.tenantId ?? ''}`,
    ...(keys.issuerKey ? [`SANDBOX_API_KEY=${keys.issuerKey}`] : []),
    ...(keys.adminKey ? [`ADMIN_API_KEY=${keys.adminKey}`] : []),
  ];
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${lines.join('\n')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(code === 'EEXIST'
      ? `the keys file ${file} already exists (keys of an earlier database?): move it away or set SANDBOX_API_KEY and ADMIN_API_KEY`
      : `cannot write the keys file ${file}: ${(error as Error).message}`, { cause: error });
  }
  return () => rm(file, { force: true });
}

/** The development first-start notice: keys on the terminal (stdout, not the log stream), once. */
export function printKeys(keys: SeededKeys): void {
  process.stdout.write(
    `\nSandbox tenant ${keys.tenantId} created. Save these keys now; they are not shown again.\n` +
      (keys.issuerKey ? `  issuer key: ${keys.issuerKey}\n` : '') +
      (keys.adminKey ? `  admin key:  ${keys.adminKey}\n` : '') + '\n',
  );
}
