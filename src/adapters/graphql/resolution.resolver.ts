import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { Catalog } from '../../core/catalog/catalog';
import {
  accountResolveBody, BankListQuery, idResolveBody, MOMO_RESOLVE_ERRORS, MomoResolveBody, RESOLVE_ERRORS,
} from '../contract/resolution.contract';
import type { GraphqlContext } from './graphql-context';
import { LIST_ERRORS, parseInput, valueOf } from './graphql-errors';
import { AccountResolveArgs, BankListArgs, IdResolveArgs, idResolveBodyOf, MomoResolveArgs } from './resolution.args';
import {
  BankAccountResolutionType, BankType, IdentifierResolutionType, MomoResolutionType,
} from './resolution.type';

/** The zod schemas whose enums come from the catalog, built once per catalog. */
const catalogSchemas = new WeakMap<Catalog, { account: ReturnType<typeof accountResolveBody>; id: ReturnType<typeof idResolveBody> }>();
function schemasOf(catalog: Catalog) {
  let schemas = catalogSchemas.get(catalog);
  if (!schemas) catalogSchemas.set(catalog, (schemas = { account: accountResolveBody(catalog), id: idResolveBody(catalog) }));
  return schemas;
}

/**
 * Bank list and recipient resolution (OpenAPI resolveMomo, resolveBankAccount, resolveIdentifier and listBanks): the REST use cases
 * and zod rules, as queries since none of them writes anything.
 */
@Resolver()
export class ResolutionResolver {
  /** Banks of NG or ZA from the corridor catalog. Errors: validation_error. */
  @Query(() => [BankType], { description: 'Banks of a recipient country (REST: GET /v1/account/banks)' })
  async banks(@Args(() => BankListArgs) args: BankListArgs, @Ctx() ctx: GraphqlContext): Promise<BankType[]> {
    const query = parseInput(BankListQuery, { ...args }, 'args');
    const banks = valueOf(await ctx.app.listBanks(query.country), LIST_ERRORS);
    return banks.map(({ bankCode, bankName }) => ({ bankCode, bankName }));
  }

  /** Checks a paybill, till or momo number; not resolving is `valid: false`. Errors: validation_error, upstream_unavailable. */
  @Query(() => MomoResolutionType, { nullable: true, description: 'Check a paybill, till or mobile-money number (REST: POST /momo/resolve); null with the error in errors when it fails' })
  async momoResolve(@Args(() => MomoResolveArgs) args: MomoResolveArgs, @Ctx() ctx: GraphqlContext): Promise<MomoResolutionType> {
    const query = parseInput(MomoResolveBody, { ...args }, 'args');
    return valueOf(await ctx.app.resolveMomo(query), MOMO_RESOLVE_ERRORS);
  }

  /** The holder of an NGN or KES bank account. Errors: validation_error, account_not_found, upstream_unavailable. */
  @Query(() => BankAccountResolutionType, { nullable: true, description: 'Holder of a Kenyan or Nigerian bank account (REST: POST /account/resolve); null with the error in errors (e.g. account_not_found)' })
  async accountResolve(@Args(() => AccountResolveArgs) args: AccountResolveArgs, @Ctx() ctx: GraphqlContext): Promise<BankAccountResolutionType> {
    const query = parseInput(schemasOf(ctx.app.catalog).account, { ...args }, 'args');
    return valueOf(await ctx.app.resolveBankAccount(query), RESOLVE_ERRORS);
  }

  /** A username's wallet address at an issuer. Errors: validation_error, account_not_found, upstream_unavailable. */
  @Query(() => IdentifierResolutionType, { nullable: true, description: "Recipient's stablecoin wallet address from a username at an issuer (REST: POST /id/resolve); null with the error in errors when it fails" })
  async idResolve(@Args(() => IdResolveArgs) args: IdResolveArgs, @Ctx() ctx: GraphqlContext): Promise<IdentifierResolutionType> {
    const query = parseInput(schemasOf(ctx.app.catalog).id, idResolveBodyOf(args), 'args');
    return valueOf(await ctx.app.resolveIdentifier(query), RESOLVE_ERRORS);
  }
}
