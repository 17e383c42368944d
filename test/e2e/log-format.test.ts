import { randomBytes } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { generateApiKey } from '../../src/app/api-keys';
import {
  DIST_MAIN, ensureBuilt, exitWithin, freshDatabase, killChildren, listeningPort, spawnChild, terminate, type Child,
} from '../support/child-process';

// Child processes start in one to five seconds each (ts-node for development, as `npm start` runs it).
jest.setTimeout(90_000);

/** Every non-empty line the child wrote, stdout then stderr. */
const output = (child: Child) => [...child.stdout, ...child.stderr].filter((line) => line.trim() !== '');

/** A line pino-pretty writes: `[HH:MM:ss.l] LEVEL: message`. */
const PRETTY_LINE = /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] (TRACE|DEBUG|INFO|WARN|ERROR|FATAL): /;

/** Whether `line` is a JSON log line (an object: a pretty entry's indented fields may be JSON strings). */
const parsesAsJson = (line: string) => {
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null;
  } catch {
    return false;
  }
};

/**
 * The compiled service as the image runs it, with pino-pretty made unloadable: production must
 * never load it (it is a development dependency, absent from the image), so loading it fails the start.
 */
function spawnProductionWithoutPretty(env: Record<string, string>): Child {
  const forbid = `const Module = require('node:module'); const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'pino-pretty' || request.startsWith('pino-pretty/')) throw new Error('pino-pretty loaded in production');
  return resolve.call(this, request, ...rest);
};
require(${JSON.stringify(DIST_MAIN)});`;
  // LOG_FORMAT empty is unset: production's own default is under test.
  return spawnChild(process.execPath, ['-e', forbid], { PORT: '0', HOST: '127.0.0.1', LOG_FORMAT: '', NODE_ENV: 'production', ...env });
}

/** `npm start`'s command (ts-node on the sources), with `env` and nothing else of this process's. */
const spawnDevelopment = (env: Record<string, string>) => spawnChild('npx', ['ts-node', '--transpile-only', 'src/app/main.ts'], { HOST: '127.0.0.1', ...env });

