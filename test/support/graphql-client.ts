import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { TestService } from './test-service';

/** Answer of one GraphQL request over HTTP. */
export interface GqlResult {
  status: number;
  headers: Headers;
  body: any;
}

/** POSTs one GraphQL operation to `baseUrl`/graphql, with `apiKey` as a bearer key when given. */
export async function gql(baseUrl: string, query: string, variables: Record<string, unknown> = {}, apiKey?: string): Promise<GqlResult> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const response = await fetch(`${baseUrl}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** The graphql-ws address of a service. */
export function wsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/^http/, 'ws')}/graphql`;
}

/** A live subscription over its own graphql-ws connection, collecting what arrives. */
export interface LiveSubscription {
  readonly client: Client;
  /** Every `next` payload, in arrival order. */
  readonly results: any[];
  /** Errors reported for the operation (error messages or a closed socket). */
  readonly errors: unknown[];
  /** Resolves with the results once `predicate` holds for them (polling every 10 ms); rejects after `timeoutMs`. */
  until(predicate: (results: any[]) => boolean, timeoutMs?: number): Promise<any[]>;
  dispose(): Promise<void>;
}

/** Opens a connection authenticated by `apiKey` and subscribes `query` with `variables`. */
export function subscribe(baseUrl: string, apiKey: string, query: string, variables: Record<string, unknown> = {}): LiveSubscription {
  const client = createClient({
    url: wsUrl(baseUrl), webSocketImpl: WebSocket, connectionParams: { authorization: apiKey }, retryAttempts: 0, lazy: true,
  });
  const results: any[] = [];
  const errors: unknown[] = [];
  const stop = client.subscribe({ query, variables }, {
    next: (value) => void results.push(value),
    error: (error) => void errors.push(error),
    complete: () => undefined,
  });
  return {
    client, results, errors,
    async until(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(results)) {
        if (Date.now() > deadline) throw new Error(`subscription condition not met; got ${JSON.stringify(results)} errors ${JSON.stringify(errors)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return results;
    },
    async dispose() {
      stop();
      await client.dispose();
    },
  };
}

/** Waits until `service` has at least `count` subscriptions registered (so no event can be missed). */
export async function subscribed(service: TestService, count: number, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (service.container.graphql.groups.subscriberCount < count) {
    if (Date.now() > deadline) throw new Error(`only ${service.container.graphql.groups.subscriberCount} of ${count} subscriptions registered`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Opens a raw graphql-transport-ws socket, sends connection_init with `payload`, resolves with the close code and reason (or 'acked'). */
export function connectRaw(baseUrl: string, payload: Record<string, unknown> | undefined): Promise<{ code: number; reason: string } | 'acked'> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl(baseUrl), 'graphql-transport-ws');
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', ...(payload ? { payload } : {}) })));
    socket.on('message', (data) => {
      if (JSON.parse(String(data)).type === 'connection_ack') {
        resolve('acked');
        socket.close(1000);
      }
    });
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) }));
    socket.on('error', reject);
  });
}

/** The fields of Payment as GraphQL selects them (every field of the REST Payment, OpenAPI getPayment, and the four extras). */
export const PAYMENT_FIELDS = `id status paymentMethod sourceCurrency amountStablecoin fiatAmount destinationCurrency
  providerRef reference createdAt updatedAt failureReason failureCode exchangeRate payoutFee
  refund { id paymentId amount currency blockchain refundAddress status txHash createdAt sentAt }`;

/**
 * A REST object as GraphQL writes it: each of `fields` (enum fields) as its GraphQL enum value name,
 * SCREAMING_SNAKE_CASE (`provider_accepted` → PROVIDER_ACCEPTED, `in_transit` → IN_TRANSIT); every
 * other field is already equal.
 */
export function withEnumNames<T extends object>(rest: T, fields: readonly string[]): T {
  const copy = { ...rest } as Record<string, unknown>;
  for (const field of fields) {
    const value = copy[field];
    if (typeof value === 'string') copy[field] = value.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();
  }
  return copy as T;
}

/** A REST payment as GraphQL writes it: `status` and `failureCode` as their enum value names. */
export function restPaymentInGraphql<T extends { status: string }>(rest: T): T {
  const payment = withEnumNames(rest, ['status', 'failureCode']) as T & { refund?: { status: string } | null };
  return payment.refund ? { ...payment, refund: withEnumNames(payment.refund, ['status']) } : payment;
}

/** A REST ledger transaction as GraphQL writes it: kind, from and to as enum value names. */
export const restTransactionInGraphql = (rest: object) => withEnumNames(rest, ['kind', 'from', 'to']);

/** A REST customer as GraphQL writes it: kycStatus as its enum value name (idType is already upper case). */
export const restCustomerInGraphql = (rest: object) => withEnumNames(rest, ['kycStatus', 'idType']);
