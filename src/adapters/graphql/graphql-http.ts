import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import type { ApolloArmor } from '@escape.tech/graphql-armor';
import type { Request, RequestHandler, Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { Application } from '../../core/application';
import type { BearerAccess } from '../access/bearer-access';
import type { ProxyTrust } from '../access/client-address';
import { httpAccessGate, principalOf } from '../access/http-gate';
import type { GraphqlContext, DepositUpdates, PaymentUpdates } from './graphql-context';
import { inputProblem } from '../contract/input-guards';
import { formatGraphqlError, graphqlError } from './graphql-errors';
import { MAX_TOKENS } from './graphql-ws.server';
import { noNulStrings } from './no-nul-strings.rule';
import { mutationBudgetPlugin } from './mutation-budget.plugin';
import type { RateLimits } from '../access/rate-limits';

/** What GraphQL over HTTP needs. */
export interface GraphqlHttpDeps {
  readonly schema: GraphQLSchema;
  readonly app: Application;
  readonly updates: PaymentUpdates;
  readonly depositUpdates: DepositUpdates;
  readonly protection: ReturnType<ApolloArmor['protect']>;
  readonly introspection: boolean;
  readonly development: boolean;
  /** The per-key budget: each mutation field beyond the first draws one more point. */
  readonly rateLimits: RateLimits;
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

/** Asking for a persisted query is the client's mistake: 400, as for any document refused (Apollo says 200). */
const persistedQueriesRefused: ApolloServerPlugin<GraphqlContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response, errors }) {
        if (errors?.some((e) => e.extensions?.code === ApolloServerErrorCode.PERSISTED_QUERY_NOT_SUPPORTED)) response.http.status = 400;
      },
    };
  },
};

/**
 * Apollo Server 5 as an express 5 handler, to mount at /graphql after `graphqlAccessGate` (which
 * authenticates and rate-limits) and the JSON parser; graphql-armor's depth, cost,
 * alias and directive limits; graphql-js's token limit; NUL characters and over-deep JSON refused
 * (400 `validation_error`); subscriptions refused (WebSocket only); no batched operations;
 * introspection only when allowed; no landing page (it would load from a CDN); every error through
 * formatGraphqlError.
 */
export function graphqlHttpHandler(deps: GraphqlHttpDeps): RequestHandler {
  const server = new ApolloServer<GraphqlContext>({
    schema: deps.schema,
    plugins: [...deps.protection.plugins, ApolloServerPluginLandingPageDisabled(), noSubscriptionsOverHttp, persistedQueriesRefused, mutationBudgetPlugin(deps.rateLimits)],
    // Automatic persisted queries are off: a server-side cache any caller can fill buys nothing for
    // an API whose clients send their documents (docs/decisions.md § GraphQL). A request that asks
    // for one is answered `persisted_query_not_supported`, with Apollo's message, so APQ clients fall back.
    persistedQueries: false,
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

/**
 * Authenticates and counts a GraphQL request before its body is read, like every REST route
 * (docs/decisions.md § GraphQL): a key that belongs to a tenant is required. Refusals are GraphQL
 * errors with the HTTP status: 401 `unauthorized`, 403 `forbidden`, 429 `rate_limited` (with
 * `Retry-After`). Mount it before the JSON parser and `graphqlHttpHandler`.
 */
export function graphqlAccessGate(access: BearerAccess, trust: ProxyTrust): RequestHandler {
  return httpAccessGate(access, trust, 'tenant', (res, status, code, message) => {
    res.status(status).json({ errors: [{ message, extensions: { code } }] });
  });
}

async function httpContext(deps: GraphqlHttpDeps, req: Request, res: Response): Promise<GraphqlContext> {
  const principal = principalOf(res);
  // graphqlAccessGate runs first on every mount; without it this handler refuses rather than serve anonymously.
  if (!principal?.tenantId) throw graphqlError('unauthorized', 'Authorization: Bearer <API_KEY> header is required', undefined, 401);
  const problem = inputProblem(req.body) ?? inputProblem(req.query);
  if (problem) throw graphqlError('validation_error', `The request ${problem}`, undefined, 400);
  return { app: deps.app, principal, tenantId: principal.tenantId, updates: deps.updates, depositUpdates: deps.depositUpdates };
}
