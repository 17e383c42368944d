import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from 'zod-openapi';
import { z } from 'zod';
import { schemaForStatus } from './common.schema';
import { LinkHeader, RateLimitHeader, RateLimitPolicyHeader, RequestIdHeader, RetryAfterHeader } from './openapi-headers';
import { addExamples } from './openapi-examples';
import { OPENAPI_WEBHOOKS } from './openapi-webhooks';
import type { RouteResponse, RouteSpec } from './route';

/** The tags in the order an integrator reads them: paying out first, operators last. */
const TAGS: readonly { name: string; description: string }[] = [
  { name: 'Payments', description: 'Pay out: create a money-out (idempotent), follow it, list and filter your payments; resolve a recipient before paying; the legacy payout and transfer requests.' },
  { name: 'FX', description: 'Quote a fiat amount in a stablecoin, fees included. A quote can lock its rate for one money-out within 60 seconds.' },
  { name: 'Webhooks', description: 'Register HTTPS endpoints for signed event notifications (see the webhooks section for each event body), read the delivery log, redeliver.' },
  { name: 'Balances', description: "Your stablecoin balances (available, held, in transit) and the ledger transactions behind them." },
  { name: 'Deposits', description: 'Fund your balance onchain: your deposit address per chain and stablecoin, and the deposits sent to it (detected, credited once final, or dropped by a reorganisation).' },
  { name: 'Customers', description: 'Your wallet users and their KYC status; each decision emits customer.kyc.updated.' },
  { name: 'Analytics', description: 'Counts, volumes, success rate and time to success of your payments over a date range.' },
  { name: 'Health', description: 'Liveness and readiness for orchestrators, health for API clients, Prometheus metrics for operators.' },
  { name: 'Admin', description: 'Platform operators only (admin keys, or an operator session with the role each operation needs): tenants, their settings and keys, deposits, and driving sandbox payments.' },
  { name: 'Operators', description: 'The people who run the platform: sign-in (password and TOTP, or the identity provider), sessions, operator accounts and roles, and the audit log.' },
];

/**
 * Where to call: the instance that serves this document. Sandbox and live tenants share one
 * deployment and are told apart by the key (sk_sandbox_ / sk_live_), so there is one server.
 */
const SERVERS = [{ url: '/', description: 'The instance serving this document (sandbox or live is chosen by your API key)' }];

/** A 2xx answer of a list operation, whose next page is in the Link header. */
function isListPage(route: RouteSpec<any, any, any>, status: string): boolean {
  const query = route.query as unknown as { shape?: Record<string, unknown> } | undefined;
  return status.startsWith('2') && route.method === 'get' && query?.shape?.cursor !== undefined;
}

/** Who may call each kind of route: admin routes take an admin key or an operator session. */
const SECURITY: Readonly<Record<RouteSpec['auth'], Record<string, string[]>[]>> = {
  none: [], any: [{ bearerAuth: [] }], issuer: [{ bearerAuth: [] }], admin: [{ bearerAuth: [] }, { operatorSession: [] }], operator: [{ operatorSession: [] }],
};

/** The headers of one documented answer: those every answer has, then the route's own. */
function headersOf(route: RouteSpec<any, any, any>, status: string, response: RouteResponse): Record<string, z.ZodType> {
  return {
    'Request-Id': RequestIdHeader,
    // An unauthenticated answer has no key, so no budget to report.
    ...(route.auth !== 'none' && status !== '401' ? { 'RateLimit-Policy': RateLimitPolicyHeader, RateLimit: RateLimitHeader } : {}),
    ...(status === '429' ? { 'Retry-After': RetryAfterHeader } : {}),
    ...(isListPage(route, status) ? { Link: LinkHeader } : {}),
    ...response.headers,
  };
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Drops what zod adds that teaches nothing and makes generated examples absurd: the safe-integer
 * bounds of `.int()` (Swagger UI showed -9007199254740991) and the date-time regex (it showed
 * 4312-02-29); `format: date-time` already says it, and an example date is given instead.
 */
function tidy({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void {
  if (jsonSchema.minimum === -MAX_SAFE) delete jsonSchema.minimum;
  if (jsonSchema.maximum === MAX_SAFE) delete jsonSchema.maximum;
  if (jsonSchema.format === 'date-time') {
    delete jsonSchema.pattern;
    if (jsonSchema.example === undefined) jsonSchema.example = '2026-11-23T09:41:07.512Z';
  }
}

/**
 * Builds the OpenAPI 3.1 document (version 0.5.0; docs/api.md) from the same route specs and
 * zod schemas that validate requests, so the document cannot drift from the code. Each error
 * response declares its shape narrowed to the codes of its status (schemaForStatus); every
 * response declares its headers; `webhooks` gives each event's body.
 */
export function buildOpenApiDocument(routes: readonly RouteSpec<any, any, any>[]): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const operation: ZodOpenApiOperationObject = {
      operationId: route.operationId,
      summary: route.summary,
      description: route.description,
      tags: [...route.tags],
      security: SECURITY[route.auth],
      requestParams: {
        ...(route.params ? { path: route.params as never } : {}),
        ...(route.query ? { query: route.query as never } : {}),
        ...(route.headers ? { header: route.headers } : {}),
      },
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
      responses: Object.fromEntries(
        Object.entries(route.responses).map(([status, r]): [string, ZodOpenApiResponseObject] => [
          status,
          {
            description: r.description,
            headers: z.object(headersOf(route, status, r)),
            ...(r.schema ? { content: { 'application/json': { schema: schemaForStatus(r.schema, status), ...(r.example === undefined ? {} : { example: r.example }) } } } : {}),
          },
        ]),
      ),
    };
    paths[route.path] = { ...paths[route.path], [route.method]: operation };
  }
  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Stablecoin-to-fiat payout gateway',
      version: '0.5.0',
      description: [
        'Pay local money (bank accounts, mobile-money wallets, paybills, tills) out of a stablecoin balance: quote, resolve the recipient, create an idempotent money-out, follow it by webhooks or reads.',
        '',
        'Conventions (docs/api.md): amounts in answers are decimal strings at their currency\'s scale ("1500.00" KES, "12.115764" USDC, "25000" UGX); times are ISO 8601 UTC; every call but the health probes needs `Authorization: Bearer sk_<sandbox|live>_...`; lists page with `limit` and the `Link` header; every error has a `code` to branch on, and validation errors list each refused field in `details.fields`.',
      ].join('\n'),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: SERVERS,
    tags: TAGS.map((t) => ({ ...t })),
    components: { securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key: sk_<sandbox|live>_ and 32-64 letters and digits, as issued to your tenant' },
      operatorSession: {
        type: 'apiKey', in: 'cookie', name: 'operator_session',
        description: 'An operator session (POST /v1/operator/sign-in or the identity provider), __Host-operator_session in production; every write also needs X-CSRF-Token',
      },
    } },
    paths,
    webhooks: OPENAPI_WEBHOOKS,
  }, { override: tidy as never });
  addExamples(document as unknown as Record<string, unknown>);
  return document;
}
