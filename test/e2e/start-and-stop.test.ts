import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { generateApiKey } from '../../src/app/api-keys';
import { ensureBuilt, exitWithin, freshDatabase, killChildren, listeningPort, spawnService, terminate, type Child } from '../support/child-process';

const strongSecret = () => randomBytes(32).toString('base64');
const everything = (child: Child) => [...child.stdout, ...child.stderr].join('\n');

async function tableCount(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query("select count(*)::int as n from information_schema.tables where table_schema = 'public'")).rows[0].n;
  } finally {
    await client.end();
  }
}

/** A temporary folder the embedded PostgreSQL's OS user can traverse (mkdtemp makes it 0700). */
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'payout-start-'));
  chmodSync(dir, 0o755);
  return dir;
}

// Child processes start in one to three seconds each; a loaded machine (CI, parallel runs) needs room.
jest.setTimeout(60_000);
/** How long a start that must fail may take before it counts as not exiting (a loaded run has needed 8 s and more). */
const EXIT_WITHIN_MS = 30_000;

describe('start and stop: the compiled service as a child process', () => {
  let db: { url: string; drop(): Promise<void> };
  beforeAll(() => ensureBuilt(), 120_000);
  beforeEach(async () => {
    db = await freshDatabase();
  });
  afterEach(async () => {
    await killChildren();
    await db.drop();
  });

  it('a taken port ends the start at once with one clear line, before the database, migrations or workers', async () => {
    const taken = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => taken.once('listening', resolve));
    try {
      const started = Date.now();
      const child = spawnService({ DATABASE_URL: db.url, PORT: String((taken.address() as AddressInfo).port) });
      const exit = await exitWithin(child, EXIT_WITHIN_MS);
      expect(exit).toBeDefined();
      expect(exit!.code).not.toBe(0);
      // Well under a start that reaches the database (the migrations alone take longer), with room
      // for node's own start when test workers and other work share the cores.
      expect(exit!.at - started).toBeLessThan(15_000);
      const lines = [...child.stdout, ...child.stderr].filter((line) => line.trim() !== '');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 60, code: 'EADDRINUSE', msg: expect.stringMatching(/already in use/) });
      expect(await tableCount(db.url)).toBe(0);
    } finally {
      taken.close();
    }
  });

  it('production: a first start writes the generated keys to a 0600 file, prints no key, and a restart generates none', async () => {
    const dir = tempDir();
    const keysFile = path.join(dir, 'keys.env');
    const env = { NODE_ENV: 'production', DATABASE_URL: db.url, WEBHOOK_SECRET_KEY: strongSecret(), KEYS_FILE: keysFile, DATA_DIR: dir };
    try {
      const first = spawnService(env);
      const port = await listeningPort(first);
      expect(everything(first)).not.toContain('sk_');
      expect(statSync(keysFile).mode & 0o777).toBe(0o600);
      const keys = Object.fromEntries(readFileSync(keysFile, 'utf8').split('\n').filter((l) => /^[A-Z_]+=/.test(l)).map((l) => l.split('=')));
      expect(keys).toEqual({ SANDBOX_TENANT_ID: expect.stringMatching(/^ten_/), SANDBOX_API_KEY: expect.stringMatching(/^sk_sandbox_/), ADMIN_API_KEY: expect.stringMatching(/^sk_sandbox_/) });
      expect(first.logs().find((l) => l.keysFile)).toMatchObject({ keysFile, level: 40 });
      const get = (p: string, key: string) => fetch(`http://127.0.0.1:${port}${p}`, { headers: { authorization: `Bearer ${key}` } });
      expect((await get('/v1/balances', keys.SANDBOX_API_KEY!)).status).toBe(200);
      expect((await get('/v1/admin/tenants', keys.ADMIN_API_KEY!)).status).toBe(200);
      expect(everything(first)).not.toContain('sk_');
      expect((await terminate(first)).code).toBe(0);

      rmSync(keysFile);
      const again = spawnService(env);
      await listeningPort(again);
      expect((await terminate(again)).code).toBe(0);
      expect(existsSync(keysFile)).toBe(false);
      expect(everything(again)).not.toContain('sk_');
      expect(again.logs().some((l) => l.keysFile)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('production: a keys file already there stops a first start before anything is stored', async () => {
    const dir = tempDir();
    const keysFile = path.join(dir, 'keys.env');
    writeFileSync(keysFile, 'earlier keys\n');
    try {
      const child = spawnService({ NODE_ENV: 'production', DATABASE_URL: db.url, WEBHOOK_SECRET_KEY: strongSecret(), KEYS_FILE: keysFile });
      const exit = await exitWithin(child, EXIT_WITHIN_MS);
      expect(exit?.code).toBe(1);
      expect(child.stderr.join('\n')).toContain(`the keys file ${keysFile} already exists`);
      expect(readFileSync(keysFile, 'utf8')).toBe('earlier keys\n');
      const client = new Client({ connectionString: db.url });
      await client.connect();
      expect((await client.query('select count(*)::int as n from tenants')).rows[0].n).toBe(0);
      expect((await client.query('select count(*)::int as n from api_keys')).rows[0].n).toBe(0);
      await client.end();
      expect(everything(child)).not.toContain('sk_');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('production: a weak key is refused at start with an error naming the variable and never the key', async () => {
    const weak = 'sk_live_00000000000000000000000000000000';
    const child = spawnService({ NODE_ENV: 'production', DATABASE_URL: db.url, WEBHOOK_SECRET_KEY: strongSecret(), ADMIN_API_KEY: weak, SANDBOX_API_KEY: generateApiKey('sandbox') });
    const exit = await exitWithin(child, EXIT_WITHIN_MS);
    expect(exit?.code).toBe(1);
    // One JSON log line, like every line production writes (docs/decisions.md § Running it).
    const lines = [...child.stdout, ...child.stderr].filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 60, msg: 'invalid configuration', variables: ['ADMIN_API_KEY'],
      problems: [expect.stringMatching(/^ADMIN_API_KEY is too weak: its random part is estimated at 0 bits, at least 128 are required/)],
    });
    expect(everything(child)).not.toContain('SANDBOX_API_KEY');
    expect(everything(child)).not.toContain('00000000000000000000');
    expect(await tableCount(db.url)).toBe(0);
  });

  it('migrator output is JSON log lines with a namespace, not ANSI text', async () => {
    const child = spawnService({ DATABASE_URL: db.url, SANDBOX_API_KEY: generateApiKey('sandbox'), ADMIN_API_KEY: generateApiKey('sandbox') });
    await listeningPort(child);
    await terminate(child);
    const text = everything(child);
    expect(text).not.toContain('\u001b[');
    expect(text).not.toContain('[migrator]');
    const applied = child.logs().filter((l) => l.namespace === 'migrator' && /^Applied 'Migration\d+'$/.test(String(l.msg)));
    expect(applied.length).toBeGreaterThan(0);
    expect(applied.map((l) => l.level)).toEqual(applied.map(() => 30));
  });
});
