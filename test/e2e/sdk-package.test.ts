import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../support/child-process';
import { startTestService, type TestService } from '../support/test-service';

const run = promisify(execFile);
const manifest = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as {
  main: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string>;
};

/**
 * sdk/ is a package of its own: it compiles with its own tsconfig (strict) to CommonJS with
 * declarations, and the compiled code runs in plain Node against the service. The root install
 * provides its dependencies, so their pins must be the root's.
 */
describe('the SDK package', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
  });
  afterAll(() => service.close());

  it('pins exact versions, the same as the root install', () => {
    const sdk = manifest('sdk/package.json');
    const root = manifest('package.json');
    const rootPins = { ...root.dependencies, ...root.devDependencies };
    for (const [name, version] of Object.entries({ ...sdk.dependencies, ...sdk.devDependencies })) {
      expect([name, version]).toEqual([name, expect.stringMatching(/^\d+\.\d+\.\d+$/)]);
      expect([name, rootPins[name]]).toEqual([name, version]);
    }
  });

  it('npm run sdk:build compiles it, and the compiled client calls the service from plain Node', async () => {
    await run('npm', ['run', 'sdk:build'], { cwd: ROOT });
    const main = path.join(ROOT, 'sdk', manifest('sdk/package.json').main);
    const declarations = readFileSync(main.replace(/\.js$/, '.d.ts'), 'utf8');
    expect(declarations).toContain('createPayoutClient');
    const { apiKey } = await service.newTenant('250');
    const program = `
      const { createPayoutClient, unwrap } = require(${JSON.stringify(main)});
      const client = createPayoutClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
      client.api.GET('/v1/balances').then(unwrap).then((b) => console.log(JSON.stringify(b)), (e) => { console.error(e); process.exit(1); });
    `;
    const { stdout } = await run(process.execPath, ['-e', program], { env: { ...process.env, BASE_URL: service.baseUrl, API_KEY: apiKey } });
    expect(JSON.parse(stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ currency: 'USDC', available: '250.000000' })]));
  });
});
