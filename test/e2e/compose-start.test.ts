import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { builtinModules } from 'node:module';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load } from 'js-yaml';
import {
  ensureBuilt, exitWithin, freePort, freshDatabase, killChildren, listeningPort, ROOT, spawnChild, spawnService, terminate,
} from '../support/child-process';
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
    expect(runtime.lines).toContain('RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force');
    expect(runtime.lines.filter((l) => l.startsWith('COPY '))).toEqual(expect.arrayContaining([expect.stringMatching(/^COPY --from=\w+ \/app\/dist \.\/dist$/)]));
    expect(runtime.lines.some((l) => /^COPY \. /.test(l))).toBe(false);
    expect(runtime.lines.find((l) => l.startsWith('USER '))).toMatch(/^USER (?!root\b|0\b)\S+$/);
    expect(runtime.lines.some((l) => l.startsWith('HEALTHCHECK '))).toBe(true);

    const compose = load(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Record<string, unknown>> };
    expect(compose.services.postgres!.ports).toBeUndefined();
    expect(compose.services.redis).toMatchObject({ image: 'redis:7' });
    expect(compose.services.payout!.environment).toMatchObject({ REDIS_URL: 'redis://redis:6379' });
  });

  it('env:init writes the secrets once (mode 0600) and refuses to overwrite them', async () => {
    const file = path.join(dir, 'init-once.env');
    const first = spawnChild('npx', ['ts-node', '--transpile-only', 'scripts/init-env.ts', '--file', file], {});
    expect((await exitWithin(first, 60_000))?.code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = readFileSync(file, 'utf8');
    expect(Object.keys(readEnvFile(file)).sort()).toEqual(['ADMIN_API_KEY', 'POSTGRES_PASSWORD', 'SANDBOX_API_KEY', 'WEBHOOK_SECRET_KEY']);
    expect(first.stdout.join('\n')).not.toContain(readEnvFile(file).ADMIN_API_KEY);
    const second = spawnChild('npx', ['ts-node', '--transpile-only', 'scripts/init-env.ts', '--file', file], {});
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

  it('nothing under dist requires a package outside dependencies (the runtime stage installs no devDependencies)', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const runtime = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})]);
    const builtins = new Set(builtinModules);
    const missing = new Set<string>();
    const files = jsFiles(path.join(ROOT, 'dist'));
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/\brequire\(["']([^"']+)["']\)/g)) {
        if (spec!.startsWith('.') || spec!.startsWith('node:') || builtins.has(spec!)) continue;
        const name = spec!.startsWith('@') ? spec!.split('/').slice(0, 2).join('/') : spec!.split('/')[0]!;
        const where = path.relative(ROOT, file);
        if (!runtime.has(name) && DEVELOPMENT_ONLY[name] !== where) missing.add(`${name} (${where})`);
      }
    }
    expect([...missing]).toEqual([]);
  });
});
