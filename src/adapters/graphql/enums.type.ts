import { registerEnumType } from 'type-graphql';
import { API_KEY_SCOPES } from '../../core/auth/api-key';
import { BLOCKCHAINS, MONEY_OUT_COUNTRIES, PAYMENT_METHODS } from '../../core/catalog/catalog';
import { PAYMENT_STATUSES } from '../../core/payments/payment';
import { ISSUER_FEE_OPTIONS } from '../../core/quotes/pricing';
import { FIAT_CURRENCIES, STABLECOINS } from '../../core/shared/money';

/** Registers and returns a GraphQL enum named `name` whose names and values are the core's own strings, so the wire matches REST. */
export function enumOf<const T extends readonly string[]>(values: T, name: string, description: string): { [K in T[number]]: K } {
  const object = Object.fromEntries(values.map((v) => [v, v])) as { [K in T[number]]: K };
  registerEnumType(object, { name, description });
  return object;
}

/** Payment states (docs/decisions.md § Payments: states and events). */
export const PaymentStatusEnum = enumOf(PAYMENT_STATUSES, 'PaymentStatus', 'Payment state (docs/decisions.md § Payments: states and events)');
/** Payment methods (OpenAPI createMoneyOut). */
export const PaymentMethodEnum = enumOf(PAYMENT_METHODS, 'PaymentMethod', 'How the recipient is paid');
/** Stablecoins (USDC, USDT). */
export const StablecoinEnum = enumOf(STABLECOINS, 'Stablecoin', 'Stablecoin that funds a payment');
/** Every catalog fiat currency; money-out accepts the nine of OpenAPI createMoneyOut (ETB is legacy payouts only). */
export const FiatCurrencyEnum = enumOf(FIAT_CURRENCIES, 'FiatCurrency', 'Fiat currency (money-out: all but ETB)');
/** Chains of the stablecoin leg (OpenAPI createMoneyOut). */
export const BlockchainEnum = enumOf(BLOCKCHAINS, 'Blockchain', 'Chain of the stablecoin leg');
/** Money-out countries (docs/decisions.md § Corridor catalog) plus ET, which FX quotes accept. */
export const CountryEnum = enumOf([...MONEY_OUT_COUNTRIES, 'ET'] as const, 'Country', 'ISO 3166-1 alpha-2 country (money-out: all but ET)');
/** Whether the optional issuer fee applies (OpenAPI convertFx). */
export const IssuerFeeOptionEnum = enumOf(ISSUER_FEE_OPTIONS, 'IssuerFeeOption', 'Whether the optional issuer fee applies');
/** API key scopes (docs/decisions.md § Authentication, tenants and keys). */
export const ApiKeyScopeEnum = enumOf(API_KEY_SCOPES, 'ApiKeyScope', 'Scope of an API key (docs/decisions.md § Authentication, tenants and keys)');
