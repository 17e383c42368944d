import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestService, type TestService } from '../support/test-service';

/**
 * The OpenAPI document is generated from the request schemas of src/adapters/contract and the
 * route specs of src/adapters/http; moving schemas between modules must not change one byte of
 * it. test/fixtures/openapi-0.5.0.json is the document as served, pretty-printed for review:
 * when a change to the document is intended, rewrite the fixture and let its diff show it.
 */
describe('GET /openapi.json', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
  });
  afterAll(() => service.close());

  it('serves exactly the committed document, byte for byte', async () => {
    const res = await service.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const committed = readFileSync(path.resolve(__dirname, '../fixtures/openapi-0.5.0.json'), 'utf8');
    // Express serialises with JSON.stringify and no spacing; the fixture, parsed and serialised
    // the same way, is those bytes (key order survives the round trip).
    expect(res.text).toBe(JSON.stringify(JSON.parse(committed)));
  });
});
