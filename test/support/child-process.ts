import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';

/** The repository root. */
export const ROOT = path.resolve(__dirname, '../..');
/** The compiled entry point the image runs. */
export const DIST_MAIN = path.join(ROOT, 'dist/src/app/main.js');

/** Newest modification time (ms) of the files under `dir` whose name matches `pattern`, recursively. */
function newestMtime(dir: string, pattern: RegExp): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full, pattern));
    else if (pattern.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Runs `work` holding `dir` as a lock across processes (mkdir is atomic): jest workers running
 * files in parallel wait for each other instead of writing dist/ at once. A lock older than
 * `staleMs` is left over from a killed run and is taken over.
 */
function withDirectoryLock(dir: string, staleMs: number, work: () => void): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(dir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(dir).mtimeMs > staleMs) rmSync(dir, { recursive: true, force: true });
      } catch {
        // released meanwhile: try again
      }
      Atomics.wait(pause, 0, 0, 200);
    }
  }
  try {
    work();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Makes sure `dist/` is the build of the current sources: CI builds before the tests, so this
 * usually reuses it; when a source, migration or the dashboard page is newer (or dist is missing),
 * it runs `npm run build` (about 10 s), one worker at a time.
 */
export function ensureBuilt(): void {
  // Checked inside the lock: while another worker builds, dist/src/app/main.js may be new and the rest not yet.
  withDirectoryLock(path.join(ROOT, '.build-lock'), 5 * 60_000, () => {
    if (!builtIsCurrent()) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  });
}

/** Whether dist/ is newer than everything the build reads. */
function builtIsCurrent(): boolean {
  const built = (() => {
    try {
      return statSync(DIST_MAIN).mtimeMs;
    } catch {
      return 0;
    }
  })();
  // Only what the build reads (migrations' .ts files, not the CLI's schema snapshot beside them).
  const sources = Math.max(newestMtime(path.join(ROOT, 'src'), /\.ts$/), newestMtime(path.join(ROOT, 'migrations'), /\.ts$/),
    newestMtime(path.join(ROOT, 'public'), /./),
    ...['package.json', 'tsconfig.json', 'tsconfig.build.json'].map((f) => statSync(path.join(ROOT, f)).mtimeMs));
  return built >= sources;
}

/**
 * The command and arguments that run the operator CLI as node itself, from the compiled build
 * (`dist/src/app/cli.js`, built once per run by `ensureBuilt`): the same code as `npm run cli`
 * without npm's start or ts-node's compilation of every module (about half a second of CPU per run).
 * The source path (`npm run cli`, through ts-node) is run by admin-key-scope.test.ts.
 */
export function cliCommand(...args: string[]): [string, string[]] {
  ensureBuilt();
  return [process.execPath, [path.join(ROOT, 'dist/src/app/cli.js'), ...args]];
}

/** An empty database of its own on the test server (for first-start behaviour), dropped by `drop()`. */
export async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `payout_child_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = new URL(process.env.TEST_DATABASE_URL!);
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: url.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  return { url: own.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** A parsed JSON log line (pino), or the raw text for anything else. */
export type LogLine = { level?: number; msg?: string; [field: string]: unknown };

/** A running child process with its output collected line by line. */
export interface Child {
  readonly pid: number;
  /** Every stdout line so far. */
  readonly stdout: string[];
  /** Every stderr line so far. */
  readonly stderr: string[];
  /** The stdout lines that are JSON log lines, parsed. */
  logs(): LogLine[];
  /** Resolves with the first log line matching `match` (already seen or to come); rejects after `timeoutMs` or at exit. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Resolves when the process has exited, with its exit code (null when a signal ended it) and signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  signal(name: NodeJS.Signals): void;
}

const running = new Set<ChildProcess>();

/**
 * SIGKILLs every child still running and waits for them: call it in `afterEach`, which jest runs
 * even when a test timed out (its own `finally` never runs then, and a live child keeps jest open).
 */
export async function killChildren(): Promise<void> {
  const left = [...running];
  await Promise.all(left.map((child) => new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.kill('SIGKILL');
  })));
}

/**
 * Spawns `args` (node, or npx) in `cwd` (the repository by default) with exactly `env` plus PATH
 * and HOME: the parent's variables (jest sets NODE_ENV=test) never leak in.
 */
export function spawnChild(command: string, args: string[], env: Record<string, string>, cwd = ROOT): Child {
  const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env } });
  running.add(child);
  const stdout: string[] = [];
  const stderr: string[] = [];
  const waiters = new Set<() => void>();
  const collect = (into: string[]) => {
    let partial = '';
    return (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      into.push(...lines);
      for (const wake of waiters) wake();
    };
  };
  child.stdout.on('data', collect(stdout));
  child.stderr.on('data', collect(stderr));
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    child.on('close', (code, signal) => {
      running.delete(child);
      done = true;
      resolve({ code, signal, at: Date.now() });
      for (const wake of waiters) wake();
    });
  });
  const logs = () => stdout.flatMap((line) => {
    try {
      const parsed: unknown = JSON.parse(line);
      return parsed && typeof parsed === 'object' ? [parsed as LogLine] : [];
    } catch {
      return [];
    }
  });
  return {
    pid: child.pid!, stdout, stderr, logs, exited,
    signal: (name) => void child.kill(name),
    waitForLog: (match, timeoutMs = 20_000) => new Promise((resolve, reject) => {
      const check = () => {
        const found = logs().find(match);
        if (found) finish(() => resolve(found));
        else if (done) finish(() => reject(new Error(`exited before the log line came; stdout:\n${stdout.join('\n')}\nstderr:\n${stderr.join('\n')}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`no such log line in ${timeoutMs} ms; stdout:\n${stdout.join('\n')}`))), timeoutMs);
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        settle();
      };
      waiters.add(check);
      check();
    }),
  };
}

