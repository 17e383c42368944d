import 'reflect-metadata';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { Client } from 'pg';
import { TenantPatchBody } from '../adapters/http/admin.routes';
import { loadConfig, type Config } from './config';
import { buildContainer } from './container';
import { openDatabase } from './database';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded-database';

const USAGE = `Operator CLI (DESIGN.md 9, 10). Uses DATABASE_URL, else the embedded database under DATA_DIR.

  npm run cli -- tenants:list
  npm run cli -- tenants:create --name "Acme Wallet" [--environment sandbox|live]
  npm run cli -- tenants:update --tenant ten_... [--name text] [--rate-limit N|default] [--webhook-limit N|default]
                 [--refund-address ADDRESS|none] [--blockchain SOLANA|BSC] [--source-currency USDC|USDT]
  npm run cli -- keys:list --tenant ten_...
  npm run cli -- keys:create --tenant ten_... [--scope issuer|admin] [--label text]
  npm run cli -- keys:revoke --key key_...
  npm run cli -- deposits:create --tenant ten_... --currency USDC|USDT --amount 1000 --tx-hash 0x... [--blockchain SOLANA|BSC]
`;

/** The embedded server if one is already running (npm start), else a fresh start of it. */
async function embeddedUrl(config: Config): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
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

/** The `tenants:update` flags as a patch, checked by the REST route's schema ("default" and "none" mean null). */
function tenantPatchOf(values: Record<string, string | undefined>) {
  const nullable = (value: string | undefined, word: string) => (value === word ? null : value);
  const count = (value: string | undefined) => {
    const given = nullable(value, 'default');
    return typeof given === 'string' && /^\d+$/.test(given) ? Number(given) : given;
  };
  const parsed = TenantPatchBody.safeParse(Object.fromEntries(Object.entries({
    name: values.name,
    rateLimitPerMinute: count(values['rate-limit']),
    webhookLimit: count(values['webhook-limit']),
    payoutRefundAddress: nullable(values['refund-address'], 'none'),
    payoutBlockchain: values.blockchain,
    payoutSourceCurrency: values['source-currency'],
  }).filter(([, v]) => v !== undefined)));
  if (parsed.success) return { ok: true as const, value: parsed.data };
  const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
  return { ok: false as const, code: 'validation_error', message };
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv, allowPositionals: true,
    options: {
      name: { type: 'string' }, environment: { type: 'string' }, tenant: { type: 'string' }, scope: { type: 'string' },
      label: { type: 'string' }, key: { type: 'string' }, currency: { type: 'string' }, amount: { type: 'string' },
      'tx-hash': { type: 'string' }, blockchain: { type: 'string' }, 'rate-limit': { type: 'string' },
      'refund-address': { type: 'string' }, 'source-currency': { type: 'string' }, 'webhook-limit': { type: 'string' },
    },
  });
  const command = positionals[0];
  if (!command || command === 'help') {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  const config = loadConfig({ ...process.env, WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
  const target = config.DATABASE_URL ? { url: config.DATABASE_URL } : await embeddedUrl(config);
  const database = await openDatabase(target.url, 2);
  const { admin } = buildContainer(config, database.orm, pino({ level: 'silent' }));
  const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  try {
    const result = await (async () => {
      switch (command) {
        case 'tenants:list': return { ok: true as const, value: await admin.listTenants() };
        case 'tenants:create': return admin.createTenant({ name: values.name ?? '', environment: values.environment === 'live' ? 'live' : 'sandbox' });
        case 'tenants:update': {
          const patch = tenantPatchOf(values);
          return patch.ok ? admin.updateTenant(values.tenant ?? '', patch.value) : patch;
        }
        case 'keys:list': return admin.listApiKeys(values.tenant ?? '');
        case 'keys:create': return admin.issueApiKey(values.tenant ?? '', { scope: values.scope === 'admin' ? 'admin' : 'issuer', label: values.label });
        case 'keys:revoke': return admin.revokeApiKey(values.key ?? '');
        case 'deposits:create': return admin.recordDeposit(values.tenant ?? '', {
          currency: values.currency === 'USDT' ? 'USDT' : 'USDC', amount: values.amount ?? '', txHash: values['tx-hash'] ?? '',
          blockchain: values.blockchain === 'BSC' ? 'BSC' : 'SOLANA',
        });
        default: return undefined;
      }
    })();
    if (!result) {
      process.stderr.write(`unknown command ${command}\n${USAGE}`);
      return 2;
    }
    if (!result.ok) {
      process.stderr.write(`${result.code}: ${result.message}\n`);
      return 1;
    }
    print(result.value ?? { ok: true });
    return 0;
  } finally {
    await database.close();
    await target.embedded?.stop();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code), (error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
