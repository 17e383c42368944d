import path from 'node:path';
import { getNullableType, isNonNullType, type GraphQLArgument, type GraphQLInputField, type GraphQLInputObjectType } from 'graphql';
import { z } from 'zod';
import { SummaryQuery } from '../../src/adapters/contract/analytics.contract';
import { CreateCustomerBody } from '../../src/adapters/contract/customer.contract';
import { FxQuery } from '../../src/adapters/contract/fx.contract';
import { LegacyPayoutBody } from '../../src/adapters/contract/legacy-payout.contract';
import { PageQuery } from '../../src/adapters/contract/page.schema';
import { MoneyOutBody } from '../../src/adapters/contract/payment.contract';
import { accountResolveBody, BankListQuery, idResolveBody, MomoResolveBody } from '../../src/adapters/contract/resolution.contract';
import { TransferRequestBody, TransferRequestParams } from '../../src/adapters/contract/transfer-request.contract';
import { RegisterWebhookBody, WebhookEventIdParams, WebhookEventsQuery, WebhookIdParams } from '../../src/adapters/contract/webhook.contract';
import { graphqlSchema } from '../../src/adapters/graphql/graphql-schema';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';

/**
 * Every GraphQL input that REST also takes is checked by REST's zod schema, and documented by it:
 * each field's description is the one in the schema's metadata (what /openapi.json shows), and a
 * field is optional in GraphQL (nullable, or defaulted) exactly when zod accepts it absent.
 * The oracle is zod's own JSON Schema of the REST schema, not the helper the resolvers use.
 */
const catalog = loadCatalog(path.resolve(__dirname, '../../data/corridors.json'));

/** REST's page fields under their GraphQL names: `limit` is `first`, `cursor` is `after`. */
const PAGE_RENAMES = { first: 'limit', after: 'cursor' } as const;

type Field = GraphQLInputField | GraphQLArgument;
interface Pair {
  readonly graphql: string;
  readonly fields: () => readonly Field[];
  readonly schema: z.ZodObject;
  /** GraphQL name → REST name, for fields GraphQL names otherwise. */
  readonly renames?: Readonly<Record<string, string>>;
  /** REST fields GraphQL does not take as arguments (the page of a list it answers as a connection). */
  readonly restOnly?: readonly string[];
}

function inputFields(name: string): () => Field[] {
  return () => Object.values((graphqlSchema().getType(name) as GraphQLInputObjectType).getFields());
}
function args(root: 'Query' | 'Mutation', field: string): () => readonly Field[] {
  return () => {
    const type = root === 'Query' ? graphqlSchema().getQueryType()! : graphqlSchema().getMutationType()!;
    return type.getFields()[field]!.args;
  };
}

const PAIRS: readonly Pair[] = [
  { graphql: 'MoneyOutInput', fields: inputFields('MoneyOutInput'), schema: MoneyOutBody },
  { graphql: 'LegacyPayoutInput', fields: inputFields('LegacyPayoutInput'), schema: LegacyPayoutBody },
  { graphql: 'TransferRequestInput', fields: inputFields('TransferRequestInput'), schema: TransferRequestBody },
  { graphql: 'CreateCustomerInput', fields: inputFields('CreateCustomerInput'), schema: CreateCustomerBody },
  { graphql: 'RegisterWebhookInput', fields: inputFields('RegisterWebhookInput'), schema: RegisterWebhookBody },
  { graphql: 'Query.fxQuote', fields: args('Query', 'fxQuote'), schema: FxQuery },
  { graphql: 'Query.banks', fields: args('Query', 'banks'), schema: BankListQuery },
  { graphql: 'Query.momoResolve', fields: args('Query', 'momoResolve'), schema: MomoResolveBody },
  { graphql: 'Query.accountResolve', fields: args('Query', 'accountResolve'), schema: accountResolveBody(catalog) },
  { graphql: 'Query.idResolve', fields: args('Query', 'idResolve'), schema: idResolveBody(catalog), renames: { walletNetwork: 'wallet_network' } },
  { graphql: 'Query.analyticsSummary', fields: args('Query', 'analyticsSummary'), schema: SummaryQuery },
  { graphql: 'Query.webhookEvents', fields: args('Query', 'webhookEvents'), schema: WebhookEventsQuery, renames: PAGE_RENAMES },
  { graphql: 'Query.customers', fields: args('Query', 'customers'), schema: PageQuery, renames: PAGE_RENAMES },
  { graphql: 'Query.balanceTransactions', fields: args('Query', 'balanceTransactions'), schema: PageQuery, renames: PAGE_RENAMES },
  { graphql: 'Query.transferRequest', fields: args('Query', 'transferRequest'), schema: TransferRequestParams },
  { graphql: 'Mutation.deleteWebhook', fields: args('Mutation', 'deleteWebhook'), schema: WebhookIdParams, renames: { id: 'webhookId' } },
  { graphql: 'Mutation.retryWebhookEvent', fields: args('Mutation', 'retryWebhookEvent'), schema: WebhookEventIdParams },
];

