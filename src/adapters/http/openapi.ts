import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { schemaForStatus } from './common.schema';
import type { RouteSpec } from './route';

/**
 * Builds the OpenAPI 3.1 document (version 0.5.0; docs/api.md) from the same route specs and
 * zod schemas that validate requests, so the document cannot drift from the code.
 */
export function buildOpenApiDocument(routes: readonly RouteSpec<any, any, any>[]): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const operation: ZodOpenApiOperationObject = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [...route.tags],
      security: route.auth === 'none' ? [] : [{ bearerAuth: [] }],
      requestParams: {
        ...(route.params ? { path: route.params as never } : {}),
        ...(route.query ? { query: route.query as never } : {}),
        ...(route.headers ? { header: route.headers } : {}),
      },
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
      responses: Object.fromEntries(
        Object.entries(route.responses).map(([status, r]) => [
          status,
          { description: r.description, ...(r.schema ? { content: { 'application/json': { schema: schemaForStatus(r.schema, status) } } } : {}) },
        ]),
      ),
    };
    paths[route.path] = { ...paths[route.path], [route.method]: operation };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Stablecoin-to-fiat payout gateway',
      version: '0.5.0',
      description: 'Quotes, recipient resolution, idempotent payouts, signed webhooks. Amounts are decimal strings unless typed number.',
    },
    tags: ['Health', 'FX', 'Payments', 'Balances', 'Analytics', 'Customers', 'Webhooks', 'Admin'].map((name) => ({ name })),
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key: sk_<sandbox|live>_...' } } },
    paths,
  });
}
