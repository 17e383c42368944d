import { formatAmount } from '../shared/money';
import type { Payment, PaymentStatus } from './payment';
import type { PaymentFailureCode } from './payment-failure';

/**
 * The public representation of a payment (OpenAPI getPayment plus `failureReason` and `failureCode`; docs/decisions.md § Payments: states and events),
 * returned by REST, carried by webhooks and mapped by GraphQL. Amounts are decimal strings,
 * times ISO 8601 UTC.
 */
export interface PaymentView {
  id: string;
  status: PaymentStatus;
  paymentMethod: Payment['paymentMethod'];
  sourceCurrency: Payment['sourceCurrency'];
  amountStablecoin: string;
  fiatAmount: string;
  destinationCurrency: Payment['destinationCurrency'];
  providerRef: string | null;
  reference: string | null;
  createdAt: string;
  updatedAt: string;
  failureReason: string | null;
  /** Machine-readable class of `failureReason` (docs/api.md § Failure codes); null unless failed or refunded. */
  failureCode: PaymentFailureCode | null;
  /** Units of fiat per 1 stablecoin used for this payment (beyond the interface). */
  exchangeRate: string;
  /** Fees included in amountStablecoin, in the stablecoin (beyond the interface). */
  payoutFee: string;
}

/** What a payment's public view is made of: the stored fields it shows, nothing else (no recipient details). */
export type PaymentViewSource = Pick<
  Payment,
  'id' | 'status' | 'paymentMethod' | 'sourceCurrency' | 'amountStablecoin' | 'fiatAmount' | 'destinationCurrency' | 'providerRef'
  | 'reference' | 'createdAt' | 'updatedAt' | 'failureReason' | 'failureCode' | 'exchangeRate' | 'payoutFee'
>;

/** Maps a payment (or just the fields its view shows) to its public view, amounts padded to their currency's scale. Pure. */
export function toPaymentView(payment: PaymentViewSource): PaymentView {
  return {
    id: payment.id,
    status: payment.status,
    paymentMethod: payment.paymentMethod,
    sourceCurrency: payment.sourceCurrency,
    amountStablecoin: formatAmount(payment.amountStablecoin, payment.sourceCurrency),
    fiatAmount: formatAmount(payment.fiatAmount, payment.destinationCurrency),
    destinationCurrency: payment.destinationCurrency,
    providerRef: payment.providerRef,
    reference: payment.reference,
    createdAt: payment.createdAt.toISOString(),
    updatedAt: payment.updatedAt.toISOString(),
    failureReason: payment.failureReason,
    failureCode: payment.failureCode,
    exchangeRate: payment.exchangeRate,
    payoutFee: formatAmount(payment.payoutFee, payment.sourceCurrency),
  };
}

/**
 * The view of `payment` as `patch` leaves it (the payload of a move's event). It reads through to
 * `payment` instead of copying it: a copy would open every sealed column of a stored payment. Pure.
 */
export function patchedView(payment: Payment, patch: Partial<Payment>): PaymentView {
  return toPaymentView(Object.assign(Object.create(payment) as Payment, patch));
}