/** Each REST field's description and whether it may be absent, from zod's JSON Schema of the request. */
function restFields(schema: z.ZodObject): Map<string, { description: string | undefined; optional: boolean }> {
  type ObjectJson = { properties: Record<string, { description?: string }>; required?: string[] };
  const document = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as ObjectJson & { $ref?: string; $defs?: Record<string, ObjectJson> };
  // A schema with an OpenAPI component id comes back as a reference to its definition.
  const json = document.$ref ? document.$defs![document.$ref.replace('#/$defs/', '')]! : document;
  return new Map(Object.entries(json.properties).map(([key, property]) => [
    key, { description: property.description, optional: !(json.required ?? []).includes(key) },
  ]));
}

/** GraphQL renamed page fields say what they are in GraphQL terms; their REST text speaks of the Link header. */
const GRAPHQL_PAGE_TEXT = new Set(['first', 'after']);

describe('GraphQL inputs follow their REST zod schemas', () => {
  it.each(PAIRS.map((p) => [p.graphql, p] as const))('%s has the fields, optionality and descriptions of its schema', (_name, pair) => {
    const rest = restFields(pair.schema);
    const fields = pair.fields();
    expect(fields.length).toBeGreaterThan(0);
    const graphqlNames = fields.map((f) => pair.renames?.[f.name] ?? f.name).sort();
    expect(graphqlNames).toEqual([...rest.keys()].sort());
    for (const field of fields) {
      const restName = pair.renames?.[field.name] ?? field.name;
      const restField = rest.get(restName)!;
      const optionalInGraphql = !isNonNullType(field.type) || field.defaultValue !== undefined;
      expect({ field: field.name, optional: optionalInGraphql }).toEqual({ field: field.name, optional: restField.optional });
      if (pair.renames && GRAPHQL_PAGE_TEXT.has(field.name)) continue;
      expect({ field: field.name, description: field.description ?? undefined }).toEqual({ field: field.name, description: restField.description });
    }
  });

  it('documents the renamed page fields once, the same in every list', () => {
    const pages = PAIRS.filter((p) => p.renames === PAGE_RENAMES).map((p) => p.fields().filter((f) => GRAPHQL_PAGE_TEXT.has(f.name)));
    expect(pages).toHaveLength(3);
    const described = pages.map((fields) => Object.fromEntries(fields.map((f) => [f.name, f.description])));
    for (const page of described) {
      expect(page).toEqual(described[0]);
      expect(page.first).toEqual(expect.stringContaining('1..100'));
      expect(page.after).toEqual(expect.stringContaining('endCursor'));
    }
    // The unwrapped type is the one REST coerces: an integer page size.
    expect(String(getNullableType(pages[0]!.find((f) => f.name === 'first')!.type))).toBe('Int');
  });
});
