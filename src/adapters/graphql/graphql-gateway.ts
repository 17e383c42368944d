import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { RequestHandler } from 'express';
import type { ExecutionResult, FormattedExecutionResult, GraphQLSchema } from 'graphql';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { Application } from '../../core/application';
import type { DepositView } from '../../core/deposits/deposit';
import type { PaymentView } from '../../core/payments/payment-view';
import type { BearerAccess } from '../access/bearer-access';
import { clientAddressOf, type ProxyTrust } from '../access/client-address';
import type { NotificationSubscriptions } from '../notifications/notification-listener';
import { PaymentEventFeed } from '../notifications/payment-event.feed';
import { DepositEventFeed, type DepositChanges } from '../notifications/deposit-event.feed';
import type { PaymentEventReader } from '../persistence/payment-event.repository';
import { TenantEventBus } from '../notifications/tenant-event.bus';
import { dashboardRouter } from './dashboard.router';
import { formatGraphqlError } from './graphql-errors';
import { graphqlAccessGate, graphqlHttpHandler } from './graphql-http';
import { graphqlSchema } from './graphql-schema';
import { attachGraphqlWs } from './graphql-ws.server';
import { KeySockets } from './key-sockets';
import { SubscriptionGroups } from './subscription-groups';

/** What the gateway needs from the composition root. */
export interface GraphqlGatewayDeps {
  readonly app: Application;
  /** Where the live feed reads the payment events committed since its last read. */
  readonly paymentEvents: PaymentEventReader;
  /** Where the deposit feed reads what changed while its connection was down. */
  readonly depositChanges: DepositChanges;
  /** The process's one LISTEN connection: the feed registers on it; the composition root starts and stops it. */
  readonly listener: NotificationSubscriptions;
  readonly nodeEnv: 'development' | 'test' | 'production';
  /** Authentication and per-key request limits, shared with REST. */
  readonly access: BearerAccess;
  /** Which proxies' X-Forwarded-For names the client (TRUST_PROXY). */
  readonly trustProxy: ProxyTrust;
  /** Most open graphql-ws connections per key in one process (WS_MAX_CONNECTIONS_PER_KEY). */
  readonly maxConnectionsPerKey: number;
  readonly logger: Logger;
  /**
   * Shared subscription execution (SubscriptionGroups), on by default. Off, each subscriber is
   * executed and serialised on its own (graphql-ws's default); kept for the benchmark's baseline.
   */
  readonly sharedSubscriptions?: boolean;
}

/**
 * Protections (docs/decisions.md § GraphQL), from graphql-armor, the same on HTTP and WebSocket. Limits are
 * far above what the schema's real queries need (deepest: payments.edges.node.field, depth 4).
 */
const ARMOR = new ApolloArmor({
  // Depth of the selection with fragments flattened: a named fragment is a way of writing, not a level.
  maxDepth: { n: 6, exposeLimits: true, flattenFragments: true },
  costLimit: { maxCost: 5000, exposeLimits: true },
  maxAliases: { n: 15, exposeLimits: true },
  maxDirectives: { n: 50, exposeLimits: true },
  // Off: armor re-parses in a plugin, and a syntax error thrown there became a 500. graphql-js's own
  // maxTokens (Apollo's parseOptions, graphql-ws's parse) refuses the same documents with a 400.
  maxTokens: { enabled: false },
  blockFieldSuggestion: { enabled: true },
});

/** A close code for revoked keys' sockets: graphql-ws's Unauthorized. */
const REVOKED_CLOSE = 4401;

/**
 * The GraphQL transport of one service instance (docs/decisions.md § GraphQL): Apollo over HTTP and
 * graphql-ws over WebSocket on the same schema, context and error formatting, plus the live
 * payment feed (PostgreSQL LISTEN/NOTIFY into a per-tenant bus) that subscriptions read.
 *
 * Lifecycle: the feed hears payments on the listener it is given; `attach(server)` adds graphql-ws
 * to a listening HTTP server (same port and path as HTTP); `closeRealtime()` closes every socket
 * (call it before `server.close()`, which otherwise waits for them); `stop()` does that and waits
 * for the feed to publish what it heard (stop the listener first).
 * `closeSocketsOfKey(keyId)` closes a revoked key's sockets; every replica calls it when the
 * `api_key_revoked` notification (sent by the admin revocation) arrives.
 */
