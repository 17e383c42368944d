import { Agent, request } from 'undici';
import { z } from 'zod';
import type { Clock } from '../../../core/shared/clock';
import type { MtnMomoConfig } from './mtn-momo-config';
import { MtnMomoTokenCache, type IssuedToken } from './mtn-momo-token-cache';
import { jsonOrUndefined } from './mtn-momo-wire';

/**
 * What became of one call to MTN:
 * - `answered`: MTN answered with HTTP `status` and `body` (text, possibly empty);
 * - `not_sent`: the request certainly never reached MTN (no connection, no token), so nothing was taken;
 * - `lost`: it may have reached MTN and been acted on (a timeout, a reset after sending).
 */
export type MtnMomoAnswer =
  | { readonly kind: 'answered'; readonly status: number; readonly body: string }
  | { readonly kind: 'not_sent'; readonly reason: string }
  | { readonly kind: 'lost'; readonly reason: string };

/** The JSON body of `POST /disbursement/v1_0/transfer` (MoMoAPIs_Javascript_sdk docs/disbursements/transfer). */
export interface MtnMomoTransferRequest {
  /** Decimal string in `currency`. */
  readonly amount: string;
  readonly currency: string;
  readonly externalId: string;
  readonly payee: { readonly partyIdType: 'MSISDN'; readonly partyId: string };
  readonly payerMessage: string;
  readonly payeeNote: string;
}

/** Errors raised before a socket carried anything: the request was certainly not delivered. */
const NOT_SENT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

const tokenSchema = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().int().positive() });

/**
 * HTTP client of MTN MoMo Disbursements (docs/decisions.md § Payments: states and events): undici
 * with a connect timeout and a response (headers and body) timeout from the configuration; every
 * call carries `Ocp-Apim-Subscription-Key` and `X-Target-Environment`, and a Bearer token from
 * `POST /disbursement/token/` (Basic apiUser:apiKey, no body: MTN answers 400 to a body there),
 * cached, and renewed once when MTN answers 401. Never puts a secret in a reason.
 */
export class MtnMomoClient {
  private readonly agent: Agent;
  private readonly tokens: MtnMomoTokenCache;
  private aborted = false;

  constructor(private readonly config: MtnMomoConfig, clock: Clock) {
    this.agent = new Agent({
      connect: { timeout: config.connectTimeoutMs },
      headersTimeout: config.responseTimeoutMs,
      bodyTimeout: config.responseTimeoutMs,
    });
    this.tokens = new MtnMomoTokenCache(() => this.issueToken(), clock);
  }

  /** `POST /disbursement/v1_0/transfer` with `X-Reference-Id: referenceId`; MTN answers 202 with no body. */
  postTransfer(referenceId: string, body: MtnMomoTransferRequest, callbackUrl: string): Promise<MtnMomoAnswer> {
    return this.authorised('POST', '/disbursement/v1_0/transfer', {
      'x-reference-id': referenceId,
      'x-callback-url': callbackUrl,
      'content-type': 'application/json',
    }, JSON.stringify(body));
  }

  /** `GET /disbursement/v1_0/transfer/{referenceId}`: 200 with the transfer, 404 when MTN has no such reference. */
  getTransfer(referenceId: string): Promise<MtnMomoAnswer> {
    return this.authorised('GET', `/disbursement/v1_0/transfer/${encodeURIComponent(referenceId)}`, {});
  }

  /** Closes the connection pool once the calls in flight have ended (after `abort()`, nothing is left to close). */
  async close(): Promise<void> {
    if (!this.aborted) await this.agent.close();
  }

  /**
   * Aborts the calls in flight (each is `lost`: it may have reached MTN) and sends no later one
   * (`not_sent`): a stopping service does not wait out a hung call (docs/decisions.md § Running it).
   */
  async abort(): Promise<void> {
    this.aborted = true;
    await this.agent.destroy();
  }

  private async authorised(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string): Promise<MtnMomoAnswer> {
    let token: string;
    try {
      token = await this.tokens.get();
    } catch (error) {
      return { kind: 'not_sent', reason: `no access token: ${(error as Error).message}` };
    }
    const send = (bearer: string) => this.send(method, path, {
      ...headers,
      authorization: `Bearer ${bearer}`,
      'x-target-environment': this.config.targetEnvironment,
    }, body);
    const answer = await send(token);
    if (answer.kind !== 'answered' || answer.status !== 401) return answer;
    // 401: the gateway refused the token before doing anything; a new token and the same request
    // (same X-Reference-Id) cannot pay twice.
    this.tokens.invalidate(token);
    try {
      token = await this.tokens.get();
    } catch (error) {
      return { kind: 'not_sent', reason: `no access token: ${(error as Error).message}` };
    }
    return send(token);
  }

  private async issueToken(): Promise<IssuedToken> {
    const basic = Buffer.from(`${this.config.apiUser}:${this.config.apiKey}`).toString('base64');
    const answer = await this.send('POST', '/disbursement/token/', { authorization: `Basic ${basic}` });
    if (answer.kind !== 'answered') throw new Error(`token request failed (${answer.reason})`);
    if (answer.status !== 200) throw new Error(`token request refused with HTTP ${answer.status}`);
    const parsed = tokenSchema.safeParse(jsonOrUndefined(answer.body));
    if (!parsed.success) throw new Error('token response is not JSON with access_token and expires_in');
    return { token: parsed.data.access_token, expiresInS: parsed.data.expires_in };
  }

  private async send(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string): Promise<MtnMomoAnswer> {
    if (this.aborted) return { kind: 'not_sent', reason: `${method} ${path.split('/').slice(0, 4).join('/')}: the service is stopping` };
    try {
      const response = await request(`${this.config.baseUrl}${path}`, {
        method,
        dispatcher: this.agent,
        headers: { ...headers, 'ocp-apim-subscription-key': this.config.subscriptionKey },
        ...(body === undefined ? {} : { body }),
      });
      return { kind: 'answered', status: response.statusCode, body: await response.body.text() };
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'UNKNOWN';
      const reason = `${method} ${path.split('/').slice(0, 4).join('/')}: ${code}`;
      return NOT_SENT_CODES.has(code) ? { kind: 'not_sent', reason } : { kind: 'lost', reason };
    }
  }
}
