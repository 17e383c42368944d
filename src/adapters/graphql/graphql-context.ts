import type { Principal } from '../../core/auth/api-key';
import type { Application } from '../../core/application';
import type { PaymentStatus } from '../../core/payments/payment';
import type { DepositStatus, DepositView } from '../../core/deposits/deposit';
import type { PaymentView } from '../../core/payments/payment-view';

/** Source of live payment changes of one tenant, already filtered (the in-process tenant bus). */
export interface PaymentUpdates {
  /** Views published for `tenantId` from now on that pass `accept`; `return()` unsubscribes. */
  subscribe(tenantId: string, accept?: (view: PaymentView) => boolean): AsyncIterableIterator<PaymentView>;
}

/** Source of live deposit changes of one tenant, already filtered (the in-process deposit bus). */
export interface DepositUpdates {
  /** Views published for `tenantId` from now on that pass `accept`; `return()` unsubscribes. */
  subscribe(tenantId: string, accept?: (view: DepositView) => boolean): AsyncIterableIterator<DepositView>;
}

/** Where a WebSocket subscription's events go: its graphql-ws operation id and its socket. */
export interface SubscriptionDelivery {
  /** graphql-ws operation id of this subscription on its socket. */
  readonly id: string;
  /** Sends one complete graphql-ws message (a JSON string) on the socket, if it is still open. */
  send(message: string): void;
}

/**
 * What every resolver receives: the bound use cases, the authenticated caller and the
 * tenant every read and write is scoped to. Built per HTTP request and per WebSocket operation.
 */
export interface GraphqlContext {
  readonly app: Application;
  readonly principal: Principal;
  /** The caller's tenant; GraphQL serves issuer keys that belong to a tenant only. */
  readonly tenantId: string;
  readonly updates: PaymentUpdates;
  readonly depositUpdates: DepositUpdates;
  /** Set for WebSocket subscriptions only. */
  readonly delivery?: SubscriptionDelivery;
}

/** Arguments of `paymentUpdated`: both optional, combined with AND (docs/decisions.md § GraphQL). */
export interface PaymentUpdatedArgs {
  readonly paymentId?: string | null;
  readonly status?: readonly PaymentStatus[] | null;
}

/** True when `view` passes the `paymentUpdated` arguments. Pure. */
export function matchesPaymentUpdated(args: PaymentUpdatedArgs, view: PaymentView): boolean {
  if (args.paymentId && view.id !== args.paymentId) return false;
  return !args.status || args.status.length === 0 || args.status.includes(view.status);
}

/** Arguments of `depositUpdated`: both optional, combined with AND. */
export interface DepositUpdatedArgs {
  readonly depositId?: string | null;
  readonly status?: readonly DepositStatus[] | null;
}

/** True when `view` passes the `depositUpdated` arguments. Pure. */
export function matchesDepositUpdated(args: DepositUpdatedArgs, view: DepositView): boolean {
  if (args.depositId && view.id !== args.depositId) return false;
  return !args.status || args.status.length === 0 || args.status.includes(view.status);
}
