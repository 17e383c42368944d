import { registerEnumType } from 'type-graphql';
import { API_KEY_SCOPES } from '../../core/auth/api-key';
import { BLOCKCHAINS, MONEY_OUT_COUNTRIES, PAYMENT_METHODS } from '../../core/catalog/catalog';
import { PAYMENT_STATUSES } from '../../core/payments/payment';
import { PAYMENT_FAILURE_CODES } from '../../core/payments/payment-failure';
import { ISSUER_FEE_OPTIONS } from '../../core/quotes/pricing';
import { FIAT_CURRENCIES, STABLECOINS } from '../../core/shared/money';

/**
 * A REST string as a GraphQL enum value name: SCREAMING_SNAKE_CASE, the one casing of every enum
 * of the schema (`provider_accepted` → PROVIDER_ACCEPTED, `MoMo` → MOMO, `payment.succeeded` →
 * PAYMENT_SUCCEEDED). Pure.
 */
export function enumValueName(value: string): string {
  return value.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();
}

/**
 * Registers and returns a GraphQL enum named `name` (docs/decisions.md § GraphQL): its value names
 * are the SCREAMING_SNAKE_CASE forms of the core's strings, and its internal values are those
 * strings themselves, which REST writes. Resolvers return and receive the REST strings; GraphQL
 * maps them to and from the names, in this one place. `values` may describe each value.
 * Throws at start-up when two strings would share a name.
 */
export function enumOf<const T extends readonly string[]>(
  values: T,
  name: string,
  description: string,
  valueDescriptions: Partial<Record<T[number], string>> = {},
): Readonly<Record<string, T[number]>> {
  const object: Record<string, T[number]> = Object.fromEntries(values.map((v) => [enumValueName(v), v]));
  if (Object.keys(object).length !== values.length) throw new Error(`GraphQL enum ${name}: two values share a name`);
  const valuesConfig = Object.fromEntries(
    values.flatMap((v) => {
      const text = (valueDescriptions as Record<string, string | undefined>)[v];
      return text === undefined ? [] : [[enumValueName(v), { description: text }]];
    }),
  );
  registerEnumType(object, { name, description, valuesConfig });
  return object;
}

/** Payment states (docs/decisions.md § Payments: states and events). */
export const PaymentStatusEnum = enumOf(PAYMENT_STATUSES, 'PaymentStatus', 'Payment state (docs/decisions.md § Payments: states and events)');
/** Why a payment failed or was refunded (docs/api.md § Failure codes), each value described. */
export const PaymentFailureCodeEnum = enumOf(PAYMENT_FAILURE_CODES, 'PaymentFailureCode', 'Why a payment failed or was refunded (docs/api.md § Failure codes)', {
  recipient_account_invalid: 'The account or number does not exist, is not registered for the service, is blocked or cannot receive this payment',
  limit_exceeded: "The amount broke a limit of the provider or of the recipient's account (per transaction, daily, maximum balance)",
  insufficient_provider_balance: 'Our own funds at the payout provider did not cover the payout; it may succeed later',
  declined: 'The provider refused or rejected the payout without saying more',
  expired: 'The payout was not completed in time and will not be',
  reversed: 'The payout was paid and the funds came back',
  unsupported_by_provider: 'The provider cannot carry this payment (method, country, currency or amount format)',
  provider_error: 'The provider could not process the payout',
  unknown: 'The provider gave no reason that could be classified',
  compliance_rejected: 'Held by sanctions screening and rejected by a compliance review before anything was sent to a provider',
});
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
