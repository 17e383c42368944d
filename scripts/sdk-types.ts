/**
 * Where the SDK's generated types live and the OpenAPI document they are generated from
 * (docs/api.md). scripts/generate-sdk-types.ts renders them with openapi-typescript;
 * test/e2e/sdk-types.test.ts fails while the committed file is stale.
 */
import path from 'node:path';
import { allRoutes, type HttpAppDeps } from '../src/adapters/http/http-app';
import { buildOpenApiDocument } from '../src/adapters/http/openapi';
import { loadCatalog } from '../src/adapters/providers/catalog-file';

/** Where the generated types live, relative to the repository root. */
export const SDK_TYPES_FILE = 'sdk/src/generated/openapi.ts';

/**
 * The document the service serves at `GET /openapi.json`, built in this process from the same
 * route specs, with no database: defining the routes reads only the corridor catalog, and
 * `/metrics` is listed because the service always serves it.
 */
export function servedOpenApiDocument(root = path.resolve(__dirname, '..')): unknown {
  const catalog = loadCatalog(path.join(root, 'data/corridors.json'));
  // Only what the route definitions touch while the document is built; no handler runs here.
  // `operators` too: the service serves the operator routes (sign-in, accounts, queues, audit log).
  const deps = { app: { catalog }, metrics: {}, operators: { operators: {}, queues: {} } } as unknown as HttpAppDeps;
  return JSON.parse(JSON.stringify(buildOpenApiDocument(allRoutes(deps))));
}
