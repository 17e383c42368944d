import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { FX_ERRORS, FxQuery } from '../contract/fx.contract';
import { FxQuoteArgs } from './fx-quote.args';
import type { GraphqlContext } from './graphql-context';
import { parseInput, valueOf } from './graphql-errors';
import { QuoteType, toQuoteType } from './quote.type';

/** FX quotes: the same use case and argument rules as REST's GET /fx/convert. */
@Resolver()
export class QuoteResolver {
  /** Prices and stores a quote. Errors: validation_error, unsupported_corridor (no such pair), rate_unavailable (no live rate for the pair now). */
  @Query(() => QuoteType, { nullable: true, description: 'Quote a fiat amount in a stablecoin, fees included (REST: GET /fx/convert); null with the error in errors when it cannot be priced' })
  async fxQuote(@Args(() => FxQuoteArgs) args: FxQuoteArgs, @Ctx() ctx: GraphqlContext): Promise<QuoteType> {
    const query = parseInput(FxQuery, { ...args }, 'args');
    return toQuoteType(valueOf(await ctx.app.getFxQuote(ctx.tenantId, query), FX_ERRORS));
  }
}
