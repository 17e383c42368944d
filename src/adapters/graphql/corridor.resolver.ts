import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { CORRIDOR_ERRORS, CorridorQuery } from '../contract/corridor.contract';
import type { GraphqlContext } from './graphql-context';
import { parseInput, valueOf } from './graphql-errors';
import { CorridorArgs, CorridorType } from './corridor.type';

/** The corridors we pay (OpenAPI listCorridors): the same use case and zod rules as REST. */
@Resolver()
export class CorridorResolver {
  /** Every corridor, optionally one country's or one method's, with whether it is payable now. Errors: validation_error. */
  @Query(() => [CorridorType], { description: 'Every country, method and operator or bank code a money-out pays, with limits and whether your environment can pay it now (REST: GET /v1/corridors)' })
  async corridors(@Args(() => CorridorArgs) args: CorridorArgs, @Ctx() ctx: GraphqlContext): Promise<CorridorType[]> {
    const query = parseInput(CorridorQuery, { ...args }, 'args');
    return valueOf(await ctx.app.listCorridors(ctx.tenantId, query), CORRIDOR_ERRORS).map((c) => ({ ...c, sourceCurrencies: [...c.sourceCurrencies] }));
  }
}
