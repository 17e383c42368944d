/**
 * Lints the OpenAPI document as the service serves it with Redocly's `recommended` rules
 * (redocly.yaml): emits it to a temporary file (scripts/emit-openapi.ts), runs `redocly lint`, and
 * fails on any error or on more than MAX_WARNINGS warnings, printing each problem. Part of
 * `npm run lint`, so .ci/run holds every change to the document to it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Warnings tolerated: livez and readyz have no 4xx answer by nature (operation-4xx-response). */
const MAX_WARNINGS = 5;

interface Problem {
  readonly ruleId: string;
  readonly severity: string;
  readonly message: string;
  readonly location?: readonly { readonly pointer?: string }[];
}

const root = path.resolve(__dirname, '..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'openapi-lint-'));
try {
  const file = path.join(dir, 'openapi.json');
  execFileSync(process.execPath, [require.resolve('ts-node/dist/bin'), '--transpile-only', path.join(root, 'scripts', 'emit-openapi.ts'), file], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const redocly = spawnSync(process.execPath, [require.resolve('@redocly/cli/bin/cli.js'), 'lint', file, '--format=json', `--config=${path.join(root, 'redocly.yaml')}`], {
    cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  const start = redocly.stdout.indexOf('{');
  if (start < 0) throw new Error(`redocly printed no report: ${redocly.stderr}`);
  const report = JSON.parse(redocly.stdout.slice(start)) as { totals: { errors: number; warnings: number }; problems: Problem[] };
  for (const p of report.problems) process.stdout.write(`${p.severity} ${p.ruleId} ${p.location?.[0]?.pointer ?? ''}: ${p.message}\n`);
  const { errors, warnings } = report.totals;
  process.stdout.write(`OpenAPI (Redocly recommended): ${errors} errors, ${warnings} warnings (at most ${MAX_WARNINGS})\n`);
  if (errors > 0 || warnings > MAX_WARNINGS) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
