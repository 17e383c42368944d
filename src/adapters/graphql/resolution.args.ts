import { ArgsType, Field } from 'type-graphql';
import { BankResolutionCurrencyEnum, BankResolutionPaymentTypeEnum, MomoResolutionTypeEnum, WalletNetworkEnum } from './resolution.type';

/** Arguments of `momoResolve`: REST's POST /momo/resolve body (OpenAPI resolveMomo), checked by its zod schema. */
@ArgsType()
export class MomoResolveArgs {
  @Field(() => MomoResolutionTypeEnum)
  type!: string;

  @Field(() => String, { nullable: true, description: 'Paybill or till number, exactly 6 digits (paybill and till only)' })
  accountNumber?: string | null;

  @Field(() => String, { nullable: true, description: 'Phone number with country code, "+" optional (momo only)' })
  phoneNumber?: string | null;
}

/** Arguments of `accountResolve`: REST's POST /account/resolve body (OpenAPI resolveBankAccount), checked by its zod schema. */
@ArgsType()
export class AccountResolveArgs {
  @Field(() => String, { description: 'Bank account number, 10 to 16 digits' })
  accountNumber!: string;

  @Field(() => BankResolutionCurrencyEnum)
  currency!: string;

  @Field(() => BankResolutionPaymentTypeEnum, { description: 'Required, as in REST' })
  paymentType!: string;

  @Field(() => String, { description: 'Bank code, one of the corridor catalog\'s resolution banks' })
  bankCode!: string;
}

/** Arguments of `idResolve`: REST's POST /id/resolve body (OpenAPI resolveIdentifier; field names follow its response), checked by its zod schema. */
@ArgsType()
export class IdResolveArgs {
  @Field(() => String, { description: 'Username or wallet id at the issuer' })
  username!: string;

  @Field(() => String, { description: 'Wallet issuer key from the catalog, e.g. issuer_a' })
  issuer!: string;

  @Field(() => WalletNetworkEnum)
  wallet_network!: string;
}
