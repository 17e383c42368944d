import { Field, ObjectType } from 'type-graphql';
import {
  BANK_LIST_COUNTRIES, BANK_RESOLUTION_CURRENCIES, BANK_RESOLUTION_PAYMENT_TYPES, IDENTIFIER_STATUSES, MOMO_RESOLUTION_TYPES,
  WALLET_NETWORKS, type MomoResolutionType as MomoKind, type WalletNetwork,
} from '../../core/resolution/resolution';
import { enumOf } from './enums.type';

/** Countries `banks` lists (OpenAPI listBanks: NG and ZA). */
export const BankListCountryEnum = enumOf(BANK_LIST_COUNTRIES, 'BankListCountry', 'Countries whose banks are listed');
/** Kinds of account `momoResolve` checks (OpenAPI resolveMomo). */
export const MomoResolutionTypeEnum = enumOf(MOMO_RESOLUTION_TYPES, 'MomoResolutionType', 'paybill and till take a 6-digit accountNumber; momo a phoneNumber');
/** Currencies `accountResolve` resolves bank accounts in (OpenAPI resolveBankAccount). */
export const BankResolutionCurrencyEnum = enumOf(BANK_RESOLUTION_CURRENCIES, 'BankResolutionCurrency', 'Currency of a resolvable bank account');
/** Payment types of `accountResolve` (OpenAPI resolveBankAccount): bank only. */
export const BankResolutionPaymentTypeEnum = enumOf(BANK_RESOLUTION_PAYMENT_TYPES, 'BankResolutionPaymentType', 'Payment type of a resolvable account');
/** Networks a wallet address is resolved on (OpenAPI resolveIdentifier). */
export const WalletNetworkEnum = enumOf(WALLET_NETWORKS, 'WalletNetwork', 'Network of a stablecoin wallet address');
/** Status of a resolved identifier (OpenAPI resolveIdentifier); a resolved one is always Successful. */
export const IdentifierStatusEnum = enumOf(IDENTIFIER_STATUSES, 'IdentifierStatus', 'Outcome of an identifier resolution');

/** Bank list entry (OpenAPI listBanks), from the corridor catalog. */
@ObjectType('Bank', { description: 'A bank of a recipient country (REST: GET /v1/account/banks)' })
export class BankType {
  @Field(() => String, { description: 'Code to send as a bank payment\'s bank code' })
  bankCode!: string;

  @Field(() => String)
  bankName!: string;
}

/** Resolved mobile-money or merchant account (OpenAPI resolveMomo): every field always present, '' or [] when it does not apply. */
@ObjectType('MomoResolution', { description: 'Outcome of checking a paybill, till or mobile-money number (REST: POST /momo/resolve)' })
export class MomoResolutionType {
  @Field(() => Boolean, { description: 'Whether the account resolved; when false, message says why' })
  valid!: boolean;

  @Field(() => MomoResolutionTypeEnum)
  type!: MomoKind;

  @Field(() => String, { description: 'Registered name for paybill or till; empty for momo and when not valid' })
  accountName!: string;

  @Field(() => String, { description: 'The 6-digit paybill or till number; empty for momo' })
  accountNumber!: string;

  @Field(() => String, { description: 'For momo: digits with country code, no "+"; empty for paybill and till' })
  phoneNumber!: string;

  @Field(() => [String], { description: "For a valid momo: the country's mobile-money operator codes" })
  operators!: readonly string[];

  @Field(() => String, { description: 'Extra information; says why when not valid' })
  message!: string;
}

/** Resolved bank account (OpenAPI resolveBankAccount). */
@ObjectType('BankAccountResolution', { description: 'Holder of a bank account (REST: POST /account/resolve)' })
export class BankAccountResolutionType {
  @Field(() => String, { description: "The account's id at its bank" })
  accountId!: string;

  @Field(() => String)
  accountName!: string;
}

/**
 * Resolved recipient identifier (OpenAPI resolveIdentifier). Field names are REST's, in GraphQL's
 * camelCase (REST's wallet_address is walletAddress); the properties keep REST's names, so the use
 * case's answer is returned unchanged.
 */
@ObjectType('IdentifierResolution', { description: 'Wallet address of a username at an issuer (REST: POST /id/resolve)' })
export class IdentifierResolutionType {
  @Field(() => IdentifierStatusEnum)
  status!: string;

  @Field(() => String)
  username!: string;

  @Field(() => String)
  issuer!: string;

  @Field(() => String, { description: 'What the address receives: a fiat it auto-converts to (NGN, ZAR, KES) or a stablecoin (USDC, USDT)' })
  currency!: string;

  @Field(() => String, { name: 'walletAddress', description: 'Stablecoin address: base58 on Solana, 0x + 40 hex on Base (REST: wallet_address)' })
  wallet_address!: string;

  @Field(() => WalletNetworkEnum, { name: 'walletNetwork', description: 'Network of walletAddress (REST: wallet_network)' })
  wallet_network!: WalletNetwork;

  @Field(() => String, { description: 'Country name in full' })
  country!: string;

  @Field(() => String, { description: 'Memo to attach to a Solana transaction: <SERVICE>-FIAT' })
  reference!: string;
}
