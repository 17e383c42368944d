import { Agent, request } from 'undici';
import { z } from 'zod';
import type { FlutterwaveConfig } from './flutterwave-config';

/**
 * What one HTTP call to Flutterwave came to (docs/decisions.md § Payments: states and events):
 * - `answer`: Flutterwave (or something in front of it) answered; `body` is the parsed JSON, or
 *   `undefined` when the body was not JSON;
 * - `not_sent`: the connection was never made (refused, DNS, connect timeout), so Flutterwave cannot
 *   have acted on the request;
 * - `maybe_sent`: the request may have reached Flutterwave (response timeout, reset, aborted body):
 *   whatever it asked for may have happened.
 */
export type FlutterwaveCall =
  | { readonly kind: 'answer'; readonly httpStatus: number; readonly body: unknown }
  | { readonly kind: 'not_sent'; readonly reason: string }
  | { readonly kind: 'maybe_sent'; readonly reason: string };

/**
 * Flutterwave's error body: `{status: "error", message, data}` (v3 API reference samples,
 * https://developer.flutterwave.com/reference/endpoints/transfers/).
 */
export const flutterwaveErrorBody = z.object({ status: z.literal('error'), message: z.string() });

/** Flutterwave's success envelope around `data`: `{status: "success", message, data}` (v3 API reference samples). */
export function flutterwaveEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('success'), message: z.string(), data });
}

/** Socket error codes that mean no connection was made, so nothing was sent. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** One request: method, path under the base URL, query and JSON body. */
export interface FlutterwaveRequest {
  readonly method: 'GET' | 'POST';
  /** Path with a leading slash (`/v3/transfers`); path parameters already encoded. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: unknown;
}

/**
 * HTTP client of the Flutterwave v3 API (https://developer.flutterwave.com/docs/authentication):
 * `Authorization: Bearer <secret key>` on every call (v3 has no token exchange: the secret key is the credential),
 * JSON in and out, over one keep-alive pool with an explicit connect timeout and response timeout.
 * Never throws for a transport fault: every outcome is a `FlutterwaveCall`. Never logs.
 */
export class FlutterwaveClient {
  private readonly agent: Agent;
  private readonly authorization: string;
  private aborted = false;

  constructor(private readonly config: FlutterwaveConfig) {
    this.authorization = `Bearer ${config.secretKey}`;
    this.agent = new Agent({ keepAliveTimeout: 30_000, connections: 32, connect: { timeout: config.connectTimeoutMs } });
  }

  /** Sends `call` and reads the answer; see `FlutterwaveCall` for the classification. */
  async send(call: FlutterwaveRequest): Promise<FlutterwaveCall> {
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

/** The `message` of a Flutterwave error body, or a generic text naming the HTTP status. */
export function flutterwaveMessage(httpStatus: number, body: unknown): string {
  const parsed = flutterwaveErrorBody.safeParse(body);
  return parsed.success ? parsed.data.message.slice(0, 300) : `HTTP ${httpStatus} without a Flutterwave error body`;
}
