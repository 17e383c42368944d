import type { FiatCurrency, Stablecoin } from '../shared/money';
import { DEFAULT_ROUTING_STRATEGY, type RoutingStrategy } from '../routing/success-rate-scoring';

/** Payout methods (OpenAPI createMoneyOut). */
export const PAYMENT_METHODS = ['BANK', 'MOMO', 'PAYBILL', 'TILL'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Chains the stablecoin leg settles on (the `blockchain` of OpenAPI createMoneyOut). */
export const BLOCKCHAINS = ['BSC', 'SOLANA'] as const;
export type Blockchain = (typeof BLOCKCHAINS)[number];

/** Countries a money-out may pay into (docs/decisions.md § Corridor catalog). */
export const MONEY_OUT_COUNTRIES = ['BF', 'BJ', 'CI', 'CM', 'GH', 'KE', 'NG', 'SN', 'TZ', 'UG', 'ZA', 'ZM'] as const;
export type MoneyOutCountry = (typeof MONEY_OUT_COUNTRIES)[number];

/** Every country the catalog may describe: money-out countries plus the legacy payout's ET. */
export type CountryCode = MoneyOutCountry | 'ET';

/** Destination fiat currencies of a money-out (OpenAPI createMoneyOut). */
export const MONEY_OUT_CURRENCIES = ['GHS', 'KES', 'NGN', 'TZS', 'UGX', 'XAF', 'XOF', 'ZAR', 'ZMW'] as const;
export type MoneyOutCurrency = (typeof MONEY_OUT_CURRENCIES)[number];

/**
 * Fiat currencies the FX endpoint converts from (OpenAPI convertFx): those a money-out pays in
 * (docs/decisions.md § Corridor catalog: what is quoted is paid). ETB, which only the legacy payout
 * takes and no provider pays, is not quoted; `paysOutIn` narrows this set to the routed currencies.
 */
export const FX_SOURCE_CURRENCIES = ['ZAR', 'NGN', 'KES', 'GHS', 'UGX', 'TZS', 'ZMW', 'XOF', 'XAF'] as const;
export type FxSourceCurrency = (typeof FX_SOURCE_CURRENCIES)[number];

/** One payout method offered in one country: its amount limits (local currency, decimal strings) and valid codes. */
export interface MethodOffer {
  /** Smallest fiat amount accepted, decimal string in the country's currency, inclusive. */
  readonly min: string;
  /** Largest fiat amount accepted, decimal string in the country's currency, inclusive. */
  readonly max: string;
  /** Operator codes (MOMO, PAYBILL, TILL) or bank codes (BANK) valid as `paymentCode`. */
  readonly codes: readonly string[];
  /** Method fee in stablecoin units (decimal string) overriding the catalog default for this country. */
  readonly fee?: string;
}

/** A bank as listed by the bank list endpoint (OpenAPI listBanks). */
export interface BankEntry {
  readonly bankCode: string;
  readonly bankName: string;
}

/** One corridor: a destination country, its currency and what can be paid there (docs/decisions.md § Corridor catalog). */
export interface CountryCorridor {
  readonly name: string;
  readonly currency: FiatCurrency;
  readonly methods: Partial<Record<PaymentMethod, MethodOffer>>;
  readonly banks: readonly BankEntry[];
  /** International dialling code without `+` (e.g. "254"); maps a phone number to its country (OpenAPI resolveMomo). */
  readonly dialCode: string;
}

/** A wallet issuer whose users `POST /id/resolve` resolves (OpenAPI resolveIdentifier; docs/decisions.md § Corridor catalog). */
export interface WalletIssuer {
  /** Issuer key as the API spells it, e.g. `issuer_a`. */
  readonly key: string;
  /** Country name in full, e.g. "Kenya". */
  readonly country: string;
  /** What the issuer's addresses receive: a fiat they auto-convert to (NGN, ZAR, KES) or a stablecoin. */
  readonly currency: FiatCurrency | Stablecoin;
}

/** Fee table, all amounts in stablecoin units as decimal strings (docs/decisions.md § FX quotes and the quote lock). */
export interface FeeTable {
  readonly methods: Record<PaymentMethod, string>;
  readonly networks: Record<Blockchain, string>;
  /** Added when the caller passes `optionalIssuerFee: YES`. */
  readonly issuerFee: string;
}

/** A card/merchant acquirer that carries out transfer requests (OpenAPI createTransferRequest). `{token}` in the template is replaced by a signed token. */
export interface Acquirer {
  readonly key: string;
  readonly name: string;
  readonly deeplinkTemplate: string;
}

/**
 * One row of the payout routing table (docs/decisions.md § Payout providers: routing and failover):
 * payments to `country` by `method`, with one of `codes` as paymentCode (operator or bank code; no
 * `codes` means every code the method offers there), go to `providers` in that order. Provider
 * names are `PayoutProvider.name` values (`mpesa`, `mtn_momo`, `paystack`, `flutterwave`, `pawapay`). `strategy` says how
 * the payout worker orders them (docs/decisions.md § Payout providers: routing on measured
 * success); absent, `DEFAULT_ROUTING_STRATEGY`.
 */
export interface PayoutRouteRow {
  readonly country: CountryCode;
  readonly method: PaymentMethod;
  readonly codes?: readonly string[];
  readonly providers: readonly string[];
  readonly strategy?: RoutingStrategy;
}

/**
 * The corridor catalog (docs/decisions.md § Corridor catalog): reference data loaded from a validated data file at boot.
 * Reference rates are units of fiat per 1 stablecoin, decimal strings.
 */
export interface Catalog {
  readonly countries: Partial<Record<CountryCode, CountryCorridor>>;
  readonly fees: FeeTable;
  readonly defaultBlockchain: Blockchain;
  readonly rates: Partial<Record<FiatCurrency, Partial<Record<Stablecoin, string>>>>;
  /** Bank codes `POST /account/resolve` accepts: the seven resolution bank codes (docs/decisions.md § Corridor catalog). */
  readonly resolutionBankCodes: readonly string[];
  /** Wallet issuers of `POST /id/resolve`, in the order OpenAPI resolveIdentifier lists them. */
  readonly walletIssuers: readonly WalletIssuer[];
  /** Acquirers of transfer requests (OpenAPI createTransferRequest: <ACQ_1> to <ACQ_3>). */
  readonly acquirers: readonly Acquirer[];
  /** The payment processor values of transfer requests (OpenAPI createTransferRequest: a single value). */
  readonly paymentProcessors: readonly string[];
  /** Which live payout providers carry which corridor, in order (empty: no live payouts anywhere). */
  readonly payoutRoutes: readonly PayoutRouteRow[];
}

/** The corridor of `country`, or undefined when the catalog does not serve it. */
export function corridorOf(catalog: Catalog, country: CountryCode): CountryCorridor | undefined {
  return catalog.countries[country];
}

/** The country whose currency is `currency`, when exactly one corridor uses it (FX default country). */
export function soleCountryOf(catalog: Catalog, currency: FiatCurrency): CountryCode | undefined {
  const matches = (Object.keys(catalog.countries) as CountryCode[]).filter(
    (code) => catalog.countries[code]?.currency === currency,
  );
  return matches.length === 1 ? matches[0] : undefined;
}

/**
 * The provider names the routing table lists for a payment to `country` by `method` with
 * `paymentCode`, in order: the first row naming the code wins, else the first row for the method
 * without codes; empty when no row matches (docs/decisions.md § Payout providers: routing and failover).
 */
export function routedProviderNames(catalog: Catalog, country: CountryCode, method: PaymentMethod, paymentCode: string): readonly string[] {
  return payoutRouteOf(catalog, country, method, paymentCode).providers;
}

/**
 * The routing table's providers for a payment (as `routedProviderNames`) and the row's strategy
 * (`DEFAULT_ROUTING_STRATEGY` when the row names none or no row matches). Pure.
 */
export function payoutRouteOf(
  catalog: Catalog, country: CountryCode, method: PaymentMethod, paymentCode: string,
): { readonly providers: readonly string[]; readonly strategy: RoutingStrategy } {
  const rows = catalog.payoutRoutes.filter((row) => row.country === country && row.method === method);
  const row = rows.find((r) => r.codes?.includes(paymentCode)) ?? rows.find((r) => r.codes === undefined);
  return { providers: row?.providers ?? [], strategy: row?.strategy ?? DEFAULT_ROUTING_STRATEGY };
}

/**
 * Whether the service pays out in `currency` for real: some country paying in it has a routing
 * table row with a provider (docs/decisions.md § Corridor catalog: what is quoted is paid). Only
 * those currencies are quoted (`GET /fx/convert`), for every tenant. Pure.
 */
export function paysOutIn(catalog: Catalog, currency: FiatCurrency): boolean {
  return catalog.payoutRoutes.some((row) => row.providers.length > 0 && catalog.countries[row.country]?.currency === currency);
}
