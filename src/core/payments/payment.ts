import type { Blockchain, CountryCode, PaymentMethod } from '../catalog/catalog';
import type { IssuerFeeOption } from '../quotes/pricing';
import type { PricingRecord } from '../quotes/pricing-record';
import type { PaymentFailureCode } from './payment-failure';
import type { FiatCurrency, Stablecoin } from '../shared/money';

/** Payment states (docs/decisions.md § Payments: states and events). */
export const PAYMENT_STATUSES = ['initiated', 'provider_accepted', 'succeeded', 'failed', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * A payout of fiat to one recipient, funded by a stablecoin (OpenAPI getPayment; docs/decisions.md § Payments: states and events).
 * Amounts are decimal strings at the currency's scale (`amountStablecoin` scale 6, `fiatAmount`
 * ISO 4217). `nextActionAt` is when the payout worker should next look at it (null once final);
 * while a worker holds it, it is the end of that worker's lease.
 */
export class Payment {
  id!: string;
  tenantId!: string;
  status!: PaymentStatus;
  paymentMethod!: PaymentMethod;
  sourceCurrency!: Stablecoin;
  destinationCurrency!: FiatCurrency;
  country!: CountryCode;
  blockchain!: Blockchain;
  amountStablecoin!: string;
  fiatAmount!: string;
  /** Units of fiat per 1 stablecoin used to price this payment. */
  exchangeRate!: string;
  /** Fees included in amountStablecoin, in the stablecoin. */
  payoutFee!: string;
  accountName!: string;
  accountNumber!: string;
  paymentCode!: string;
  businessNumber!: string | null;
  reference!: string | null;
  refundAddress!: string;
  optionalIssuerFee!: IssuerFeeOption;
  quoteId!: string | null;
  providerRef!: string | null;
  /**
   * The payout provider (`PayoutProvider.name`) this payment was last handed to, and once accepted
   * the one that has it: its status queries and callbacks go there. Admin views only, never the
   * issuer's Payment shape (docs/decisions.md § Payout providers: routing and failover).
   */
  provider!: string | null;
  /**
   * Submission marker: set, durably, before a submit call to `provider` and cleared only when that
   * provider certainly did not take it. While set on an `initiated` payment, the next step is a
   * status query at `provider`, never a new submission (docs/decisions.md § Payout providers: never pay twice).
   */
  submittedAt!: Date | null;
  failureReason!: string | null;
  /** Machine-readable class of `failureReason` (docs/api.md § Failure codes); null unless failed or refunded. */
  failureCode!: PaymentFailureCode | null;
  nextActionAt!: Date | null;
  /** Times a worker has claimed this payment; drives the back-off after provider faults. */
  attempts!: number;
  acceptedAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
  /**
   * How it was priced (docs/decisions.md § FX quotes: pricing records): its quote's basis when it
   * used one, else the basis of the current rate it was priced at; null on payments stored before
   * records were kept. Admin views only.
   */
  pricing?: PricingRecord | null;

  constructor(props: PaymentProps) {
    Object.assign(this, props);
  }
}

export type PaymentProps = { [K in keyof Payment]: Payment[K] };
