import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import helmet from 'helmet';
import swaggerUi from 'swagger-ui-express';
import type { z } from 'zod';
import type { Application } from '../../core/application';
import { httpAccessGate, principalOf } from '../access/http-gate';
import type { AccessNeed } from '../access/bearer-access';
import { fxRoutes } from './fx.routes';
import { healthRoutes, type HealthProbe } from './health.routes';
import { AUTH_ERRORS } from './common.schema';
import { responseRequestId, sendShapeA, type FieldProblem, type InputPart } from './http-errors';
import { buildOpenApiDocument } from './openapi';
import { paymentRoutes } from './payment.routes';
import { webhookRoutes } from './webhook.routes';
import { balanceRoutes } from './balance.routes';
import { tenantRefundRoutes } from './tenant-refund.routes';
import { depositRoutes } from './deposit.routes';
import { adminRoutes } from './admin.routes';
import { legacyPayoutRoutes } from './legacy-payout.routes';
import { analyticsRoutes } from './analytics.routes';
import { customerRoutes } from './customer.routes';
import { transferRequestRoutes } from './transfer-request.routes';
import { resolutionRoutes } from './resolution.routes';
import { corridorRoutes } from './corridor.routes';
import type { AdminApplication } from '../../core/admin/admin-application';
import { expressPath, defineRoute, type RouteAuth, type RouteSpec } from './route';
import type { Metrics } from './metrics';
import type { BearerAccess } from '../access/bearer-access';
import type { ProxyTrust } from '../access/client-address';
import type { AddressRateLimits } from '../access/rate-limits';
import { loggedUrl, requestLog } from './request-log';
import { inputProblem } from '../contract/input-guards';
import { providerCallbackRouter, type CallbackEndpoint } from './provider-callback.routes';
import { auditActorOf, sessionGate, type OperatorHttp } from './operator-gate';
import { operatorRoutes } from './operator.routes';
import { operatorAdminRoutes } from './operator-admin.routes';
import { operatorConsoleRouter } from './console.router';
import { auditContexts } from '../access/audit-context';
import { plainJsonBody, plainLimitOf } from './plain-json-body.reader';

/** What the REST transport needs: the core's use cases, a readiness probe and a logger. */
export interface HttpAppDeps {
  readonly app: Application;
  readonly admin: AdminApplication;
  readonly probe: HealthProbe;
  readonly logger: Logger;
  /** Largest accepted JSON body, e.g. '1mb'. */
  readonly bodyLimit?: string;
  /** Authentication, the failed-authentication throttle and per-key request limits. */
  readonly access: BearerAccess;
  /** Which proxies' X-Forwarded-For names the client (TRUST_PROXY). */
  readonly trustProxy: ProxyTrust;
  /** Prometheus metrics, served at /metrics to admin keys; none when absent. */
  readonly metrics?: Metrics;
  /**
   * GraphQL over HTTP at /graphql and the live dashboard at /dashboard; none when absent. `gate`
   * authenticates before the body is read, `http` serves the parsed request.
   */
  readonly graphql?: { readonly gate: RequestHandler; readonly http: RequestHandler; readonly dashboard: RequestHandler };
  /**
   * Payout provider callbacks (built in src/app from the configured providers), outside tenant
   * auth, with their per-address request limit; none when absent.
   */
  readonly callbacks?: { readonly endpoints: readonly CallbackEndpoint[]; readonly limits: AddressRateLimits };
  /** Operator sign-in and sessions (docs/decisions.md § Operators); without it admin routes take admin keys only. */
  readonly operators?: OperatorHttp;
  /** Browser routes mounted before the REST routes and outside OpenAPI (the OpenID Connect redirects). */
  readonly browserRoutes?: RequestHandler;
}

/** Every REST operation of the service; OpenAPI is generated from exactly this list. */
export function allRoutes(deps: HttpAppDeps): RouteSpec<any, any, any>[] {
  const metrics = deps.metrics ? [metricsRoute(deps.metrics)] : [];
  return [...metrics, ...healthRoutes(deps.probe), ...fxRoutes(deps.app), ...paymentRoutes(deps.app), ...tenantRefundRoutes(deps.app), ...legacyPayoutRoutes(deps.app), ...transferRequestRoutes(deps.app), ...resolutionRoutes(deps.app), ...corridorRoutes(deps.app), ...webhookRoutes(deps.app), ...balanceRoutes(deps.app), ...depositRoutes(deps.app), ...analyticsRoutes(deps.app), ...customerRoutes(deps.app), ...adminRoutes(deps.admin),
    ...(deps.operators ? [...operatorRoutes(deps.operators), ...operatorAdminRoutes(deps.operators.operators, deps.operators.queues)] : [])];
}

