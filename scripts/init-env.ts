/**
 * Writes the secrets `docker compose up` needs into an env file (README "Operations"):
 * `npm run env:init` creates `.env` next to docker-compose.yml; `-- --file PATH` writes elsewhere.
 * The file is created with mode 0600 and never overwritten (exit 1 when it exists: rotating secrets
 * is a deliberate act, docs/decisions.md § Personal data and secrets). Prints the path, never a value.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateApiKey } from '../src/app/api-keys';

const { values } = parseArgs({ options: { file: { type: 'string', default: path.resolve(__dirname, '..', '.env') } }, strict: true });
const file = path.resolve(values.file);
const lines = [
  '# Secrets for docker compose (npm run env:init). Keep this file out of version control and images.',
  `# Generated ${new Date().toISOString()}.`,
  // Base62 only: the password goes into DATABASE_URL unescaped.
  `POSTGRES_PASSWORD=${generateApiKey('live').slice('sk_live_'.length)}`,
  `WEBHOOK_SECRET_KEY=${randomBytes(32).toString('base64')}`,
  `SANDBOX_API_KEY=${generateApiKey('sandbox')}`,
  `ADMIN_API_KEY=${generateApiKey('sandbox')}`,
];
try {
  writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600, flag: 'wx' });
} catch (error) {
  const exists = (error as NodeJS.ErrnoException).code === 'EEXIST';
  process.stderr.write(exists ? `${file} already exists: not overwritten (delete it first to generate new secrets)\n` : `cannot write ${file}: ${(error as Error).message}\n`);
  process.exit(1);
}
process.stdout.write(`wrote ${file} (mode 0600): POSTGRES_PASSWORD, WEBHOOK_SECRET_KEY, SANDBOX_API_KEY, ADMIN_API_KEY\n`);
