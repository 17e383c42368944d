import { readdirSync, readFileSync } from 'node:fs';
import { generateApiKey } from '../../src/app/api-keys';
import { ensureBuilt, exitWithin, freshDatabase, killChildren, spawnChild, type Child } from '../support/child-process';
import { eventually } from '../support/test-service';

// `npm start` compiles the service through ts-node as it loads: tens of seconds on a loaded machine.
jest.setTimeout(150_000);

/** Parent pid and state of `pid` from /proc, or undefined once it is gone. */
function processOf(pid: number): { ppid: number; state: string } | undefined {
  try {
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(ppid), state: state! };
  } catch {
    return undefined;
  }
}

/** Every live process below `root` (children, grandchildren, ...). */
function descendantsOf(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const proc = processOf(Number(entry));
    if (proc) parents.set(Number(entry), proc.ppid);
  }
  const below = (pid: number): number[] => [...parents].filter(([, ppid]) => ppid === pid).flatMap(([child]) => [child, ...below(child)]);
  return below(root);
}

/** A process that has exited (a zombie not yet reaped counts as exited). */
const gone = (pid: number) => {
  const proc = processOf(pid);
  return proc === undefined || proc.state === 'Z';
};

describe('SIGTERM to npm stops the service it started (README "Operations")', () => {
  let db: { url: string; drop(): Promise<void> };
  // What a failed test leaves running, killed after it: npm's descendants would outlive npm's SIGKILL.
  let leftovers: () => number[] = () => [];
  beforeAll(() => ensureBuilt(), 120_000);
  beforeEach(async () => {
    db = await freshDatabase();
  });
  afterEach(async () => {
    for (const pid of leftovers()) process.kill(pid, 'SIGKILL');
    leftovers = () => [];
    await killChildren();
    await db.drop();
  });

  it.each([['start'], ['start:dist']])('npm run %s: the service shuts down in order and no process of it is left', async (script) => {
    const npm: Child = spawnChild('npm', ['run', script], {
      DATABASE_URL: db.url, PORT: '0', HOST: '127.0.0.1', SANDBOX_API_KEY: generateApiKey('sandbox'), ADMIN_API_KEY: generateApiKey('sandbox'),
      // Development logs are pretty by default; the test reads JSON lines.
      LOG_FORMAT: 'json',
    });
    leftovers = () => descendantsOf(npm.pid);
    await npm.waitForLog((l) => l.msg === 'payout gateway listening', 120_000);
    const started = descendantsOf(npm.pid);
    leftovers = () => started.filter((pid) => !gone(pid));
    expect(started.length).toBeGreaterThan(0);

    npm.signal('SIGTERM');
    // Whatever npm started (a shell, ts-node, node) ends with it: none is left running on its own.
    // (Read from /proc: a process left running holds npm's output pipes, so npm's 'close' never comes.)
    const left = await eventually(async () => ([npm.pid, ...started].every(gone) ? [] : undefined), 30_000)
      .catch(() => started.filter((pid) => !gone(pid)).map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()));
    expect(left).toEqual([]);
    expect((await exitWithin(npm, 10_000))?.code).toBe(0);
    const logs = npm.logs();
    expect(logs.filter((l) => l.msg === 'shutting down')).toMatchObject([{ signal: 'SIGTERM' }]);
    expect(logs.filter((l) => l.msg === 'stopped')).toHaveLength(1);
  });
});
