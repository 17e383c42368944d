import { Agent, request } from 'undici';

/**
 * What one HTTP call to a provider's JSON API came to (docs/decisions.md § Payments: states and events):
 * - `answer`: the provider (or something in front of it) answered; `body` is the parsed JSON, or
 *   `undefined` when the body was not JSON;
 * - `not_sent`: the connection was never made (refused, DNS, connect timeout), so the provider
 *   cannot have acted on the request;
 * - `maybe_sent`: the request may have reached the provider (response timeout, reset, aborted
 *   body): whatever it asked for may have happened.
 */
export type JsonCall =
  | { readonly kind: 'answer'; readonly httpStatus: number; readonly body: unknown }
  | { readonly kind: 'not_sent'; readonly reason: string }
  | { readonly kind: 'maybe_sent'; readonly reason: string };

/** One request: method, path under the base URL, query and JSON body. */
export interface JsonRequest {
  readonly method: 'GET' | 'POST';
  /** Path with a leading slash; path parameters already encoded. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: unknown;
}

/** What a bearer-key client needs of its provider's configuration. */
export interface BearerJsonSettings {
  /** Origin and any base path, no trailing slash. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <secretKey>`; never logged. */
  readonly secretKey: string;
  /** Most milliseconds to open a connection. */
  readonly connectTimeoutMs: number;
  /** Most milliseconds for the response headers, then for the body. */
  readonly responseTimeoutMs: number;
}

/** Socket error codes that mean no connection was made, so nothing was sent. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * HTTP client of a provider API whose secret key is the credential on every call (`Authorization:
 * Bearer <secret key>`, no token exchange: Paystack, Flutterwave v3), JSON in and out, over one
 * keep-alive pool with an explicit connect timeout and response timeout. Never throws for a
 * transport fault: every outcome is a `JsonCall`. Never logs.
 */
export class BearerJsonClient {
  private readonly agent: Agent;
  private readonly authorization: string;
  private aborted = false;

  constructor(private readonly settings: BearerJsonSettings) {
    this.authorization = `Bearer ${settings.secretKey}`;
    this.agent = new Agent({ keepAliveTimeout: 30_000, connections: 32, connect: { timeout: settings.connectTimeoutMs } });
  }

  /** Sends `call` and reads the answer; see `JsonCall` for the classification. */
  async send(call: JsonRequest): Promise<JsonCall> {
    if (this.aborted) return { kind: 'not_sent', reason: 'the service is stopping' };
    const url = new URL(this.settings.baseUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { authorization: this.authorization, accept: 'application/json' };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const limit = this.settings.responseTimeoutMs;
    try {
      const response = await request(url, {
        method: call.method,
        headers,
        ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
        dispatcher: this.agent,
        headersTimeout: limit,
        bodyTimeout: limit,
        signal: AbortSignal.timeout(this.settings.connectTimeoutMs + 2 * limit),
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