/**
 * The exit of `child`, or undefined when it is still running after `ms` milliseconds (it is then
 * SIGKILLed, so a test that expected an exit fails on its assertion, not on jest's timeout).
 */
export async function exitWithin(child: Child, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const exit = await Promise.race([child.exited, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  clearTimeout(timer);
  if (!exit) {
    child.signal('SIGKILL');
    await child.exited;
  }
  return exit;
}

/** Sends SIGTERM and resolves with the exit; rejects with the child's output when it has not exited within `ms`. */
export async function terminate(child: Child, ms = 20_000): Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }> {
  child.signal('SIGTERM');
  const exit = await exitWithin(child, ms);
  if (!exit) throw new Error(`still running ${ms} ms after SIGTERM; stdout:\n${child.stdout.slice(-30).join('\n')}\nstderr:\n${child.stderr.join('\n')}`);
  return exit;
}

/**
 * `node dist/src/app/main.js` with `env` (PORT 0, HOST 127.0.0.1 and LOG_FORMAT json unless given:
 * the tests read its log lines as JSON, which development, the default NODE_ENV, would print pretty).
 */
export function spawnService(env: Record<string, string>): Child {
  return spawnChild(process.execPath, [DIST_MAIN], { PORT: '0', HOST: '127.0.0.1', LOG_FORMAT: 'json', ...env });
}

/**
 * The port a child service logged in its "listening" line. A first start with the embedded
 * PostgreSQL (initdb, every migration) takes 20 s and more on a loaded two-core machine: 60 s of room.
 */
export async function listeningPort(child: Child, timeoutMs = 60_000): Promise<number> {
  const line = await child.waitForLog((l) => l.msg === 'payout gateway listening', timeoutMs);
  return Number(line.port);
}

/** A local TCP port that was free a moment ago (bound to 0 and released). */
export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The real service (src/app/main.ts through ts-node) as a child process on the run's test database,
 * resolved once it logs that it listens; rejected with its output when it exits or has not started
 * within `timeoutMs`. `env` overrides the defaults (port 0, loopback, a fixed WEBHOOK_SECRET_KEY).
 */
export function startServiceChild(env: Record<string, string>, timeoutMs = 30_000): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/app/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL!, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info',
      WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'), ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`child did not start:\n${output}`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('payout gateway listening')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`child exited ${code}:\n${output}`)));
  });
}
