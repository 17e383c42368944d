import type { Server } from 'node:http';
import {
  getOperationAST, GraphQLError, NoSchemaIntrospectionCustomRule, parse, specifiedRules, validate,
  type DocumentNode, type ExecutionResult, type FormattedExecutionResult, type GraphQLSchema, type ValidationRule,
} from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Application } from '../../core/application';
import { inputProblem } from '../http/input-guards';
import type { RateLimits } from '../http/rate-limit';
import type { GraphqlContext, PaymentUpdates } from './graphql-context';
import { graphqlError } from './graphql-errors';
import type { KeySockets } from './key-sockets';
import { noNulStrings } from './no-nul-strings.rule';
import { subscriptionProblems } from './subscription-checks';
import type { SubscriptionGroups } from './subscription-groups';

/** Path of GraphQL over HTTP and over WebSocket (DESIGN.md 12). */
export const GRAPHQL_PATH = '/graphql';
const MAX_MESSAGE_BYTES = 64 * 1024;
const MAX_SUBSCRIPTIONS_PER_SOCKET = 25;
/** Most tokens a GraphQL document may have, on both transports (parsing stops there: 400 on HTTP). */
export const MAX_TOKENS = 1000;
/** A subscriber this far behind is dropped rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** What the WebSocket transport needs. */
export interface GraphqlWsDeps {
  readonly schema: GraphQLSchema;
  readonly app: Application;
  readonly updates: PaymentUpdates;
  /** Shared execution per (tenant, operation, variables); absent: graphql-ws executes per subscriber. */
  readonly groups?: SubscriptionGroups;
  readonly sockets: KeySockets;
  /** graphql-armor's validation rules (depth, cost, aliases, directives), as on HTTP. */
  readonly validationRules: readonly ValidationRule[];
  readonly introspection: boolean;
  readonly development: boolean;
  readonly format: (result: ExecutionResult) => FormattedExecutionResult;
  readonly logger: Logger;
  /** The per-key budget HTTP uses: each connection and each subscription counts as one request. */
  readonly rateLimits?: RateLimits;
}

/**
 * graphql-ws (subprotocol graphql-transport-ws) on `server` at /graphql (issue 4, DESIGN.md 12).
 * `connection_init` must carry `{authorization: "<API key>"}` (a `Bearer ` prefix is accepted):
 * a missing, bad or revoked key closes the socket with 4401, a key without a tenant with 4403, a
 * key over its rate limit with 4429. Only subscriptions are served here (queries and mutations go
 * over HTTP); each counts against the key's rate limit (`rate_limited` error when spent), passes
 * the same validation rules as HTTP and runs through SubscriptionGroups.
 */
export function attachGraphqlWs(server: Server, deps: GraphqlWsDeps): { close(): Promise<void> } {
  const wss = new WebSocketServer({ server, path: GRAPHQL_PATH, maxPayload: MAX_MESSAGE_BYTES });
  const rules = [...specifiedRules, ...deps.validationRules, noNulStrings, ...(deps.introspection ? [] : [NoSchemaIntrospectionCustomRule])];
  const refuse = (code: 'validation_error' | 'unauthorized' | 'rate_limited', message: string) => [graphqlError(code, message)];

  refuseServerOnlyMessages(wss);
  const handle = useServer({
    schema: deps.schema,
    isProd: !deps.development,
    onConnect: async (ctx) => {
      const socket = ctx.extra.socket;
      try {
        const raw = ctx.connectionParams?.authorization;
        const key = typeof raw === 'string' ? raw.replace(/^Bearer\s+/i, '').trim() : '';
        const auth = key ? await deps.app.authenticate(key) : undefined;
        // Closing here first picks the code; graphql-ws's own close (4403) on `false` is then a no-op.
        if (!auth?.ok) {
          socket.close(CloseCode.Unauthorized, 'Unauthorized: invalid or revoked API key');
          return false;
        }
        if (auth.value.tenantId === null) {
          socket.close(CloseCode.Forbidden, 'Forbidden: the key belongs to no tenant');
          return false;
        }
        const rate = await deps.rateLimits?.consume(auth.value);
        if (rate && !rate.allowed) {
          socket.close(CloseCode.TooManyInitialisationRequests, `Too many requests for this API key; retry after ${rate.retryAfterS} s`);
          return false;
        }
        // The client may have gone while this awaited: its close handler has run, so adding it now would leak.
        if (socket.readyState !== WebSocket.OPEN) return false;
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
      const rate = await deps.rateLimits?.consume(principal);
      if (rate && !rate.allowed) return refuse('rate_limited', `Too many requests for this API key; retry after ${rate.retryAfterS} s`);
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
        app: deps.app, principal, tenantId: principal.tenantId, updates: deps.updates,
        delivery: { id, send: (message) => deliver(socket, message, deps.logger) },
      };
      return { schema: deps.schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue };
    },
    ...(deps.groups ? { subscribe: deps.groups.subscribe } : {}),
    // Results graphql-ws sends itself (immediate errors; every event without groups): same formatting.
    onNext: (_ctx, _id, _payload, _args, result) => deps.format(result),
    onClose: (ctx) => deps.sockets.remove(ctx.extra.socket),
  }, wss);

  return {
    async close() {
      deps.sockets.closeAll(1001, 'Going away');
      for (const client of wss.clients) client.terminate();
      await handle.dispose();
    },
  };
}

/** Message types only a server sends (graphql-transport-ws). */
const SERVER_ONLY_TYPES: ReadonlySet<unknown> = new Set(['connection_ack', 'next', 'error']);

/**
 * graphql-ws's server throws on a well-formed message of a server-only type (close 4500 and an
 * "internal error" log, at any client's will); the protocol's answer is 4400. Registered before
 * useServer, this connection listener runs first and wraps the message listener graphql-ws adds,
 * so such a message closes the socket with 4400 and never reaches graphql-ws.
 */
function refuseServerOnlyMessages(wss: WebSocketServer): void {
  wss.on('connection', (socket: WebSocket) => {
    const on = socket.on.bind(socket);
    socket.on = ((event: string, listener: (...args: any[]) => void) => {
      if (event !== 'message') return on(event, listener);
      return on('message', (data: RawData, isBinary: boolean) => {
        if (!isBinary && SERVER_ONLY_TYPES.has(typeOf(data))) return void socket.close(CloseCode.BadRequest, 'Invalid message: a type only the server sends');
        listener(data, isBinary);
      });
    }) as typeof socket.on;
  });
}

function typeOf(data: RawData): unknown {
  try {
    const message: unknown = JSON.parse(String(data));
    return message !== null && typeof message === 'object' ? (message as { type?: unknown }).type : undefined;
  } catch {
    return undefined;
  }
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