/**
 * The express 5 application (the operations of /openapi.json; docs/decisions.md § Authentication, tenants and keys and § Errors: shapes per route family): routes with zod validation and bearer
 * authentication, `/openapi.json`, `/docs`, and shape A for every error no route handled, so no
 * input produces a 500 (malformed JSON, oversized bodies, bad paths, unknown routes). Each route
 * authenticates and counts its request before its JSON body is read (docs/decisions.md § Rate
 * limits and abuse limits); every response carries `Request-Id` and is logged once.
 */
export function createHttpApp(deps: HttpAppDeps): Express {
  const routes = allRoutes(deps);
  const document = buildOpenApiDocument(routes);
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLog(deps.logger));
  // Security headers; no CSP here: the API serves JSON, and /docs needs swagger-ui's inline bootstrap.
  app.use(helmet({ contentSecurityPolicy: false }));
  app.set('etag', false);
  const json = express.json({ limit: deps.bodyLimit ?? '1mb', type: ['application/json', 'application/*+json'] });
  if (deps.callbacks && deps.callbacks.endpoints.length > 0) {
    app.use(providerCallbackRouter(deps.callbacks.endpoints, { trust: deps.trustProxy, limits: deps.callbacks.limits, logger: deps.logger }));
  }

  // Before the REST routes: express tries each route in order, and /graphql matches none of them.
  // GraphQL reads are small plain JSON bodies: read without body-parser's machinery (docs/decisions.md § Performance).
  if (deps.graphql) app.use('/graphql', deps.graphql.gate, plainJsonBody(plainLimitOf(deps.bodyLimit ?? '1mb'), json), deps.graphql.http);
  if (deps.browserRoutes) app.use(deps.browserRoutes);
  for (const route of routes) {
    const observe = deps.metrics ? [deps.metrics.observe(route.path)] : [];
    app[route.method](expressPath(route.path), ...observe, routeGate(deps, route), json, handlerFor(route));
  }
  app.get('/openapi.json', (_req, res) => void res.json(document));
  app.use('/docs', swaggerUi.serve, swaggerUi.setup(document, { customSiteTitle: 'Payout gateway API 0.5.0' }));
  if (deps.graphql) app.use('/dashboard', deps.graphql.dashboard);
  if (deps.operators) app.use('/console', operatorConsoleRouter({ oidc: deps.browserRoutes !== undefined }));

  app.use((req, res) => sendShapeA(res, 'not_found', `No route for ${req.method} ${req.path}`));
  app.use(errorHandler(deps.logger));
  return app;
}

const NEEDS: Readonly<Record<Exclude<RouteAuth, 'none' | 'operator'>, AccessNeed>> = { any: 'any', admin: 'admin', issuer: 'tenant' };

const NO_SESSIONS: RequestHandler = (_req, res) => sendShapeA(res, 'not_found', 'Operator sessions are not enabled on this service');

/**
 * Authenticates a route's caller before its body is read; a pass-through on unauthenticated routes.
 * Admin routes take an admin key (Authorization header) or, when no header is sent, an operator
 * session with the route's role (docs/decisions.md § Operators: sign-in, sessions, roles, audit log).
 */
function routeGate(deps: HttpAppDeps, route: RouteSpec<any, any, any>): RequestHandler {
  const need = route.auth;
  if (need === 'none') return (_req, _res, next) => next();
  const role = route.role ?? (route.method === 'get' || need === 'operator' ? 'viewer' : 'admin');
  const session = deps.operators ? sessionGate(deps.operators, role) : NO_SESSIONS;
  if (need === 'operator') return session;
  const bearer = httpAccessGate(deps.access, deps.trustProxy, NEEDS[need], (res, _status, code, message) => sendShapeA(res, code, message));
  if (need !== 'admin' || !deps.operators) return bearer;
  return (req, res, next) => (req.get('authorization') === undefined && /(^|;\s*)(__Host-)?operator_session=/.test(req.get('cookie') ?? '')
    ? session(req, res, next)
    : bearer(req, res, next));
}

