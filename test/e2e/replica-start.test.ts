import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { generateApiKey } from '../../src/app/api-keys';
import { ensureBuilt, freshDatabase, killChildren, ROOT, spawnService, terminate, type Child } from '../support/child-process';

// Child processes start in one to three seconds each; a loaded machine (CI, parallel runs) needs room.
jest.setTimeout(150_000);

async function rows<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('replicas starting together on a fresh database (docs/decisions.md § Running it)', () => {
  let db: { url: string; drop(): Promise<void> };
  beforeAll(() => ensureBuilt(), 120_000);
  beforeEach(async () => {
    db = await freshDatabase();
  });
  afterEach(async () => {
    await killChildren();
    await db.drop();
  });

  it('two processes started at the same moment both come up; the migrations ran once and one sandbox tenant is seeded', async () => {
    const env = { DATABASE_URL: db.url, SANDBOX_API_KEY: generateApiKey('sandbox'), ADMIN_API_KEY: generateApiKey('sandbox') };
    const replicas: Child[] = [spawnService(env), spawnService(env)];
    // Each waits its turn at the start lock: room for a loaded machine.
    const listening = (child: Child) => child.waitForLog((l) => l.msg === 'payout gateway listening', 60_000).then((l) => Number(l.port));
    const ports = await Promise.all(replicas.map((child) => listening(child).catch((error: Error) => error.message)));
    expect(ports).toEqual([expect.any(Number), expect.any(Number)]);
    for (const port of ports as number[]) {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
      const balances = await fetch(`http://127.0.0.1:${port}/v1/balances`, { headers: { authorization: `Bearer ${env.SANDBOX_API_KEY}` } });
      expect(balances.status).toBe(200);
    }

    const migrations = readdirSync(path.join(ROOT, 'migrations')).filter((f) => /^Migration\d+\.ts$/.test(f)).map((f) => f.replace(/\.ts$/, '')).sort();
    const applied = await rows<{ name: string }>(db.url, 'select name from mikro_orm_migrations order by name');
    expect(applied.map((r) => r.name)).toEqual(migrations);
    expect(await rows(db.url, 'select environment from tenants')).toEqual([{ environment: 'sandbox' }]);
    expect(await rows(db.url, 'select scope from api_keys order by scope')).toEqual([{ scope: 'admin' }, { scope: 'issuer' }]);

    const exits = await Promise.all(replicas.map((child) => terminate(child)));
    expect(exits.map((e) => e.code)).toEqual([0, 0]);
    for (const child of replicas) expect(child.logs().filter((l) => (l.level ?? 0) >= 50)).toEqual([]);
  });
});
