import type { Blockchain, CountryCode, PaymentMethod } from '../catalog/catalog';
import type { FiatCurrency, Stablecoin } from '../shared/money';
import type { IssuerFeeOption } from './pricing';
import type { PricingRecord } from './pricing-record';

/**
 * A stored FX quote (docs/decisions.md § FX quotes and the quote lock): `quo_<ULID>`, owned by one tenant, valid until `expiresAt`.
 * Amounts are decimal strings: `fiatAmount` in `fiatCurrency`, fee and total in `stablecoin`.
 * It locks its rate for ONE money-out of its amount, pair and method: `usedAt` and `paymentId`
 * are set by the money-out that used it (docs/decisions.md § FX quotes and the quote lock).
 */
export class Quote {
  id!: string;
  tenantId!: string;
  fiatCurrency!: FiatCurrency;
  stablecoin!: Stablecoin;
  fiatAmount!: string;
  exchangeRate!: string;
  payoutFee!: string;
  convertedAmount!: string;
  paymentMethod!: PaymentMethod;
  country!: CountryCode | null;
  blockchain!: Blockchain;
  optionalIssuerFee!: IssuerFeeOption;
  expiresAt!: Date;
  createdAt!: Date;
  /** When a money-out used the quote; null while unused. */
  usedAt!: Date | null;
  /** The payment (`pay_...`) that used the quote; null while unused. */
  paymentId!: string | null;
  /** How it was priced: mid, spread, sources, fee (docs/decisions.md § FX quotes: pricing records); null on quotes stored before records were kept. */
  pricing?: PricingRecord | null;

  constructor(props: QuoteProps) {
    Object.assign(this, props);
  }
}

export type QuoteProps = { [K in keyof Quote]: Quote[K] };

/** Port: quote storage. Reads are tenant-scoped: another tenant's quote is never returned. */
export interface QuoteRepository {
  insert(quote: Quote): Promise<void>;
  findForTenant(tenantId: string, quoteId: string): Promise<Quote | undefined>;
  /**
   * Marks the tenant's quote used by `paymentId` at `at`, in the caller's transaction, only if no
   * money-out used it yet: false when one did. The row stays locked until commit, so of
   * concurrent uses exactly one gets true; a rollback (the payment refused) frees the quote again.
   */
  consume(tenantId: string, quoteId: string, paymentId: string, at: Date): Promise<boolean>;
}

/** Port: quotes across tenants, for operators only (OpenAPI adminGetQuote). */
export interface QuoteReader {
  findById(quoteId: string): Promise<Quote | undefined>;
}
