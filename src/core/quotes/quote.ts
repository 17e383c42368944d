import type { Blockchain, CountryCode, PaymentMethod } from '../catalog/catalog';
import type { FiatCurrency, Stablecoin } from '../shared/money';
import type { IssuerFeeOption } from './pricing';

/**
 * A stored FX quote (DESIGN.md 3): `quo_<ULID>`, owned by one tenant, valid until `expiresAt`.
 * Amounts are decimal strings: `fiatAmount` in `fiatCurrency`, fee and total in `stablecoin`.
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

  constructor(props: QuoteProps) {
    Object.assign(this, props);
  }
}

export type QuoteProps = { [K in keyof Quote]: Quote[K] };

/** Port: quote storage. Reads are tenant-scoped: another tenant's quote is never returned. */
export interface QuoteRepository {
  insert(quote: Quote): Promise<void>;
  findForTenant(tenantId: string, quoteId: string): Promise<Quote | undefined>;
}
