import { HOLD_MOVE } from '../ledger/ledger';
import { price } from '../quotes/pricing';
import type { Catalog } from '../catalog/catalog';
import { pricingRecordOf, type RateBasis } from '../quotes/pricing-record';
import type { IdGenerator } from '../shared/clock';
import type { ValidMoneyOut } from './money-out-rules';
import { Payment } from './payment';
import type { NewPaymentWrite } from './payment-ports';
import { toPaymentView, type PaymentView } from './payment-view';

/** The idempotency operation a money-out is stored under. */
export const MONEY_OUT_OPERATION = 'moneyout';

/** What building a new payment needs: the catalog to price it, ids, and how long its key is remembered, in hours. */
export interface NewPaymentDeps {
  readonly catalog: Catalog;
  readonly ids: IdGenerator;
  readonly idempotencyTtlHours: number;
}

/**
 * What a new payment is made of: who asks, under which key and fingerprint, at what rate (a decimal
 * string) and from what basis (its quote's, or the current rate's; null for a quote stored before
 * pricing records were kept), when, with which id.
 */
export interface NewPaymentInput {
  readonly tenantId: string;
  readonly key: string;
  readonly fingerprint: string;
  readonly command: ValidMoneyOut;
  readonly rate: string;
  readonly basis: RateBasis | null;
  readonly now: Date;
  readonly paymentId: string;
  /**
   * Held by sanctions screening (docs/decisions.md § Screening): written without a next look, so
   * the payout worker never claims it until a compliance review clears it.
   */
  readonly held?: boolean;
}

/**
 * Everything a new money-out writes (NewPaymentWrite: the payment priced at `rate` in `initiated`,
 * with its pricing record,
 * its `payment.initiated` event, its view stored under the idempotency key, and its hold), and the
 * view it answers with (OpenAPI createMoneyOut; docs/decisions.md § Payments: states and events,
 * § Idempotency, § Ledger). Pure but for the ids it draws.
 */
export function newPaymentWrite(deps: NewPaymentDeps, input: NewPaymentInput): { write: NewPaymentWrite; view: PaymentView } {
  const { tenantId, key, fingerprint, command, now, paymentId } = input;
  const pricing = price(deps.catalog, {
    fiatCurrency: command.destinationCurrency,
    stablecoin: command.sourceCurrency,
    fiatAmount: command.amount,
    paymentMethod: command.paymentMethod,
    country: command.country,
    blockchain: command.blockchain,
    optionalIssuerFee: command.optionalIssuerFee,
    exchangeRate: input.rate,
  });
  const payment = new Payment({
    id: paymentId,
    tenantId,
    status: 'initiated',
    paymentMethod: command.paymentMethod,
    sourceCurrency: command.sourceCurrency,
    destinationCurrency: command.destinationCurrency,
    country: command.country,
    blockchain: command.blockchain,
    amountStablecoin: pricing.amountStablecoin,
    fiatAmount: command.amount.toString(),
    exchangeRate: pricing.exchangeRate,
    payoutFee: pricing.payoutFee,
    accountName: command.accountName,
    accountNumber: command.accountNumber,
    paymentCode: command.paymentCode,
    businessNumber: command.businessNumber ?? null,
    reference: command.reference,
    refundAddress: command.refundAddress,
    optionalIssuerFee: command.optionalIssuerFee,
    quoteId: command.quoteId ?? null,
    providerRef: null,
    provider: null,
    submittedAt: null,
    failureReason: null,
    failureCode: null,
    nextActionAt: input.held ? null : now,
    attempts: 0,
    acceptedAt: null,
    createdAt: now,
    updatedAt: now,
    pricing: input.basis ? pricingRecordOf(input.basis, pricing) : null,
  });
  const view = toPaymentView(payment);
  const write: NewPaymentWrite = {
    payment,
    event: { id: deps.ids.uuid(), tenantId, type: 'payment.initiated', entityId: payment.id, payload: { ...view }, createdAt: now },
    idempotency: {
      tenantId, key, operation: MONEY_OUT_OPERATION, fingerprint, responseBody: view,
      resourceId: payment.id, createdAt: now, expiresAt: new Date(now.getTime() + deps.idempotencyTtlHours * 3_600_000),
    },
    // Last, so the tenant's balance slot stays locked only from here to commit (docs/decisions.md § Ledger).
    hold: {
      tenantId, currency: payment.sourceCurrency, amount: payment.amountStablecoin, ...HOLD_MOVE,
      paymentId: payment.id, requireFunds: true, at: now,
    },
  };
  return { write, view };
}
