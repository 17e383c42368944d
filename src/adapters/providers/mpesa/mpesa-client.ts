import { Agent, request, type Dispatcher } from 'undici';
import { z } from 'zod';
import type { MpesaConfig } from './mpesa-config';

/**
 * What became of one request to Daraja:
 * - `answered`: an HTTP answer; `body` is its JSON, or `undefined` when it is not JSON.
 * - `not_sent`: certainly not received by Daraja (no connection, no token, or refused by the
 *   gateway for the token, before it forwarded anything).
 * - `lost`: sent, and then no answer (timeout, reset): Daraja may have taken it.
 */
export type DarajaAnswer =
  | { readonly kind: 'answered'; readonly status: number; readonly body: unknown }
  | { readonly kind: 'not_sent'; readonly reason: string }
  | { readonly kind: 'lost'; readonly reason: string };

/** The API gateway's error body (Daraja B2C "Sample Error Response"): `{requestId, errorCode, errorMessage}`. */
export const gatewayErrorSchema = z.object({
  requestId: z.string().optional(),
  errorCode: z.string(),
  errorMessage: z.string().optional(),
});

const tokenSchema = z.object({
  access_token: z.string().min(1),
  // Daraja's sample has a number; community samples show the string "3599": accept both.
  expires_in: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().int().positive()),
});

/**
 * Gateway codes meaning "this access token is not valid": 401.002.01 (HTTP 401, Account Balance
 * page), 404.001.03 (Reversal page), 400.003.01 (Transaction Status page). The gateway refuses these
 * before forwarding, so the request may be sent again with a new token.
 */
const TOKEN_REFUSED = new Set(['401.002.01', '404.001.03', '400.003.01']);
/** Errors raised before any byte of the request left: the request was certainly not received. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'CERT_HAS_EXPIRED',
]);

interface Token {
  readonly value: string;
  /** When to fetch the next one, in epoch milliseconds (before Daraja's expiry). */
  readonly refreshAt: number;
}

/** Options of MpesaClient; `now` (epoch ms) is replaceable for tests of token expiry. */
export interface MpesaClientOptions {
  readonly now?: () => number;
}

/**
 * HTTP client of Daraja (undici, explicit connect and response timeouts from the config).
 * Holds one OAuth client-credentials token (GET /oauth/v1/generate?grant_type=client_credentials
 * with Basic consumerKey:consumerSecret; https://developer.safaricom.co.ke/apis/Authorization),
 * shared by concurrent calls, because each new token invalidates the previous one. It is fetched
 * again before it expires (a minute early, or half its life when shorter) and once when the gateway
 * refuses it. Never logs; secrets appear in no reason it returns.
 */
export class MpesaClient {
  private readonly agent: Agent;
  private readonly now: () => number;
  private token: Token | undefined;
  private fetching: Promise<Token | string> | undefined;
  private aborted = false;

  constructor(
    private readonly config: Pick<MpesaConfig, 'baseUrl' | 'consumerKey' | 'consumerSecret' | 'connectTimeoutMs' | 'responseTimeoutMs'>,
    options: MpesaClientOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.agent = new Agent({
      connect: { timeout: config.connectTimeoutMs },
      headersTimeout: config.responseTimeoutMs,
      bodyTimeout: config.responseTimeoutMs,
    });
  }

  /** POSTs `body` as JSON to `path` (e.g. `/mpesa/b2c/v3/paymentrequest`) with the bearer token. */
  async post(path: string, body: object): Promise<DarajaAnswer> {
    const first = await this.postWithToken(path, body);
    if (first.answer.kind !== 'answered' || !tokenRefused(first.answer)) return first.answer;
    // Refused for the token, so not forwarded: safe to send once more with a new one.
    if (this.token === first.token) this.token = undefined;
    const second = await this.postWithToken(path, body);
    if (second.answer.kind === 'answered' && tokenRefused(second.answer)) {
      return { kind: 'not_sent', reason: 'Daraja refused a fresh access token' };
    }
    return second.answer;
  }

  private async postWithToken(path: string, body: object): Promise<{ answer: DarajaAnswer; token?: Token }> {
    const token = await this.currentToken();
    if (typeof token === 'string') return { answer: { kind: 'not_sent', reason: token } };
    const headers = { authorization: `Bearer ${token.value}`, 'content-type': 'application/json' };
    return { answer: await this.send('POST', path, headers, JSON.stringify(body)), token };
  }

  /** Closes the connection pool once the calls in flight have ended (after `abort()`, nothing is left to close). */
  async close(): Promise<void> {
    if (!this.aborted) await this.agent.close();
  }

  /**
   * Aborts the calls in flight (each is `lost`: it may have reached Daraja) and sends no later one
   * (`not_sent`): a stopping service does not wait out a hung call (docs/decisions.md § Running it).
   */
  async abort(): Promise<void> {
    this.aborted = true;
    await this.agent.destroy();
  }

  private currentToken(): Promise<Token | string> {
    if (this.token && this.now() < this.token.refreshAt) return Promise.resolve(this.token);
    this.fetching ??= this.fetchToken().finally(() => {
      this.fetching = undefined;
    });
    return this.fetching;
  }

  /** A new token, or why there is none (a reason without secrets). */
  private async fetchToken(): Promise<Token | string> {
    const basic = Buffer.from(`${this.config.consumerKey}:${this.config.consumerSecret}`).toString('base64');
    const started = this.now();
    const answer = await this.send('GET', '/oauth/v1/generate?grant_type=client_credentials', { authorization: `Basic ${basic}` });
    if (answer.kind !== 'answered') return `no access token: ${answer.reason}`;
    const parsed = tokenSchema.safeParse(answer.body);
    if (answer.status !== 200 || !parsed.success) {
      const error = gatewayErrorSchema.safeParse(answer.body);
      return `no access token: HTTP ${answer.status}${error.success ? ` ${error.data.errorCode}` : ''}`;
    }
    const lifeMs = parsed.data.expires_in * 1000;
    this.token = { value: parsed.data.access_token, refreshAt: started + lifeMs - Math.min(60_000, lifeMs / 2) };
    return this.token;
  }

  private async send(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string): Promise<DarajaAnswer> {
    if (this.aborted) return { kind: 'not_sent', reason: 'the service is stopping' };
    let response: Dispatcher.ResponseData;
    try {
      response = await request(`${this.config.baseUrl}${path}`, { method, headers, body, dispatcher: this.agent });
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'unknown';
      return NOT_SENT_CODES.has(code)
        ? { kind: 'not_sent', reason: `connection failed (${code})` }
        : { kind: 'lost', reason: `no answer after sending (${code})` };
    }
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      return { kind: 'lost', reason: `answer cut off (${(error as { code?: string }).code ?? 'unknown'})` };
    }
    return { kind: 'answered', status: response.statusCode, body: jsonOrUndefined(text) };
  }
}

function tokenRefused(answer: { status: number; body: unknown }): boolean {
  if (answer.status === 401) return true;
  const error = gatewayErrorSchema.safeParse(answer.body);
  return error.success && TOKEN_REFUSED.has(error.data.errorCode);
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
