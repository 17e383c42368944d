import { Ctx, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from './graphql-context';
import { MeType } from './me.type';

/** `me`: the authenticated caller, straight from the principal. */
@Resolver()
export class MeResolver {
  @Query(() => MeType, { description: 'Who is calling: your tenant and the key in use' })
  me(@Ctx() ctx: GraphqlContext): MeType {
    return { tenantId: ctx.tenantId, keyId: ctx.principal.keyId, scope: ctx.principal.scope };
  }
}
