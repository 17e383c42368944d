import { Agent, request } from 'undici';
import { z } from 'zod';
import type { PaystackConfig } from './paystack-config';

/**
 * What one HTTP call to Paystack came to (docs/decisions.md § Payments: states and events):
 * - `answer`: Paystack (or something in front of it) answered; `body` is the parsed JSON, or
 *   `undefined` when the body was not JSON;
 * - `not_sent`: the connection was never made (refused, DNS, connect timeout), so Paystack cannot
 *   have acted on the request;
 * - `maybe_sent`: the request may have reached Paystack (response timeout, reset, aborted body):
 *   whatever it asked for may have happened.
 */
export type PaystackCall =
  | { readonly kind: 'answer'; readonly httpStatus: number; readonly body: unknown }
  | { readonly kind: 'not_sent'; readonly reason: string }
  | { readonly kind: 'maybe_sent'; readonly reason: string };

/** Paystack's error body: `{status: false, message}` (official OpenAPI `components.schemas.Error`). */
export const paystackErrorBody = z.object({ status: z.literal(false), message: z.string() });

/** Paystack's success envelope around `data` (official OpenAPI responses). */
export function paystackEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal(true), message: z.string(), data });
}

/** Socket error codes that mean no connection was made, so nothing was sent. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** One request: method, path under the base URL, query and JSON body. */
export interface PaystackRequest {
  readonly method: 'GET' | 'POST';
  /** Path with a leading slash; path parameters already encoded. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: unknown;
}

/**
 * HTTP client of the Paystack API (https://paystack.com/docs/api/): `Authorization: Bearer
 * <secret key>` on every call (Paystack has no token exchange: the secret key is the credential),
 * JSON in and out, over one keep-alive pool with an explicit connect timeout and response timeout.
 * Never throws for a transport fault: every outcome is a `PaystackCall`. Never logs.
 */
export class PaystackClient {
  private readonly agent: Agent;
  private readonly authorization: string;
  private aborted = false;

  constructor(private readonly config: PaystackConfig) {
    this.authorization = `Bearer ${config.secretKey}`;
    this.agent = new Agent({ keepAliveTimeout: 30_000, connections: 32, connect: { timeout: config.connectTimeoutMs } });
  }

  /** Sends `call` and reads the answer; see `PaystackCall` for the classification. */
  async send(call: PaystackRequest): Promise<PaystackCall> {
    if (this.aborted) return { kind: 'not_sent', reason: 'the service is stopping' };
    const url = new URL(this.config.baseUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { authorization: this.authorization, accept: 'application/json' };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const limit = this.config.responseTimeoutMs;
    try {
      const response = await request(url, {
        method: call.method,
        headers,
        ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
        dispatcher: this.agent,
        headersTimeout: limit,
        bodyTimeout: limit,
        signal: AbortSignal.timeout(this.config.connectTimeoutMs + 2 * limit),
      });
      const text = await response.body.text();
      return { kind: 'answer', httpStatus: response.statusCode, body: parseJson(text) };
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
      const reason = describe(error, code);
      return code !== undefined && NOT_SENT_CODES.has(code) ? { kind: 'not_sent', reason } : { kind: 'maybe_sent', reason };
    }
  }

  /**
   * Aborts the calls in flight (each is `maybe_sent`) and sends no later one (`not_sent`): a stopping
   * service does not wait out a hung call (docs/decisions.md § Running it). Also closes the pool.
   */
  async close(): Promise<void> {
    this.aborted = true;
    await this.agent.destroy();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A short transport reason for logs: the error code and message, never a header. */
function describe(error: unknown, code: string | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  return `${code ?? (error instanceof Error ? error.name : 'error')}: ${message}`.slice(0, 300);
}

/** The `message` of a Paystack error body, or a generic text naming the HTTP status. */
export function paystackMessage(httpStatus: number, body: unknown): string {
  const parsed = paystackErrorBody.safeParse(body);
  return parsed.success ? parsed.data.message.slice(0, 300) : `HTTP ${httpStatus} without a Paystack error body`;
}