describe('log format: JSON in production, pretty in development (docs/decisions.md § Running it)', () => {
  beforeAll(() => ensureBuilt(), 120_000);
  afterEach(() => killChildren());

  it('production: a bad configuration is ONE JSON line naming every variable at fault, never a value', async () => {
    const secret = 'very-secret-consumer-value';
    const child = spawnProductionWithoutPretty({ PORT: 'eighty', MPESA_CONSUMER_SECRET: secret, DATABASE_URL: 'postgres://payout:hunter2-password@127.0.0.1:1/payout' });
    const exit = await exitWithin(child, 20_000);
    expect(exit?.code).toBe(1);
    const lines = output(child);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toEqual({
      level: 60, time: expect.any(Number), service: 'payout-gateway',
      msg: 'invalid configuration',
      // The set variable is not missing, so it is not named (MPESA_ is the prefix the message names).
      variables: ['PORT', 'WEBHOOK_SECRET_KEY', 'MPESA_BASE_URL', 'MPESA_CONSUMER_KEY', 'MPESA_SHORTCODE', 'MPESA_INITIATOR_NAME', 'MPESA_INITIATOR_PASSWORD',
        'MPESA_CERTIFICATE_PATH', 'MPESA_CALLBACK_BASE_URL', 'MPESA_CALLBACK_PATH_SECRET'],
      problems: [
        expect.stringMatching(/^PORT: Invalid input: expected number/),
        expect.stringMatching(/^WEBHOOK_SECRET_KEY is required in production/),
        'M-Pesa is partly configured: set MPESA_BASE_URL, MPESA_CONSUMER_KEY, MPESA_SHORTCODE, MPESA_INITIATOR_NAME, MPESA_INITIATOR_PASSWORD, '
        + 'MPESA_CERTIFICATE_PATH, MPESA_CALLBACK_BASE_URL, MPESA_CALLBACK_PATH_SECRET (or unset every MPESA_ variable)',
      ],
    });
    expect(lines[0]).not.toContain(secret);
    expect(lines[0]).not.toContain('hunter2');
  });

  it('production: LOG_FORMAT=pretty is refused in JSON, pino-pretty unloaded, with every other problem', async () => {
    const db = await freshDatabase();
    try {
      const child = spawnProductionWithoutPretty({ DATABASE_URL: db.url, LOG_FORMAT: 'pretty' });
      const exit = await exitWithin(child, 20_000);
      expect(exit?.code).toBe(1);
      const lines = output(child);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        level: 60, msg: 'invalid configuration', variables: ['WEBHOOK_SECRET_KEY', 'LOG_FORMAT'],
        problems: [expect.stringMatching(/^WEBHOOK_SECRET_KEY is required in production/), expect.stringMatching(/^LOG_FORMAT=pretty is for development only/)],
      });
    } finally {
      await db.drop();
    }
  });

  it('production: a good configuration starts and logs JSON lines only, without loading pino-pretty', async () => {
    const db = await freshDatabase();
    try {
      const child = spawnProductionWithoutPretty({
        DATABASE_URL: db.url, WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
        SANDBOX_API_KEY: generateApiKey('sandbox'), ADMIN_API_KEY: generateApiKey('sandbox'),
      });
      await listeningPort(child);
      expect((await terminate(child)).code).toBe(0);
      const lines = output(child);
      expect(lines.length).toBeGreaterThan(3);
      expect(lines.filter((line) => !parsesAsJson(line))).toEqual([]);
    } finally {
      await db.drop();
    }
  });

  it('development (NODE_ENV unset): a bad configuration is one pretty entry naming the variables', async () => {
    const child = spawnDevelopment({ PORT: 'eighty', LOG_LEVEL: 'loud' });
    const exit = await exitWithin(child, 60_000);
    expect(exit?.code).toBe(1);
    const lines = child.stdout.filter((line) => line.trim() !== '');
    expect(lines[0]).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] FATAL: invalid configuration$/);
    expect(lines.filter(parsesAsJson)).toEqual([]);
    const text = lines.join('\n');
    expect(text).toMatch(/variables: \[\s*"PORT",\s*"LOG_LEVEL"\s*\]/);
    expect(text).toContain('PORT: ');
    expect(text).toContain('LOG_LEVEL: ');
    expect(text).not.toContain('eighty');
    expect(child.stderr.filter((line) => line.trim() !== '' && !line.startsWith('npm warn'))).toEqual([]);
  });

  it('development: the service logs pretty lines, and LOG_FORMAT=json switches them to JSON', async () => {
    const taken = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => taken.once('listening', resolve));
    try {
      // A taken port ends the start at its first log line, before any database is needed.
      const port = String((taken.address() as AddressInfo).port);
      const [pretty, json] = [spawnDevelopment({ PORT: port }), spawnDevelopment({ PORT: port, LOG_FORMAT: 'json' })];
      expect((await exitWithin(pretty, 60_000))?.code).toBe(1);
      expect((await exitWithin(json, 60_000))?.code).toBe(1);
      const prettyLines = pretty.stdout.filter((line) => line.trim() !== '');
      expect(prettyLines[0]).toMatch(PRETTY_LINE);
      expect(prettyLines[0]).toMatch(/FATAL: cannot listen on 127\.0\.0\.1:\d+: the address is already in use/);
      expect(prettyLines.filter(parsesAsJson)).toEqual([]);
      const jsonLines = json.stdout.filter((line) => line.trim() !== '');
      expect(jsonLines).toHaveLength(1);
      expect(JSON.parse(jsonLines[0]!)).toMatchObject({ level: 60, code: 'EADDRINUSE', msg: expect.stringMatching(/already in use/) });
    } finally {
      taken.close();
    }
  });
});