/** Validates a route's path, query and body (already authenticated by accessGate) and runs it. */
function handlerFor(route: RouteSpec<any, any, any>): RequestHandler {
  return async (req, res) => {
    const principal = principalOf(res);
    const params = parse(route.params, req.params, 'path', res);
    if (params === INVALID) return;
    const query = parse(route.query, req.query, 'query', res);
    if (query === INVALID) return;
    const body = parse(route.body, req.body, 'body', res);
    if (body === INVALID) return;
    const parsed = { body, query, params, principal, tenantId: principal?.tenantId ?? '', raw: req };
    const actor = route.auth === 'admin' || route.auth === 'operator' ? auditActorOf(res) : undefined;
    // The audited admin use cases read who acts from here (docs/decisions.md § Operators: audit log).
    if (actor) await auditContexts.run({ actor, requestId: responseRequestId(res) || null }, () => route.handler(parsed, res));
    else await route.handler(parsed, res);
  };
}

const INVALID = Symbol('invalid');
/** Most refused fields listed in one validation error; the message names the first five. */
const MAX_FIELD_PROBLEMS = 20;

/**
 * `input` parsed by `schema`, or INVALID once a 400 `validation_error` has been sent with each
 * refused field in `details.fields` (docs/api.md § Errors).
 */
function parse(schema: z.ZodType | undefined, input: unknown, where: InputPart, res: Response): unknown {
  const problem = inputProblem(input);
  if (problem) {
    sendShapeA(res, 'validation_error', `Invalid request: ${where} ${problem}`, [{ path: where, message: problem }]);
    return INVALID;
  }
  if (!schema) return undefined;
  const result = schema.safeParse(input ?? (where === 'body' ? undefined : {}));
  if (result.success) return result.data;
  const fields: FieldProblem[] = result.error.issues.slice(0, MAX_FIELD_PROBLEMS).flatMap((issue) => {
    // An unknown member is reported once for the object holding it; list each one as its own field.
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
    return keys.map((key) => ({
      path: [where, ...issue.path.map(String), ...(key !== undefined ? [key] : [])].join('.'),
      message: key !== undefined ? 'Unknown field' : issue.message,
    }));
  });
  const detail = result.error.issues
    .slice(0, 5)
    .map((issue) => `${[where, ...issue.path.map(String)].join('.')}: ${issue.message}`)
    .join('; ');
  const bodyMissing = where === 'body' && input === undefined;
  sendShapeA(res, 'validation_error', bodyMissing ? 'Invalid request: a JSON object body is required' : `Invalid request: ${detail}`,
    bodyMissing ? [{ path: 'body', message: 'A JSON object body is required' }] : fields);
  return INVALID;
}

/** Maps body-parser and routing faults to shape A; anything else is a bug: 500, logged, never leaked. */
function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const type: unknown = error?.type;
    if (res.headersSent) return void logger.error({ err: error, requestId: res.locals.requestId, url: loggedUrl(req.originalUrl) }, 'error after response started');
    if (type === 'entity.too.large') return sendShapeA(res, 'payload_too_large', 'Request body is too large');
    if (type === 'entity.parse.failed') return sendShapeA(res, 'validation_error', 'Request body is not valid JSON', [{ path: 'body', message: 'Not valid JSON' }]);
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      return sendShapeA(res, 'unsupported_media_type', 'Unsupported body encoding or charset');
    }
    const status = Number(error?.status ?? error?.statusCode);
    if (status >= 400 && status < 500) return sendShapeA(res, 'validation_error', 'Malformed request');
    logger.error({ err: error, requestId: res.locals.requestId, method: req.method, url: loggedUrl(req.originalUrl) }, 'unhandled error');
    sendShapeA(res, 'internal_error', 'Internal error');
  };
}

/** GET /metrics in Prometheus text format; admin keys only (volumes are business data). */
function metricsRoute(metrics: Metrics): RouteSpec<any, any, any> {
  return defineRoute({
    method: 'get', path: '/metrics', operationId: 'metrics',
      description: 'Prometheus text exposition: request latency per route, payment transitions, webhook deliveries, queue depths. Admin keys only: volumes are business data.', tags: ['Health'], auth: 'admin',
    summary: 'Prometheus metrics: HTTP latency per route, payment transitions, webhook deliveries, queue depth',
    responses: {
      '200': { description: 'Prometheus text exposition format' },
      '401': AUTH_ERRORS['401'], '403': AUTH_ERRORS['403'], '429': AUTH_ERRORS['429'],
    },
    handler: async (_req, res) => {
      res.set('Content-Type', metrics.registry.contentType).send(await metrics.registry.metrics());
    },
  });
}
