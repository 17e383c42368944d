/**
 * Writes the OpenAPI document exactly as `GET /openapi.json` serves it, pretty-printed, to the file
 * named on the command line (default test/fixtures/openapi-0.5.0.json), without a database: the
 * document depends only on the route specs, never on a handler. `npm run openapi:emit` rewrites the
 * committed fixture after an intended change (test/e2e/openapi-snapshot.test.ts holds it byte for
 * byte); `npm run lint:openapi` lints a freshly emitted copy with Redocly.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { allRoutes, type HttpAppDeps } from '../src/adapters/http/http-app';
import { buildOpenApiDocument } from '../src/adapters/http/openapi';
import { loadCatalog } from '../src/adapters/providers/catalog-file';

/** Stands in for a dependency: building the routes reads none of its members, only their handlers would. */
const unused = (known: Record<string, unknown> = {}) => new Proxy(known, {
  get: (target, name) => {
    if (typeof name === 'string' && name in target) return target[name];
    throw new Error(`emit-openapi: ${String(name)} read while documenting`);
  },
});
// The resolution bodies enumerate the catalog's bank codes, so the served document does too.
const app = unused({ catalog: loadCatalog(path.resolve(__dirname, '..', 'data', 'corridors.json')) });
const deps = {
  app, admin: unused(), probe: unused(), logger: unused(), access: unused(), trustProxy: unused(), metrics: unused(), operators: unused({ operators: unused(), queues: unused() }),
} as unknown as HttpAppDeps;

const target = path.resolve(process.cwd(), process.argv[2] ?? path.join(__dirname, '..', 'test', 'fixtures', 'openapi-0.5.0.json'));
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(allRoutes(deps)), null, 2)}\n`);
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
