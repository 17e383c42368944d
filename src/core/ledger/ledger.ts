import type { KeysetPage } from '../shared/keyset-page';
import type { Stablecoin } from '../shared/money';
import type { PaymentMove } from '../payments/payment-state';

/**
 * Ledger accounts of one tenant in one stablecoin (docs/decisions.md § Ledger). The first three are the tenant's
 * balance; the others are the service's counter-accounts, kept per tenant so no single row is
 * shared by every tenant. `funding` goes negative by what was deposited. `refund_pending` holds a
 * live payment's failed or reversed amount until an operator records the onchain refund.
 */
export const ACCOUNT_KINDS = ['available', 'held', 'in_transit', 'funding', 'settled', 'refunded', 'refund_pending'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

/**
 * Why money moved. `deposit` is an onchain deposit (one per chain, hash and index, see
 * core/deposits `Deposit`);
 * `sandbox_funding` is a sandbox tenant's opening balance, credited by the service itself and never
 * onchain; `refund_sent` moves a live payment's refund out once its onchain transaction is recorded
 * (docs/decisions.md § Ledger).
 */
export const LEDGER_TRANSACTION_KINDS = ['deposit', 'sandbox_funding', 'hold', 'send', 'release', 'settle', 'return', 'refund_sent'] as const;
export type LedgerTransactionKind = (typeof LEDGER_TRANSACTION_KINDS)[number];

/**
 * One double-entry transfer: `amount` (positive decimal string, stablecoin units) leaves `from`
 * and enters `to`, as one ledger transaction of two entries summing to zero.
 */
export interface Transfer {
  readonly tenantId: string;
  readonly currency: Stablecoin;
  readonly from: AccountKind;
  readonly to: AccountKind;
  readonly amount: string;
  readonly kind: LedgerTransactionKind;
  readonly paymentId?: string;
  /** `<blockchain>:<canonical hash>[:<index>]` of a deposit (`depositExternalRef`), shown as the transaction's `txHash`. */
  readonly externalRef?: string;
  /** The ledger transaction's id (`ldg_...`) when the caller must know it (a deposit records it); else one is made. */
  readonly transactionId?: string;
  /**
   * Refuse (`insufficient_funds`) instead of letting `from` go below zero. Only a money-out's hold
   * requires funds, and it is posted with its payment (PaymentStore.create, OneTripPaymentWriter).
   */
  readonly requireFunds?: boolean;
  readonly at: Date;
}

/** A transfer that moves what is there without a funds check: deposits, sandbox funding, refunds sent. */
export type UncheckedTransfer = Omit<Transfer, 'requireFunds'> & { readonly requireFunds?: never };

/** Port: posts transfers inside the caller's transaction (docs/decisions.md § Ledger). */
export interface LedgerStore {
  /**
   * Posts `transfer`, unchecked: a transfer that must be covered (a hold) is posted with its payment
   * by PaymentStore.create, never here. Returns `duplicate` when the external reference or the
   * payment's move was already posted (nothing written).
   */
  post(transfer: UncheckedTransfer): Promise<'posted' | 'duplicate'>;
}

/** Funds move for a money-out's creation: available to held, refused when it does not fit. */
export const HOLD_MOVE = { from: 'available', to: 'held', kind: 'hold' } as const;

/** How each payment move moves its held funds (docs/decisions.md § Ledger). Data, like the state machine. */
export const LEDGER_MOVES: Readonly<Record<PaymentMove, { from: AccountKind; to: AccountKind; kind: LedgerTransactionKind }>> = {
  accept: { from: 'held', to: 'in_transit', kind: 'send' },
  reject: { from: 'held', to: 'available', kind: 'release' },
  complete: { from: 'in_transit', to: 'settled', kind: 'settle' },
  fail: { from: 'in_transit', to: 'refunded', kind: 'return' },
  refund: { from: 'in_transit', to: 'refunded', kind: 'return' },
};

/**
 * A live tenant's return after acceptance (docs/decisions.md § Ledger): the amount waits in
 * `refund_pending` until its onchain refund is recorded, instead of counting as `refunded` at once.
 */
export const LIVE_RETURN_MOVE = { from: 'in_transit', to: 'refund_pending', kind: 'return' } as const;

/** A tenant's balance in one stablecoin, decimal strings at scale 6 (GET /v1/balances). */
export interface BalanceView {
  currency: Stablecoin;
  available: string;
  held: string;
  inTransit: string;
}

/** A ledger transaction as listed (GET /v1/balances/transactions). */
export interface LedgerTransactionView {
  id: string;
  kind: LedgerTransactionKind;
  currency: Stablecoin;
  /** Positive decimal string at scale 6. */
  amount: string;
  from: AccountKind;
  to: AccountKind;
  paymentId: string | null;
  txHash: string | null;
  createdAt: string;
}

/** Port: balance reads, tenant-scoped. */
export interface LedgerReader {
  balances(tenantId: string): Promise<BalanceView[]>;
  /** Newest first; `nextCursor` when more follow; 'bad_cursor' for a cursor this store did not issue. */
  transactions(tenantId: string, limit: number, cursor?: string): Promise<KeysetPage<LedgerTransactionView> | 'bad_cursor'>;
  /** One transaction of the tenant by id (ldg_…); undefined when the tenant has none with that id. */
  transaction(tenantId: string, transactionId: string): Promise<LedgerTransactionView | undefined>;
}
