import { ArgsType, Field } from 'type-graphql';
import { AccountResolveFields, BankListQuery, IdResolveFields, MomoResolveBody } from '../contract/resolution.contract';
import type { FieldDrift, NoDrift } from '../contract/schema-ties';
import { fieldOf } from './contract-fields';
import {
  BankListCountryEnum, BankResolutionCurrencyEnum, BankResolutionPaymentTypeEnum, MomoResolutionTypeEnum, WalletNetworkEnum,
} from './resolution.type';

/** Arguments of `banks`: the query of REST's GET /v1/account/banks (OpenAPI listBanks), checked and described by its zod schema. */
@ArgsType()
export class BankListArgs {
  @Field(() => BankListCountryEnum, fieldOf(BankListQuery, 'country'))
  country!: string;
}
type _BankListArgsTie = NoDrift<FieldDrift<BankListArgs, typeof BankListQuery>>;

/** Arguments of `momoResolve`: REST's POST /momo/resolve body (OpenAPI resolveMomo), checked and described by its zod schema. */
@ArgsType()
export class MomoResolveArgs {
  @Field(() => MomoResolutionTypeEnum, fieldOf(MomoResolveBody, 'type'))
  type!: string;

  @Field(() => String, fieldOf(MomoResolveBody, 'accountNumber'))
  accountNumber?: string | null;

  @Field(() => String, fieldOf(MomoResolveBody, 'phoneNumber'))
  phoneNumber?: string | null;
}
type _MomoResolveArgsTie = NoDrift<FieldDrift<MomoResolveArgs, typeof MomoResolveBody>>;

/**
 * Arguments of `accountResolve`: REST's POST /account/resolve body (OpenAPI resolveBankAccount), described by its
 * catalog-free fields and checked by the schema with the catalog's bank codes.
 */
@ArgsType()
export class AccountResolveArgs {
  @Field(() => String, fieldOf(AccountResolveFields, 'accountNumber'))
  accountNumber!: string;

  @Field(() => BankResolutionCurrencyEnum, fieldOf(AccountResolveFields, 'currency'))
  currency!: string;

  @Field(() => BankResolutionPaymentTypeEnum, fieldOf(AccountResolveFields, 'paymentType'))
  paymentType!: string;

  @Field(() => String, fieldOf(AccountResolveFields, 'bankCode'))
  bankCode!: string;
}
type _AccountResolveArgsTie = NoDrift<FieldDrift<AccountResolveArgs, typeof AccountResolveFields>>;

/** REST's catalog-free idResolve fields under GraphQL's camelCase names: `wallet_network` is walletNetwork. */
export const IdResolveArgsSchema = IdResolveFields.omit({ wallet_network: true }).extend({ walletNetwork: IdResolveFields.shape.wallet_network });

/**
 * Arguments of `idResolve`: REST's POST /id/resolve body (OpenAPI resolveIdentifier), `wallet_network`
 * named walletNetwork as GraphQL spells names; described by its catalog-free fields and checked by the schema with the catalog's issuers.
 */
@ArgsType()
export class IdResolveArgs {
  @Field(() => String, fieldOf(IdResolveFields, 'username'))
  username!: string;

  @Field(() => String, fieldOf(IdResolveFields, 'issuer'))
  issuer!: string;

  @Field(() => WalletNetworkEnum, fieldOf(IdResolveArgsSchema, 'walletNetwork'))
  walletNetwork!: string;
}
type _IdResolveArgsTie = NoDrift<FieldDrift<IdResolveArgs, typeof IdResolveArgsSchema>>;

/** `idResolve`'s arguments as REST's body names them (walletNetwork → wallet_network), for REST's schema. */
export function idResolveBodyOf(args: IdResolveArgs): Record<string, unknown> {
  const { walletNetwork, ...same } = args;
  return { ...same, wallet_network: walletNetwork };
}
