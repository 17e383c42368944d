import { Agent, request } from 'undici';
import type { PawapayConfig } from './pawapay-config';

/**
 * What became of one call to pawaPay:
 * - `answered`: pawaPay answered with HTTP `status` and `body` (text, possibly empty);
 * - `not_sent`: the request certainly never reached pawaPay (no connection), so nothing was taken;
 * - `lost`: it may have reached pawaPay and been acted on (a timeout, a reset after sending).
 */
export type PawapayAnswer =
  | { readonly kind: 'answered'; readonly status: number; readonly body: string }
  | { readonly kind: 'not_sent'; readonly reason: string }
  | { readonly kind: 'lost'; readonly reason: string };

/**
 * The JSON body of `POST /v2/payouts` (https://docs.pawapay.io/v2/api-reference/payouts/initiate-payout):
 * our UUIDv4 `payoutId`, the `amount` as a decimal string in `currency`, and the recipient's MMO
 * account (MSISDN with its country code, no `+`; pawaPay's provider code).
 */
export interface PawapayPayoutRequest {
  readonly payoutId: string;
  readonly amount: string;
  readonly currency: string;
  readonly recipient: { readonly type: 'MMO'; readonly accountDetails: { readonly phoneNumber: string; readonly provider: string } };
}

/** Errors raised before a socket carried anything: the request was certainly not delivered. */
const NOT_SENT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * HTTP client of pawaPay's Merchant API v2 (docs/providers.md § pawaPay): undici with a connect
 * timeout and a response (headers and body) timeout from the configuration; every call carries
 * `Authorization: Bearer <PAWAPAY_API_TOKEN>` (https://docs.pawapay.io/using_the_api,
 * "Authentication"). Never puts the token in a reason.
 */
export class PawapayClient {
  private readonly agent: Agent;
  private aborted = false;

  constructor(private readonly config: PawapayConfig) {
    this.agent = new Agent({
      connect: { timeout: config.connectTimeoutMs },
      headersTimeout: config.responseTimeoutMs,
      bodyTimeout: config.responseTimeoutMs,
    });
  }

  /** `POST /v2/payouts`: 200 with the initiation status, or a 4xx/5xx with a failureReason. */
  postPayout(body: PawapayPayoutRequest): Promise<PawapayAnswer> {
    return this.send('POST', '/v2/payouts', JSON.stringify(body));
  }

  /** `GET /v2/payouts/{payoutId}`: 200 with `{status: FOUND, data}` or `{status: NOT_FOUND}`. */
  getPayout(payoutId: string): Promise<PawapayAnswer> {
    return this.send('GET', `/v2/payouts/${encodeURIComponent(payoutId)}`);
  }

  /** Closes the connection pool once the calls in flight have ended (after `abort()`, nothing is left to close). */
  async close(): Promise<void> {
    if (!this.aborted) await this.agent.close();
  }

  /**
   * Aborts the calls in flight (each is `lost`: it may have reached pawaPay) and sends no later one
   * (`not_sent`): a stopping service does not wait out a hung call (docs/decisions.md § Running it).
   */
  async abort(): Promise<void> {
    this.aborted = true;
    await this.agent.destroy();
  }

  private async send(method: 'GET' | 'POST', path: string, body?: string): Promise<PawapayAnswer> {
    const what = `${method} ${path.split('/').slice(0, 3).join('/')}`;
    if (this.aborted) return { kind: 'not_sent', reason: `${what}: the service is stopping` };
    try {
      const response = await request(`${this.config.baseUrl}${path}`, {
        method,
        dispatcher: this.agent,
        headers: {
          authorization: `Bearer ${this.config.apiToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body }),
      });
      return { kind: 'answered', status: response.statusCode, body: await response.body.text() };
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'UNKNOWN';
      const reason = `${what}: ${code}`;
      return NOT_SENT_CODES.has(code) ? { kind: 'not_sent', reason } : { kind: 'lost', reason };
    }
  }
}
