import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import type { ApolloArmor } from '@escape.tech/graphql-armor';
import type { Request, RequestHandler, Response } from 'express';
import type { GraphQLError, GraphQLFormattedError, GraphQLSchema } from 'graphql';
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
import { preparedQueryHandler } from './prepared-query.handler';
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
 * `Cache-Control: no-store` on every answer that has none, which is what Apollo's cache-control plugin wrote for this
 * schema (it has no cache hints). That plugin is off: its per-field hook made Apollo wrap every field's resolver.
 */
const noStore: ApolloServerPlugin<GraphqlContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (!response.http.headers.has('cache-control')) response.http.headers.set('cache-control', 'no-store');
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
  const validationRules = [...deps.protection.validationRules, noNulStrings];
  const formatError = (formatted: GraphQLFormattedError, error: unknown) =>
    formatGraphqlError(formatted, error, deps.development, (e) => deps.logger.error({ err: e }, 'GraphQL operation failed'));
  const server = new ApolloServer<GraphqlContext>({
    schema: deps.schema,
    plugins: [...deps.protection.plugins, ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled(), noStore, noSubscriptionsOverHttp, persistedQueriesRefused, mutationBudgetPlugin(deps.rateLimits)],
    // Automatic persisted queries are off: a server-side cache any caller can fill buys nothing for
    // an API whose clients send their documents (docs/decisions.md § GraphQL). A request that asks
    // for one is answered `persisted_query_not_supported`, with Apollo's message, so APQ clients fall back.
    persistedQueries: false,
    parseOptions: { maxTokens: MAX_TOKENS },
    validationRules,
    allowBatchedHttpRequests: false,
    introspection: deps.introspection,
    includeStacktraceInErrorResponses: deps.development,
    formatError,
  });
  // Requests wait for the start; a start failure is logged and fails requests, never the process.
  server.startInBackgroundHandlingStartupErrorsByLoggingAndFailingAllRequests();
  const apollo = expressMiddleware(server, { context: async ({ req, res }) => httpContext(deps, req, res) });
  // Queries already validated skip Apollo's pipeline and answer as it does (docs/decisions.md § Performance).
  return preparedQueryHandler({
    schema: deps.schema, validationRules, maxTokens: MAX_TOKENS, context: (req, res) => httpContext(deps, req, res),
    encounterErrors: (errors) => encounterErrors(deps.protection.plugins, errors), formatError, development: deps.development,
  }, apollo);
}

/** Runs the protection plugins' `didEncounterErrors` hooks (armor masks field suggestions in messages) on `errors`. */
async function encounterErrors(plugins: readonly ApolloServerPlugin[], errors: readonly GraphQLError[]): Promise<void> {
  for (const plugin of plugins) {
    // Armor's hooks read nothing of the request context but `errors`; this path has no Apollo context to give.
    const listener = await plugin.requestDidStart?.({} as never);
    await listener?.didEncounterErrors?.({ errors } as never);
  }
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

/** The request's context; throws its refusal (a GraphQLError with the HTTP status). */
function httpContext(deps: GraphqlHttpDeps, req: Request, res: Response): GraphqlContext {
  const principal = principalOf(res);
  // graphqlAccessGate runs first on every mount; without it this handler refuses rather than serve anonymously.
  if (!principal?.tenantId) throw graphqlError('unauthorized', 'Authorization: Bearer <API_KEY> header is required', undefined, 401);
  // express parses the query string again on every read of req.query: a URL without one has none to check.
  const problem = inputProblem(req.body) ?? (req.url.includes('?') ? inputProblem(req.query) : undefined);
  if (problem) throw graphqlError('validation_error', `The request ${problem}`, undefined, 400);
  return { app: deps.app, principal, tenantId: principal.tenantId, updates: deps.updates, depositUpdates: deps.depositUpdates };
}
