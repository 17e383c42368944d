import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { CUSTOMER_ERRORS, CustomerParams } from '../contract/customer.contract';
import { DepositParams } from '../contract/deposit.contract';
import type { GraphqlContext } from './graphql-context';
import { graphqlError, parseInput, READ_ERRORS, valueOf } from './graphql-errors';
import { NodeInterface, nodeTypeOf, type NodeTypeName } from './node.type';

/** Reads one object of a Node type for the caller's tenant; throws the read's error. */
type NodeReader = (ctx: GraphqlContext, id: string) => Promise<{ id: string }>;

/** The single read of each Node type: a Record, so a new Node type does not compile until it is readable here. */
const READERS: Record<NodeTypeName, NodeReader> = {
  Payment: async (ctx, id) => valueOf(await ctx.app.getPayment(ctx.tenantId, id), READ_ERRORS),
  Customer: async (ctx, id) => valueOf(await ctx.app.getCustomer(ctx.tenantId, parseInput(CustomerParams.shape.customerId, id, 'args.id')), CUSTOMER_ERRORS),
  LedgerTransaction: async (ctx, id) => valueOf(await ctx.app.getLedgerTransaction(ctx.tenantId, id), READ_ERRORS),
  WebhookEvent: async (ctx, id) => valueOf(await ctx.app.getWebhookEvent(ctx.tenantId, id), READ_ERRORS),
  Deposit: async (ctx, id) => valueOf(await ctx.app.getDeposit(ctx.tenantId, parseInput(DepositParams.shape.depositId, id, 'args.id')), READ_ERRORS),
};

/** Relay's `node(id:)` (docs/decisions.md § GraphQL): any Node of the caller's tenant by its prefixed id. */
@Resolver()
export class NodeResolver {
  /**
   * The object with this id, through the same single read as `payment` or `customer`; null with
   * the error in `errors` otherwise. Errors: not_found (an unknown prefix, no such object, or
   * another tenant's), validation_error (an id the read refuses, e.g. too long).
   */
  @Query(() => NodeInterface, {
    nullable: true,
    description: 'Any object of yours by its id (pay_…, cus_…, ldg_…, dep_…, or an event log entry\'s uuid); null with a not_found error in errors when you have none with this id',
  })
  async node(@Arg('id', () => ID, { description: 'An id, e.g. pay_01J… or cus_01J…' }) id: string, @Ctx() ctx: GraphqlContext): Promise<{ id: string }> {
    const type = nodeTypeOf(id);
    if (!type) throw graphqlError('not_found', 'No object has this id');
    return READERS[type](ctx, id);
  }
}
