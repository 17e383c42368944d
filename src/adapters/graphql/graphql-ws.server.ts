import type { IncomingMessage, Server } from 'node:http';
import {
  getOperationAST, GraphQLError, NoSchemaIntrospectionCustomRule, parse, specifiedRules, validate,
  type DocumentNode, type ExecutionResult, type FormattedExecutionResult, type GraphQLSchema, type ValidationRule,
} from 'graphql';
import type { Logger } from 'pino';
import { WebSocket, WebSocketServer } from 'ws';
import type { Application } from '../../core/application';
import { ACCESS_REFUSALS, type BearerAccess } from '../access/bearer-access';
import { rateLimitedMessage } from '../access/rate-limits';
import { inputProblem } from '../contract/input-guards';
import { bindGraphqlWs } from './graphql-ws.binding';
import type { GraphqlContext, DepositUpdates, PaymentUpdates } from './graphql-context';
import { graphqlError } from './graphql-errors';
import type { KeySockets } from './key-sockets';
import { noNulStrings } from './no-nul-strings.rule';
import { subscriptionProblems } from './subscription-checks';
import type { SubscriptionGroups } from './subscription-groups';

/** Path of GraphQL over HTTP and over WebSocket (docs/decisions.md § GraphQL). */
export const GRAPHQL_PATH = '/graphql';
const MAX_MESSAGE_BYTES = 64 * 1024;
const MAX_SUBSCRIPTIONS_PER_SOCKET = 25;
/** Most tokens a GraphQL document may have, on both transports (parsing stops there: 400 on HTTP). */
export const MAX_TOKENS = 1000;
/** A subscriber this far behind is dropped rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/**
 * Close code of a connection_init over the key's cap of open connections (WS_MAX_CONNECTIONS_PER_KEY,
 * docs/decisions.md § GraphQL): graphql-ws gives 4400-4504 meanings of its own and 4429 already means
 * a spent request budget here, so the cap has a code no library uses.
 */
export const TOO_MANY_CONNECTIONS_CLOSE = 4420;
/** A spent request budget closes a new connection like a throttled address: `rate_limited`'s close code. */
const RATE_LIMITED_CLOSE = ACCESS_REFUSALS.auth_throttled.closeCode;

/** What the WebSocket transport needs. */
export interface GraphqlWsDeps {
  readonly schema: GraphQLSchema;
  readonly app: Application;
  readonly updates: PaymentUpdates;
  readonly depositUpdates: DepositUpdates;
  /** Shared execution per (tenant, operation, variables); absent: graphql-ws executes per subscriber. */
  readonly groups?: SubscriptionGroups;
  readonly sockets: KeySockets;
  /** graphql-armor's validation rules (depth, cost, aliases, directives), as on HTTP. */
  readonly validationRules: readonly ValidationRule[];
  readonly introspection: boolean;
  readonly format: (result: ExecutionResult) => FormattedExecutionResult;
  readonly logger: Logger;
  /** Authentication and the per-key budget HTTP uses: each connection and each subscription counts as one request. */
  readonly access: BearerAccess;
  /** The client's address of an upgrade request (TRUST_PROXY applied). */
  readonly addressOf: (request: IncomingMessage) => string;
  /** Most open connections per key in this process; one more is closed with TOO_MANY_CONNECTIONS_CLOSE. */
  readonly maxConnectionsPerKey: number;
}

/**
 * graphql-ws (subprotocol graphql-transport-ws) on `server` at /graphql (docs/decisions.md §
 * GraphQL). `connection_init` must carry `{authorization: "<API key>"}` (a `Bearer ` prefix is
 * accepted) and is authenticated like HTTP (BearerAccess): a missing, bad or revoked key closes the
 * socket with 4401, a key without a tenant with 4403, a key over its rate limit or an address over
 * its failed-authentication budget with 4429, a key with `maxConnectionsPerKey` connections already
 * open in this process with 4420. Only subscriptions are served here (queries and mutations go over
 * HTTP); each counts against the key's rate limit (`rate_limited` error when spent), passes
 * the same validation rules as HTTP and runs through SubscriptionGroups.
 */
