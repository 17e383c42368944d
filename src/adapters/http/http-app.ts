import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import helmet from 'helmet';
import swaggerUi from 'swagger-ui-express';
import type { z } from 'zod';
import type { Application } from '../../core/application';
import { authorize } from './auth.middleware';
import { fxRoutes } from './fx.routes';
import { healthRoutes, type HealthProbe } from './health.routes';
import { sendShapeA } from './http-errors';
import { buildOpenApiDocument } from './openapi';
import { paymentRoutes } from './payment.routes';
import { webhookRoutes } from './webhook.routes';
import { balanceRoutes } from './balance.routes';
import { adminRoutes } from './admin.routes';
import { legacyPayoutRoutes } from './legacy-payout.routes';
import { analyticsRoutes } from './analytics.routes';
import { customerRoutes } from './customer.routes';
import { transferRequestRoutes } from './transfer-request.routes';
import { resolutionRoutes } from './resolution.routes';
import type { AdminApplication } from '../../core/admin/admin-application';
import { expressPath, defineRoute, type RouteSpec } from './route';
import type { Metrics } from './metrics';
import type { RateLimits } from './rate-limit';
import { inputProblem } from './input-guards';

/** What the REST transport needs: the core's use cases, a readiness probe and a logger. */
export interface HttpAppDeps {
  readonly app: Application;
  readonly admin: AdminApplication;
  readonly probe: HealthProbe;
  readonly logger: Logger;
  /** Largest accepted JSON body, e.g. '1mb'. */
  readonly bodyLimit?: string;
  /** Per-key request limits; none when absent. */
  readonly rateLimits?: RateLimits;
  /** Prometheus metrics, served at /metrics to admin keys; none when absent. */
  readonly metrics?: Metrics;
  /** GraphQL over HTTP at /graphql and the live dashboard at /dashboard (issue 4); none when absent. */
  readonly graphql?: { readonly http: RequestHandler; readonly dashboard: RequestHandler };
}

/** Every REST operation of the service; OpenAPI is generated from exactly this list. */
export function allRoutes(deps: HttpAppDeps): RouteSpec<any, any, any>[] {
  const metrics = deps.metrics ? [metricsRoute(deps.metrics)] : [];
  return [...metrics, ...healthRoutes(deps.probe), ...fxRoutes(deps.app), ...paymentRoutes(deps.app), ...legacyPayoutRoutes(deps.app), ...transferRequestRoutes(deps.app), ...resolutionRoutes(deps.app), ...webhookRoutes(deps.app), ...balanceRoutes(deps.app), ...analyticsRoutes(deps.app), ...customerRoutes(deps.app), ...adminRoutes(deps.admin)];
}

/**
 * The express 5 application (interface parts 4, 5, 7): routes with zod validation and bearer
 * authentication, `/openapi.json`, `/docs`, and shape A for every error no route handled, so no
 * input produces a 500 (malformed JSON, oversized bodies, bad paths, unknown routes).
 */
export function createHttpApp(deps: HttpAppDeps): Express {
  const routes = allRoutes(deps);
  const document = buildOpenApiDocument(routes);
  const app = express();
  app.disable('x-powered-by');
  // Security headers; no CSP here: the API serves JSON, and /docs needs swagger-ui's inline bootstrap.
  app.use(helmet({ contentSecurityPolicy: false }));
  app.set('etag', false);
  app.use(express.json({ limit: deps.bodyLimit ?? '1mb', type: ['application/json', 'application/*+json'] }));
  app.use(accessLog(deps.logger));

  for (const route of routes) {
    const handlers = [...(deps.metrics ? [deps.metrics.observe(route.path)] : []), handlerFor(deps, route)];
    app[route.method](expressPath(route.path), ...handlers);
  }
  app.get('/openapi.json', (_req, res) => void res.json(document));
  app.use('/docs', swaggerUi.serve, swaggerUi.setup(document, { customSiteTitle: 'Payout gateway API 0.5.0' }));
  if (deps.graphql) {
    app.use('/graphql', deps.graphql.http);
    app.use('/dashboard', deps.graphql.dashboard);
  }

  app.use((req, res) => sendShapeA(res, 'not_found', `No route for ${req.method} ${req.path}`));
  app.use(errorHandler(deps.logger));
  return app;
}

function handlerFor(deps: HttpAppDeps, route: RouteSpec<any, any, any>): RequestHandler {
  return async (req, res) => {
    const auth = await authorize(deps.app.authenticate, route.auth, req, res);
    if (!auth.passed) return;
    if (auth.principal && deps.rateLimits && !(await deps.rateLimits.allow(auth.principal, res))) {
      return sendShapeA(res, 'rate_limited', 'Too many requests for this API key; retry after the Retry-After delay');
    }
    const params = parse(route.params, req.params, 'path', res);
    if (params === INVALID) return;
    const query = parse(route.query, req.query, 'query', res);
    if (query === INVALID) return;
    const body = parse(route.body, req.body, 'body', res);
    if (body === INVALID) return;
    await route.handler({ body, query, params, principal: auth.principal, tenantId: auth.principal?.tenantId ?? '', raw: req }, res);
  };
}

const INVALID = Symbol('invalid');

function parse(schema: z.ZodType | undefined, input: unknown, where: string, res: Response): unknown {
  const problem = inputProblem(input);
  if (problem) {
    sendShapeA(res, 'validation_error', `Invalid request: ${where} ${problem}`);
    return INVALID;
  }
  if (!schema) return undefined;
  const result = schema.safeParse(input ?? (where === 'body' ? undefined : {}));
  if (result.success) return result.data;
  const detail = result.error.issues
    .slice(0, 5)
    .map((issue) => `${[where, ...issue.path.map(String)].join('.')}: ${issue.message}`)
    .join('; ');
  sendShapeA(res, 'validation_error', where === 'body' && input === undefined ? 'Invalid request: a JSON object body is required' : `Invalid request: ${detail}`);
  return INVALID;
}

function accessLog(logger: Logger): RequestHandler {
  return (req: Request, res: Response, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}

/** Maps body-parser and routing faults to shape A; anything else is a bug: 500, logged, never leaked. */
function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const type: unknown = error?.type;
    if (res.headersSent) return void logger.error({ err: error, path: req.path }, 'error after response started');
    if (type === 'entity.too.large') return sendShapeA(res, 'payload_too_large', 'Request body is too large');
    if (type === 'entity.parse.failed') return sendShapeA(res, 'validation_error', 'Request body is not valid JSON');
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      return sendShapeA(res, 'unsupported_media_type', 'Unsupported body encoding or charset');
    }
    const status = Number(error?.status ?? error?.statusCode);
    if (status >= 400 && status < 500) return sendShapeA(res, 'validation_error', 'Malformed request');
    logger.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
    sendShapeA(res, 'internal_error', 'Internal error');
  };
}

/** GET /metrics in Prometheus text format; admin keys only (volumes are business data). */
function metricsRoute(metrics: Metrics): RouteSpec<any, any, any> {
  return defineRoute({
    method: 'get', path: '/metrics', operationId: 'metrics', tags: ['Health'], auth: 'admin',
    summary: 'Prometheus metrics: HTTP latency per route, payment transitions, webhook deliveries, queue depth',
    responses: { '200': { description: 'Prometheus text exposition format' } },
    handler: async (_req, res) => {
      res.set('Content-Type', metrics.registry.contentType).send(await metrics.registry.metrics());
    },
  });
}
