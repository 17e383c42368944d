import { randomUUID } from 'node:crypto';
import createClient, { type Client, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import { NoAnswerError, unwrap } from './errors';
import type { components, paths } from './generated/openapi';
import { nextPageUrl, queryOf } from './pagination';
import { abortableSleep, withRetries, type RetryEffects, type RetryPolicy } from './retry';

/** A payment as the API returns it (amounts are decimal strings; times ISO 8601 UTC). */
export type Payment = components['schemas']['Payment'];
/** The body of `POST /v1/payments/moneyout`. */
export type MoneyOutRequest = components['schemas']['MoneyOutRequest'];
/**
 * An onchain refund of a live payout that failed or was reversed (docs/api.md § Refunds): a
 * payment's `refund`, and an entry of `GET /v1/refunds` (`client.items('/v1/refunds', { params: { query: { status: ['failed'] } } })`).
 */
export type Refund = components['schemas']['Refund'];
/** A payment's status (docs/decisions.md § Payments: states and events). */
export type PaymentStatus = Payment['status'];

/** The statuses no move starts from: a payment in one of them never changes again. */
export const FINAL_PAYMENT_STATUSES: readonly PaymentStatus[] = ['succeeded', 'failed', 'refunded'];

type JsonOf<R> = R extends { content: { 'application/json': infer T } } ? T : never;
type GetOk<P extends keyof paths> = paths[P] extends { get: { responses: { 200: infer R } } } ? JsonOf<R> : never;

/** Every GET operation whose answer is a list (a JSON array, paged with `Link: <...>; rel="next"`). */
export type ListPath = { [P in keyof paths]: GetOk<P> extends readonly unknown[] ? P : never }[keyof paths];
/** One entry of the list `P` answers. */
export type ListItem<P extends ListPath> = GetOk<P> extends readonly (infer I)[] ? I : never;
/** The request options of the list `P` (path and query parameters, headers, signal). */
export type ListInit<P extends ListPath> = MaybeOptionalInit<paths[P], 'get'>;

/** How to reach and call the API. */
export interface PayoutClientOptions {
  /** The service's origin, e.g. `https://payouts.example.com` (no trailing slash). */
  readonly baseUrl: string;
  /** An API key, `sk_sandbox_...` or `sk_live_...`; sent as `Authorization: Bearer <key>` on every request. */
  readonly apiKey: string;
  /** Retries of 409 `idempotency_key_in_use`, 429, 503 and of a keyed request's network failure (see retry.ts); `{ maxAttempts: 1 }` turns them off. */
  readonly retry?: RetryPolicy;
  /** Timer, randomness and clock of the retries (tests replace them). */
  readonly retryEffects?: RetryEffects;
  /** The fetch to send requests with (default: the global fetch). */
  readonly fetch?: (request: Request) => Promise<Response>;
  /** Extra headers for every request, e.g. `{ 'X-Request-Id': ... }`. */
  readonly headers?: Record<string, string>;
}

/** What `moneyOut` answers: the payment, the idempotency key it was sent under, and whether it was a replay. */
export interface MoneyOutResult {
  readonly payment: Payment;
  /** Keep it until you have an answer: the same key and body again is always safe. */
  readonly idempotencyKey: string;
  /** True when the answer is the stored first answer to this key (`Idempotent-Replayed: true`). */
  readonly replayed: boolean;
}

/** How `watchPayment` polls. Durations in milliseconds. */
export interface WatchOptions {
  /** Time between two reads (default 500 ms). */
  readonly intervalMs?: number;
  /** Gives up with an Error after this long without a final status (default 120,000 ms). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** The SDK's client: every operation typed (`api`), plus the helpers an integrator needs first. */
export interface PayoutClient {
  /**
   * The openapi-fetch client over every REST operation (types from the service's OpenAPI
   * document): `const { data, error, response } = await client.api.GET('/v1/payments/{paymentId}', ...)`.
   * Wrap a call in `unwrap()` to get the data or a typed error. Authentication and retries apply;
   * `POST /v1/payments/moneyout` gets a fresh `Idempotency-Key` when the call passes none.
   */
  readonly api: Client<paths>;
  /**
   * `POST /v1/payments/moneyout`: creates a payout under `idempotencyKey` (a new UUID unless you
   * pass one, e.g. to retry after losing an answer). Throws the typed error of a refusal
   * (`ApiError` with `code` such as `insufficient_balance` or `idempotency_key_reused`), or
   * `NoAnswerError` when no usable answer came (network failure, timeout, abort); every error it
   * throws carries the `idempotencyKey` it used, to send the payout again under the same key.
   */
  moneyOut(body: MoneyOutRequest, options?: { idempotencyKey?: string; signal?: AbortSignal }): Promise<MoneyOutResult>;
  /**
   * The pages of a list, first to last, following `Link: <...>; rel="next"` as given; each page is
   * the array one request answered. Throws the typed error of a refused page.
   */
  pages<P extends ListPath>(path: P, init?: ListInit<P>): AsyncGenerator<ListItem<P>[], void, undefined>;
  /** The entries of a list, across all its pages, one at a time. */
  items<P extends ListPath>(path: P, init?: ListInit<P>): AsyncGenerator<ListItem<P>, void, undefined>;
  /**
   * Reads `GET /v1/payments/{paymentId}` every `intervalMs` and yields the payment each time its
   * status differs from the last one yielded (the first read included); ends after a final status
   * (`succeeded`, `failed`, `refunded`), throws an Error after `timeoutMs`.
   */
  watchPayment(paymentId: string, options?: WatchOptions): AsyncGenerator<Payment, void, undefined>;
}

const MONEY_OUT = '/v1/payments/moneyout';

/** Adds a fresh `Idempotency-Key` to a money-out that has none, before any retry, so every attempt carries the same key. */
const idempotencyKeyMiddleware: Middleware = {
  onRequest({ request, schemaPath }) {
    if (request.method === 'POST' && schemaPath === MONEY_OUT && !request.headers.has('idempotency-key')) {
      request.headers.set('idempotency-key', randomUUID());
    }
    return request;
  },
};

/** Creates a client for one API key. */
export function createPayoutClient(options: PayoutClientOptions): PayoutClient {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const api = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
    fetch: withRetries(send, options.retry, options.retryEffects),
  });
  api.use(idempotencyKeyMiddleware);

  async function* pages<P extends ListPath>(path: P, init?: ListInit<P>): AsyncGenerator<ListItem<P>[], void, undefined> {
    // The generic path defeats openapi-fetch's per-path overloads; the types are restored on the way out.
    const get = api.GET as unknown as (path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    let current = (init ?? {}) as { params?: Record<string, unknown> };
    for (;;) {
      const result = await get(path, current);
      yield unwrap(result) as ListItem<P>[];
      const next = nextPageUrl(result.response.headers.get('link'), result.response.url || options.baseUrl);
      if (!next) return;
      current = { ...current, params: { ...current.params, query: queryOf(next) } };
    }
  }

  return {
    api,
    async moneyOut(body, { idempotencyKey = randomUUID(), signal } = {}) {
      const result = await api.POST(MONEY_OUT, { body, params: { header: { 'idempotency-key': idempotencyKey } }, signal })
        .catch((error: unknown) => {
          // The service may have acted on a request whose answer was lost: only the key makes sending it again safe.
          throw new NoAnswerError(idempotencyKey, error);
        });
      const payment = unwrap(result, idempotencyKey);
      return { payment, idempotencyKey, replayed: result.response.headers.get('idempotent-replayed') === 'true' };
    },
    pages,
    async *items(path, init) {
      for await (const page of pages(path, init)) yield* page;
    },
    async *watchPayment(paymentId, { intervalMs = 500, timeoutMs = 120_000, signal } = {}) {
      const deadline = Date.now() + timeoutMs;
      let last: PaymentStatus | undefined;
      for (;;) {
        const payment = unwrap(await api.GET('/v1/payments/{paymentId}', { params: { path: { paymentId } }, signal }));
        if (payment.status !== last) {
          last = payment.status;
          yield payment;
        }
        if (FINAL_PAYMENT_STATUSES.includes(payment.status)) return;
        if (Date.now() + intervalMs > deadline) throw new Error(`Payment ${paymentId} still ${payment.status} after ${timeoutMs} ms`);
        await abortableSleep(intervalMs, signal);
      }
    },
  };
}
