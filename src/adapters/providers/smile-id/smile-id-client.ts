import { Agent, request } from 'undici';
import type { SmileIdConfig } from './smile-id-config';

/**
 * What one HTTP call to Smile ID came to:
 * - `answer`: Smile ID (or something in front of it) answered; `body` is the parsed JSON, or
 *   `undefined` when the body was not JSON;
 * - `not_sent`: the connection was never made, so Smile ID cannot have acted on the request;
 * - `maybe_sent`: the request may have reached Smile ID (timeout, reset): it may have acted.
 */
export type SmileIdCall =
  | { readonly kind: 'answer'; readonly httpStatus: number; readonly body: unknown }
  | { readonly kind: 'not_sent'; readonly reason: string }
  | { readonly kind: 'maybe_sent'; readonly reason: string };

/** Socket error codes that mean no connection was made, so nothing was sent. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * HTTP client of Smile ID's REST API (https://docs.usesmileid.com/integration-options/rest-api):
 * every call is a JSON `POST` under the base URL, authenticated by the signature fields the caller
 * puts in the body (smile-id-signature.ts), over one keep-alive pool with explicit connect and
 * response timeouts. Never throws for a transport fault; never logs.
 */
export class SmileIdClient {
  private readonly agent: Agent;
  private closed = false;

  constructor(private readonly config: Pick<SmileIdConfig, 'baseUrl' | 'connectTimeoutMs' | 'responseTimeoutMs'>) {
    this.agent = new Agent({ keepAliveTimeout: 30_000, connections: 16, connect: { timeout: config.connectTimeoutMs } });
  }

  /** POSTs `body` as JSON to `path` (leading slash, e.g. `/job_status`). */
  async post(path: string, body: unknown): Promise<SmileIdCall> {
    if (this.closed) return { kind: 'not_sent', reason: 'the service is stopping' };
    const limit = this.config.responseTimeoutMs;
    try {
      const response = await request(this.config.baseUrl + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        dispatcher: this.agent,
        headersTimeout: limit,
        bodyTimeout: limit,
        signal: AbortSignal.timeout(this.config.connectTimeoutMs + 2 * limit),
      });
      const text = await response.body.text();
      return { kind: 'answer', httpStatus: response.statusCode, body: parseJson(text) };
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
      const message = error instanceof Error ? error.message : String(error);
      const reason = `${code ?? 'error'}: ${message}`.slice(0, 300);
      return code !== undefined && NOT_SENT_CODES.has(code) ? { kind: 'not_sent', reason } : { kind: 'maybe_sent', reason };
    }
  }

  /** Aborts the calls in flight and sends no later one (docs/decisions.md § Running it). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
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