export function attachGraphqlWs(server: Server, deps: GraphqlWsDeps): { close(): Promise<void> } {
  const wss = new WebSocketServer({ server, path: GRAPHQL_PATH, maxPayload: MAX_MESSAGE_BYTES });
  const rules = [...specifiedRules, ...deps.validationRules, noNulStrings, ...(deps.introspection ? [] : [NoSchemaIntrospectionCustomRule])];
  const refuse = (code: 'validation_error' | 'unauthorized' | 'rate_limited', message: string) => [graphqlError(code, message)];

  const handle = bindGraphqlWs(wss, {
    schema: deps.schema,
    onConnect: async (ctx) => {
      const socket = ctx.extra.socket;
      try {
        const auth = await deps.access.authenticateBearer({ connectionParam: ctx.connectionParams?.authorization }, ctx.extra.clientAddress, 'tenant');
        // Closing here first picks the code; graphql-ws's own close (4403) on `false` is then a no-op.
        if (!auth.ok) {
          socket.close(ACCESS_REFUSALS[auth.code].closeCode, closeReason(auth.code, auth.message));
          return false;
        }
        const rate = await deps.access.rateLimits.consume(auth.value);
        if (!rate.allowed) {
          socket.close(RATE_LIMITED_CLOSE, rateLimitedMessage(rate));
          return false;
        }
        // The client may have gone while this awaited: its close handler has run, so adding it now would leak.
        if (socket.readyState !== WebSocket.OPEN) return false;
        // No await between this check and the add: concurrent connection_inits cannot both pass it.
        if (deps.sockets.countOf(auth.value.keyId) >= deps.maxConnectionsPerKey) {
          socket.close(TOO_MANY_CONNECTIONS_CLOSE, `Too many open connections for this API key (at most ${deps.maxConnectionsPerKey})`);
          return false;
        }
        deps.sockets.add(auth.value, socket);
        return true;
      } catch (error) {
        deps.logger.error({ err: error }, 'GraphQL WebSocket authentication failed');
        socket.close(1011, 'Internal error');
        return false;
      }
    },
    onSubscribe: async (ctx, id, payload) => {
      const socket = ctx.extra.socket;
      const principal = deps.sockets.principalOf(socket);
      if (!principal?.tenantId) return refuse('unauthorized', 'Not authenticated');
      if (Object.keys(ctx.subscriptions).length > MAX_SUBSCRIPTIONS_PER_SOCKET) {
        return refuse('rate_limited', `At most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions per connection`);
      }
      const rate = await deps.access.rateLimits.consume(principal);
      if (!rate.allowed) return refuse('rate_limited', rateLimitedMessage(rate));
      const problem = inputProblem(payload.variables);
      if (problem) return refuse('validation_error', `Variables ${problem}`);
      let document: DocumentNode;
      try {
        document = parse(payload.query, { maxTokens: MAX_TOKENS });
      } catch (error) {
        return refuse('validation_error', error instanceof Error ? error.message : 'Syntax error');
      }
      const operation = getOperationAST(document, payload.operationName);
      if (!operation) return refuse('validation_error', 'Unable to identify the operation');
      if (operation.operation !== 'subscription') {
        return refuse('validation_error', 'Only subscriptions are served over WebSocket; send queries and mutations to POST /graphql');
      }
      // Before validation: graphql-armor's rules evaluate @skip/@include without variables and throw.
      const problems = subscriptionProblems(deps.schema, document, operation, payload.variables);
      if (problems) return problems;
      let errors: readonly GraphQLError[];
      try {
        errors = validate(deps.schema, document, rules);
      } catch (error) {
        return refuse('validation_error', error instanceof Error ? error.message : 'Invalid document');
      }
      if (errors.length > 0) return errors.map((e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'validation_error' } }));
      const contextValue: GraphqlContext = {
        app: deps.app, principal, tenantId: principal.tenantId, updates: deps.updates, depositUpdates: deps.depositUpdates,
        delivery: { id, send: (message) => deliver(socket, message, deps.logger) },
      };
      return { schema: deps.schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue };
    },
    ...(deps.groups ? { subscribe: deps.groups.subscribe } : {}),
    // Results graphql-ws sends itself (immediate errors; every event without groups): same formatting.
    onNext: (_ctx, _id, _payload, _args, result) => deps.format(result),
    onClose: (ctx) => deps.sockets.remove(ctx.extra.socket),
  }, { logger: deps.logger, addressOf: deps.addressOf });

  return {
    async close() {
      deps.sockets.closeAll(1001, 'Going away');
      for (const client of wss.clients) client.terminate();
      await handle.dispose();
    },
  };
}

/** A close reason for a refused connection_init: the refusal's name and message, within the 123 bytes a close frame allows. */
function closeReason(code: keyof typeof ACCESS_REFUSALS, message: string): string {
  const title = { unauthorized: 'Unauthorized', forbidden: 'Forbidden', auth_throttled: 'Too many requests' }[code];
  return `${title}: ${message}`.slice(0, 120);
}

function deliver(socket: WebSocket, message: string, logger: Logger): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
    logger.warn({ buffered: socket.bufferedAmount }, 'GraphQL subscriber too slow: connection dropped');
    socket.terminate();
    return;
  }
  socket.send(message);
}
