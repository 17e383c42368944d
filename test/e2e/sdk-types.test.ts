import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SDK_TYPES_FILE, servedOpenApiDocument } from '../../scripts/sdk-types';
import { ROOT } from '../support/child-process';
import { startTestService, type TestService } from '../support/test-service';

/**
 * The SDK's types are generated from the OpenAPI document the service serves; this fails while
 * the committed sdk/src/generated/openapi.ts is stale. Fix: `npm run sdk:generate` and commit.
 */
describe('SDK types versus the served OpenAPI document', () => {
  let service: TestService;
  let served: unknown;
  const dir = mkdtempSync(path.join(tmpdir(), 'sdk-types-'));
  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
    const res = await service.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    served = res.body;
  });
  afterAll(async () => {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sdk/src/generated/openapi.ts is what the generator makes of GET /openapi.json', async () => {
    const document = path.join(dir, 'openapi.json');
    const out = path.join(dir, 'openapi.ts');
    writeFileSync(document, JSON.stringify(served));
    await promisify(execFile)('npx', ['ts-node', '--transpile-only', 'scripts/generate-sdk-types.ts', '--document', document, '--out', out], { cwd: ROOT });
    expect(readFileSync(path.join(ROOT, SDK_TYPES_FILE), 'utf8')).toBe(readFileSync(out, 'utf8'));
  });

  it('npm run sdk:generate builds the served document without a database', () => {
    expect(servedOpenApiDocument()).toEqual(served);
  });
});