export class GraphqlGateway {
  readonly schema: GraphQLSchema = graphqlSchema();
  readonly bus = new TenantEventBus<PaymentView>();
  readonly depositBus = new TenantEventBus<DepositView>();
  readonly sockets = new KeySockets();
  readonly groups: SubscriptionGroups;
  /** Express handler for /graphql (Apollo), after `gate` and the JSON parser. */
  readonly http: RequestHandler;
  /** Authenticates and rate-limits a /graphql request before its body is read. */
  readonly gate: RequestHandler;
  /** Express router for /dashboard. */
  readonly dashboard: RequestHandler = dashboardRouter();
  private readonly feed: PaymentEventFeed;
  private readonly depositFeed: DepositEventFeed;
  private readonly protection = ARMOR.protect();
  private readonly attached = new Set<{ close(): Promise<void> }>();

  constructor(private readonly deps: GraphqlGatewayDeps) {
    this.groups = new SubscriptionGroups((result) => this.format(result), deps.logger);
    this.feed = new PaymentEventFeed({ events: deps.paymentEvents, listener: deps.listener, bus: this.bus, logger: deps.logger });
    this.depositFeed = new DepositEventFeed({ changes: deps.depositChanges, listener: deps.listener, bus: this.depositBus, logger: deps.logger });
    this.http = graphqlHttpHandler({
      schema: this.schema, app: deps.app, updates: this.bus, depositUpdates: this.depositBus, protection: this.protection,
      introspection: deps.nodeEnv !== 'production', development: deps.nodeEnv === 'development',
      rateLimits: deps.access.rateLimits, logger: deps.logger,
    });
    this.gate = graphqlAccessGate(deps.access, deps.trustProxy);
  }

  /** Serves graphql-ws on `server` at /graphql. */
  attach(server: Server): void {
    this.attached.add(attachGraphqlWs(server, {
      schema: this.schema, app: this.deps.app, updates: this.bus, depositUpdates: this.depositBus, sockets: this.sockets,
      ...(this.deps.sharedSubscriptions === false ? {} : { groups: this.groups }),
      validationRules: this.protection.validationRules, introspection: this.deps.nodeEnv !== 'production',
      format: (result) => this.format(result), logger: this.deps.logger,
      access: this.deps.access, maxConnectionsPerKey: this.deps.maxConnectionsPerKey,
      addressOf: (request) => clientAddressOf(request, this.deps.trustProxy),
    }));
  }

  /** Closes every graphql-ws socket and server of this instance. */
  async closeRealtime(): Promise<void> {
    const handles = [...this.attached];
    this.attached.clear();
    await Promise.all(handles.map((h) => h.close()));
  }

  /** Closes the open sockets of `keyId` in this process (code 4401); returns how many there were. */
  closeSocketsOfKey(keyId: string): number {
    const closed = this.sockets.closeKey(keyId, REVOKED_CLOSE, 'Unauthorized: API key revoked');
    if (closed > 0) this.deps.logger.info({ keyId, closed }, 'closed the sockets of a revoked API key');
    return closed;
  }

  /** Takes the payment feed's first cursor (docs/decisions.md § GraphQL); call once the database is reachable. */
  async start(): Promise<void> {
    await this.feed.start();
  }

  /** Closes every socket, then stops the payment feed after the reads under way have published. */
  async stop(): Promise<void> {
    await this.closeRealtime();
    await this.feed.stop();
    await this.depositFeed.drain();
  }

  private format(result: ExecutionResult): FormattedExecutionResult {
    const development = this.deps.nodeEnv === 'development';
    const log = (error: unknown) => this.deps.logger.error({ err: error }, 'GraphQL subscription failed');
    return {
      ...(result.data !== undefined ? { data: result.data } : {}),
      ...(result.errors ? { errors: result.errors.map((e) => formatGraphqlError(e.toJSON(), e, development, log)) } : {}),
    };
  }
}
