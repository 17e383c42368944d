import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { generateApiKey } from '../../src/app/api-keys';
import { ensureBuilt, exitWithin, freePort, freshDatabase, killChildren, listeningPort, spawnService, terminate, type LogLine } from '../support/child-process';
import { eventually, moneyOutBody } from '../support/test-service';

const stopped = (l: LogLine) => l.msg === 'stopped';

/** Sends `head` on a new connection; `finish()` sends the rest and resolves with the raw response once the server closes it. */
async function partialRequest(port: number, head: string) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let response = '';
  socket.on('data', (chunk) => (response += chunk.toString('utf8')));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(head);
  return {
    async finish(rest: string): Promise<string> {
      socket.write(rest);
      await ended;
      return response;
    },
  };
}

// Child processes start in one to three seconds each; a loaded machine (CI, parallel runs) needs room.
jest.setTimeout(60_000);

describe('shutdown in order (SIGTERM to the compiled service)', () => {
  beforeAll(() => ensureBuilt(), 120_000);
  afterEach(() => killChildren());

  it('readyz turns 503, new connections are refused, an in-flight request completes, then exit 0 with one "stopped" line and no error', async () => {
    const db = await freshDatabase();
    const apiKey = generateApiKey('sandbox');
    const locker = new Client({ connectionString: db.url });
    const watcher = new Client({ connectionString: db.url });
    try {
      // Headers may take long here: the probe below sends its last line only after the signal.
      const child = spawnService({
        DATABASE_URL: db.url, SANDBOX_API_KEY: apiKey, ADMIN_API_KEY: generateApiKey('sandbox'), SHUTDOWN_GRACE_MS: '20000',
        HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '60000',
      });
      const port = await listeningPort(child);
      // A slow request: its key lookup waits on a lock this test holds.
      await locker.connect();
      await watcher.connect();
      await locker.query('begin');
      await locker.query('lock table api_keys in access exclusive mode');
      const slow = fetch(`http://127.0.0.1:${port}/v1/balances`, { headers: { authorization: `Bearer ${apiKey}` } });
      // Watched from a connection of its own: inside the locker's transaction pg_stat_activity would stay one snapshot.
      await eventually(async () => {
        const { rows } = await watcher.query("select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
        return rows.length > 0 ? true : undefined;
      });
      // A readiness probe whose request is still arriving when the signal comes.
      const probe = await partialRequest(port, 'GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n');

      child.signal('SIGTERM');
      await child.waitForLog((l) => l.msg === 'shutting down');
      // Refused, or (when it raced the close) accepted and closed unanswered: never served.
      await expect(fetch(`http://127.0.0.1:${port}/livez`)).rejects.toThrow('fetch failed');
      const readyz = await probe.finish('\r\n');
      expect(readyz).toMatch(/^HTTP\/1\.1 503 /);
      expect(readyz.toLowerCase()).toContain('connection: close');
      expect(JSON.parse(readyz.slice(readyz.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 'unavailable' });
      expect(child.logs().some(stopped)).toBe(false);

      await locker.query('commit');
      const answer = await slow;
      expect(answer.status).toBe(200);

      const exit = await exitWithin(child, 20_000);
      expect(exit).toMatchObject({ code: 0, signal: null });
      const logs = child.logs();
      expect(logs.filter((l) => (l.level ?? 0) >= 50)).toEqual([]);
      expect(logs.filter(stopped)).toHaveLength(1);
      expect(logs.findIndex(stopped)).toBe(logs.length - 1);
    } finally {
      await killChildren();
      await locker.end().catch(() => undefined);
      await watcher.end().catch(() => undefined);
      await db.drop();
    }
  });

  it('from the signal on, workers start no new pass: a payment falling due during the drain is left for the next start', async () => {
    const db = await freshDatabase();
    const apiKey = generateApiKey('sandbox');
    const adminKey = generateApiKey('sandbox');
    const locker = new Client({ connectionString: db.url });
    const watcher = new Client({ connectionString: db.url });
    try {
      const child = spawnService({
        DATABASE_URL: db.url, SANDBOX_API_KEY: apiKey, ADMIN_API_KEY: adminKey, SHUTDOWN_GRACE_MS: '60000',
        SANDBOX_ACCEPT_DELAY_MS: '0', SANDBOX_RESULT_DELAY_MS: '2000', WORKER_POLL_INTERVAL_MS: '50',
      });
      const port = await listeningPort(child);
      await watcher.connect();
      const created = await fetch(`http://127.0.0.1:${port}/v1/payments/moneyout`, {
        method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify(moneyOutBody()),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const payment = async () => (await watcher.query<{ status: string; due: Date | null }>(
        'select status, next_action_at as due from payments where id = $1', [id])).rows[0]!;
      // Accepted: its result falls due SANDBOX_RESULT_DELAY_MS later.
      const { due } = await eventually(async () => {
        const now = await payment();
        return now.status === 'provider_accepted' && now.due ? now : undefined;
      });

      // The drain is held open by a request whose key lookup waits on a lock (the admin key, never cached).
      await locker.connect();
      await locker.query('begin');
      await locker.query('lock table api_keys in access exclusive mode');
      const slow = fetch(`http://127.0.0.1:${port}/v1/admin/tenants`, { headers: { authorization: `Bearer ${adminKey}` } });
      await eventually(async () => {
        const { rows } = await watcher.query("select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
        return rows.length > 0 ? true : undefined;
      });
      child.signal('SIGTERM');
      await child.waitForLog((l) => l.msg === 'shutting down');
      // A running worker would take it by now (due, then many poll intervals): nothing happening is the point.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due!.getTime() - Date.now()) + 1500));
      expect((await payment()).status).toBe('provider_accepted');

      await locker.query('commit');
      expect((await slow).status).toBe(200);
      expect(await exitWithin(child, 20_000)).toMatchObject({ code: 0, signal: null });
      expect((await payment()).status).toBe('provider_accepted');
    } finally {
      await killChildren();
      await locker.end().catch(() => undefined);
      await watcher.end().catch(() => undefined);
      await db.drop();
    }
  });

  it('with the embedded PostgreSQL, the LISTEN connections and the pool close before PostgreSQL stops: no warning, exit 0', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'payout-stop-'));
    chmodSync(dataDir, 0o755);
    const pgPort = await freePort();
    try {
      const child = spawnService({ DATA_DIR: dataDir, EMBEDDED_DB_PORT: String(pgPort), SANDBOX_API_KEY: generateApiKey('sandbox'), ADMIN_API_KEY: generateApiKey('sandbox') });
      await listeningPort(child);
      const exit = await terminate(child);
      expect(exit).toMatchObject({ code: 0, signal: null });
      const logs = child.logs();
      expect(logs.filter((l) => (l.level ?? 0) >= 40)).toEqual([]);
      expect(logs.filter((l) => /FATAL|terminating connection/.test(String(l.msg)))).toEqual([]);
      const shutDown = logs.findIndex((l) => String(l.msg).includes('database system is shut down'));
      expect(shutDown).toBeGreaterThan(-1);
      expect(logs.filter(stopped)).toHaveLength(1);
      expect(logs.findIndex(stopped)).toBeGreaterThan(shutDown);
      expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    } finally {
      await killChildren();
      // A failed run must not leave PostgreSQL running on the deleted folder.
      const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
      if (existsSync(pidFile)) process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGINT');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
