import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchemaSync, type PubSub } from 'type-graphql';
import { AnalyticsResolver } from './analytics.resolver';
import { BalanceResolver } from './balance.resolver';
import { CustomerResolver } from './customer.resolver';
import { DepositResolver } from './deposit.resolver';
import { LegacyPayoutResolver } from './legacy-payout.resolver';
import { MeResolver } from './me.resolver';
import { NodeResolver } from './node.resolver';
import { OperationsResolver } from './operations.resolver';
import { PaymentRecipientResolver } from './payment-recipient.resolver';
import { PaymentRefundResolver } from './payment-refund.resolver';
import { PaymentUpdatedResolver } from './payment-updated.resolver';
import { PaymentResolver } from './payment.resolver';
import { QuoteResolver } from './quote.resolver';
import { ResolutionResolver } from './resolution.resolver';
import { CorridorResolver } from './corridor.resolver';
import { TransferRequestResolver } from './transfer-request.resolver';
import { WebhookResolver } from './webhook.resolver';

/** Where the committed SDL lives, relative to the repository root (docs/decisions.md § GraphQL). */
export const SCHEMA_FILE = 'schema/schema.graphql';

/**
 * Version of the GraphQL schema (semantic versioning: the major changes with every breaking
 * change, listed in CHANGELOG.md). Shown as the schema's description, so introspection reads it.
 */
export const GRAPHQL_SCHEMA_VERSION = '2.2.0';

/** Descriptions of the root types, which type-graphql does not take from the resolvers. */
const ROOT_DESCRIPTIONS = {
  query: 'Reads of your tenant: payments, quotes, balances, deposits, customers, webhooks, resolution, analytics',
  mutation: 'Writes of your tenant: money-outs, customers, transfer requests, webhook registrations',
  subscription: 'Live changes over graphql-ws (subprotocol graphql-transport-ws) on /graphql',
} as const;

let built: GraphQLSchema | undefined;

/**
 * type-graphql demands a PubSub once any subscription exists, but none of ours uses `topics`: each
 * declares its own `subscribe`, reading the per-container tenant bus from the context.
 */
const NO_TOPICS: PubSub = {
  publish: () => {
    throw new Error('GraphQL subscriptions here read the tenant bus; topics are not used');
  },
  subscribe: () => {
    throw new Error('GraphQL subscriptions here read the tenant bus; topics are not used');
  },
};

/**
 * The GraphQL schema, built code-first from the resolver classes (type-graphql). Built
 * once per process: the schema has no per-instance state (resolvers take everything from the
 * context), so every service instance in a process shares it.
 */
export function graphqlSchema(): GraphQLSchema {
  built ??= buildSchemaSync({
    resolvers: [
      PaymentResolver, PaymentRefundResolver, QuoteResolver, MeResolver, PaymentUpdatedResolver, ResolutionResolver, CorridorResolver, TransferRequestResolver,
      LegacyPayoutResolver, WebhookResolver, BalanceResolver, CustomerResolver, AnalyticsResolver, NodeResolver,
      OperationsResolver, PaymentRecipientResolver, DepositResolver,
    ],
    validate: false,
    pubSub: NO_TOPICS,
  });
  built.description = `Payout gateway GraphQL API, schema version ${GRAPHQL_SCHEMA_VERSION} (CHANGELOG.md lists the changes)`;
  for (const [root, type] of [['query', built.getQueryType()], ['mutation', built.getMutationType()], ['subscription', built.getSubscriptionType()]] as const) {
    if (type) type.description = ROOT_DESCRIPTIONS[root];
  }
  return built;
}

/** The schema as SDL, types sorted by name so the committed file diffs cleanly. */
export function printGraphqlSchema(): string {
  const header = '# Generated from the code by `npm run schema:emit` (src/adapters/graphql). Do not edit.\n\n';
  return `${header}${printSchema(lexicographicSortSchema(graphqlSchema()))}\n`;
}
