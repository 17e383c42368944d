import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { CustomerView } from '../../core/customers/customer';
import { CreateCustomerBody, CUSTOMER_ERRORS, CustomerParams } from '../contract/customer.contract';
import type { Connection } from './connection.type';
import { CreateCustomerInput } from './customer.input';
import { CustomerConnectionType, CustomerType } from './customer.type';
import type { GraphqlContext } from './graphql-context';
import { connectionOf, cursorAsAfter, PageArgs, restPage } from './list-page';
import { parseInput, valueOf } from './graphql-errors';

/**
 * Customers (docs/decisions.md § Customers and KYC and § GraphQL): the reads and the write of REST's Customers tag, on
 * the same use cases and zod schemas. Thin: one Application call per field, for the caller's
 * tenant only (another tenant's customer is not_found, never forbidden).
 */
@Resolver()
export class CustomerResolver {
  /** One customer, equal to REST GET /v1/customers/{id}. Errors: not_found (also another tenant's), validation_error (id over 64 characters). */
  @Query(() => CustomerType, { nullable: true, description: 'One customer of yours (REST: GET /v1/customers/{customerId}); null with a not_found error in errors when you have none with this id' })
  async customer(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphqlContext): Promise<CustomerView> {
    const customerId = parseInput(CustomerParams.shape.customerId, id, 'args.id');
    return valueOf(await ctx.app.getCustomer(ctx.tenantId, customerId), CUSTOMER_ERRORS);
  }

  /**
   * One page of the tenant's customers, newest first, the page REST GET
   * /v1/customers?limit=first&cursor=after answers. Errors: validation_error (first outside
   * 1..100, after longer than 200 characters or not a cursor of this list).
   */
  @Query(() => CustomerConnectionType, { description: 'Your customers, newest first (REST: GET /v1/customers; first: 1..100, default 50)' })
  async customers(
    @Ctx() ctx: GraphqlContext,
    @Args(() => PageArgs) page: PageArgs,
  ): Promise<Connection<CustomerView>> {
    const { limit, cursor } = restPage(page);
    return connectionOf(valueOf(cursorAsAfter(await ctx.app.listCustomers(ctx.tenantId, limit, cursor)), CUSTOMER_ERRORS));
  }

  /**
   * Registers a wallet user in `pending` KYC, as REST POST /v1/customers does; the KYC decision
   * comes later (read it with `customer`) and emits customer.kyc.updated. Errors:
   * validation_error (the REST body rules: lengths, country, date of birth, idNumber),
   * duplicate_customer (externalId already used by this tenant).
   */
  @Mutation(() => CustomerType, { description: 'Register a wallet user; KYC starts pending (REST: POST /v1/customers)' })
  async createCustomer(@Arg('input', () => CreateCustomerInput) input: CreateCustomerInput, @Ctx() ctx: GraphqlContext): Promise<CustomerView> {
    const command = parseInput(CreateCustomerBody, { ...input }, 'input');
    return valueOf(await ctx.app.createCustomer(ctx.tenantId, command), CUSTOMER_ERRORS);
  }
}
