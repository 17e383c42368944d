import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import type { ApolloArmor } from '@escape.tech/graphql-armor';
import type { Request, RequestHandler, Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { Application } from '../../core/application';
import type { RateLimits } from '../http/rate-limit';
import type { GraphqlContext, PaymentUpdates } from './graphql-context';
import { inputProblem } from '../http/input-guards';
import { formatGraphqlError, graphqlError } from './graphql-errors';
import { MAX_TOKENS } from './graphql-ws.server';
import { noNulStrings } from './no-nul-strings.rule';

/** What GraphQL over HTTP needs. */
export interface GraphqlHttpDeps {
  readonly schema: GraphQLSchema;
  readonly app: Application;
  readonly updates: PaymentUpdates;
  readonly protection: ReturnType<ApolloArmor['protect']>;
  readonly introspection: boolean;
  readonly development: boolean;
  /** REST's per-key limits; a GraphQL request counts as one request. None when absent. */
  readonly rateLimits?: RateLimits;
  readonly logger: Logger;
}

/** Subscriptions are served over WebSocket only; over HTTP one is a 400 `validation_error`, not an empty result. */
const noSubscriptionsOverHttp: ApolloServerPlugin<GraphqlContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation }) {
        if (operation?.operation === 'subscription') {
          throw graphqlError('validation_error', 'Subscriptions are served over WebSocket (graphql-transport-ws) at /graphql', undefined, 400);
        }
      },
    };
  },
};

/**
 * Apollo Server 5 as an express 5 handler, to mount at /graphql (issue 4). Authentication by the
 * `Authorization: Bearer <key>` header (401 `unauthorized`, 403 `forbidden` for a key without a
 * tenant, 429 `rate_limited`, each as a GraphQL error with that code); graphql-armor's depth, cost,
 * alias and directive limits; graphql-js's token limit; NUL characters and over-deep JSON refused
 * (400 `validation_error`); subscriptions refused (WebSocket only); no batched operations;
 * introspection only when allowed; no landing page (it would load from a CDN); every error through
 * formatGraphqlError.
 */
export function graphqlHttpHandler(deps: GraphqlHttpDeps): RequestHandler {
  const server = new ApolloServer<GraphqlContext>({
    schema: deps.schema,
    plugins: [...deps.protection.plugins, ApolloServerPluginLandingPageDisabled(), noSubscriptionsOverHttp],
    parseOptions: { maxTokens: MAX_TOKENS },
    validationRules: [...deps.protection.validationRules, noNulStrings],
    allowBatchedHttpRequests: false,
    introspection: deps.introspection,
    includeStacktraceInErrorResponses: deps.development,
    formatError: (formatted, error) =>
      formatGraphqlError(formatted, error, deps.development, (e) => deps.logger.error({ err: e }, 'GraphQL operation failed')),
  });
  // Requests wait for the start; a start failure is logged and fails requests, never the process.
  server.startInBackgroundHandlingStartupErrorsByLoggingAndFailingAllRequests();
  return expressMiddleware(server, { context: ({ req, res }) => httpContext(deps, req, res) });
}

async function httpContext(deps: GraphqlHttpDeps, req: Request, res: Response): Promise<GraphqlContext> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
  if (!match?.[1]) throw graphqlError('unauthorized', 'Authorization: Bearer <API_KEY> header is required', undefined, 401);
  const auth = await deps.app.authenticate(match[1]);
  if (!auth.ok) throw graphqlError('unauthorized', auth.message, undefined, 401);
  const principal = auth.value;
  if (principal.tenantId === null) throw graphqlError('forbidden', 'GraphQL needs an issuer key that belongs to a tenant', undefined, 403);
  const problem = inputProblem(req.body) ?? inputProblem(req.query);
  if (problem) throw graphqlError('validation_error', `The request ${problem}`, undefined, 400);
  if (deps.rateLimits && !(await deps.rateLimits.allow(principal, res))) {
    throw graphqlError('rate_limited', 'Too many requests for this API key; retry after the Retry-After delay', undefined, 429);
  }
  return { app: deps.app, principal, tenantId: principal.tenantId, updates: deps.updates };
}
