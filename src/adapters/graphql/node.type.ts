import { Field, ID, InterfaceType } from 'type-graphql';

/**
 * The GraphQL type of each id prefix that `node(id:)` resolves (docs/decisions.md § GraphQL): the
 * service's ids are already unique across types (pay_…, cus_…, ldg_…, dep_…), so they are the Relay
 * global ids as they are, with no second encoding. Event log entries have uuid ids, which no
 * other Node type uses.
 */
export const NODE_TYPES = { pay_: 'Payment', cus_: 'Customer', ldg_: 'LedgerTransaction', dep_: 'Deposit' } as const;

/** A type `node(id:)` can return. */
export type NodeTypeName = (typeof NODE_TYPES)[keyof typeof NODE_TYPES] | 'WebhookEvent';

/** RFC 4122 text form, the ids of event log entries. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The type whose ids look like `id`, or undefined when no Node type has ids of that form. Pure. */
export function nodeTypeOf(id: string): NodeTypeName | undefined {
  const prefix = Object.keys(NODE_TYPES).find((p) => id.startsWith(p)) as keyof typeof NODE_TYPES | undefined;
  if (prefix) return NODE_TYPES[prefix];
  return UUID.test(id) ? 'WebhookEvent' : undefined;
}

/** Relay's Node: an object that `node(id:)` fetches again by its id. Never instantiated. */
@InterfaceType('Node', {
  description: 'An object with a unique id (pay_…, cus_…, ldg_…, dep_…, or a uuid for event log entries) that node(id:) reads again',
  resolveType: (value: { id: string }) => nodeTypeOf(value.id),
})
export abstract class NodeInterface {
  @Field(() => ID, { description: 'Unique across every type: a prefixed ULID (pay_…, cus_…, ldg_…, dep_…) or, for event log entries, a uuid' })
  id!: string;
}
