import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import type { DeliveryJob, SecretBox, SendResult, WebhookTransport } from '../../core/webhooks/webhook-ports';
import { refusedPort } from '../../core/webhooks/webhook';
import { blockedAddressReason, guardedLookup, hostOf } from './target-guard';

const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * The two signature header sets of one delivery attempt (docs/decisions.md § Webhooks), both over
 * this attempt's `timestamp` (Unix seconds) so a receiver can refuse a replayed request:
 * - `Service-Signature: t=<timestamp>,v1=<hex HMAC-SHA256(key = the secret string, message = "<timestamp>.<body>")>`;
 * - Standard Webhooks `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256(
 *   key = the secret's base64 bytes after whsec_, message = "<id>.<timestamp>.<body>")>`.
 */
export function signatureHeaders(secret: string, deliveryId: string, timestamp: number, body: string): Record<string, string> {
  const standardKey = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return {
    'service-signature': `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`,
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${createHmac('sha256', standardKey).update(`${deliveryId}.${timestamp}.${body}`).digest('base64')}`,
  };
}

/** Retry-After as milliseconds from `now` (delta seconds or an HTTP date), capped at 24 h. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  const ms = /^\d+$/.test(text.trim()) ? Number(text) * 1000 : Date.parse(text) - now.getTime();
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS) : undefined;
}

/** Settings of the transport beyond the whole-request timeout. */
export interface TransportOptions {
  /** WEBHOOK_CONNECT_TIMEOUT_MS: how long the TCP and TLS handshake may take, in ms (default 3000). */
  readonly connectTimeoutMs?: number;
  /** WEBHOOK_ALLOWED_PORTS: ports allowed besides 443 (checked again here, so removing one applies to registrations made before). */
  readonly allowedPorts?: readonly number[];
}

/**
 * Sends webhooks with undici's request API over keep-alive pools (docs/decisions.md § Webhooks):
 * signed, redirects never followed, the target's address and port checked at connect time unless
 * private targets are allowed (development and tests). Two timeouts: a short connect timeout, so
 * an endpoint that never accepts frees its lane quickly, and the whole-request timeout (15 s).
 */
export class UndiciWebhookTransport implements WebhookTransport {
  private readonly agent: Agent;
  private readonly secrets = new Map<string, string>();
  private readonly connectTimeoutMs: number;
  private readonly allowedPorts: readonly number[];

  /** `timeoutMs`: connect, headers and body together (15 000 by default). */
  constructor(private readonly box: SecretBox, private readonly allowPrivateTargets: boolean, private readonly timeoutMs = 15_000, options: TransportOptions = {}) {
    this.connectTimeoutMs = Math.min(options.connectTimeoutMs ?? 3_000, timeoutMs);
    this.allowedPorts = options.allowedPorts ?? [];
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      connections: 64,
      connect: { timeout: this.connectTimeoutMs, ...(allowPrivateTargets ? {} : { lookup: guardedLookup as never }) },
    });
  }

  async send(job: DeliveryJob, body: string, now: Date): Promise<SendResult> {
    const url = new URL(job.url);
    const badPort = refusedPort(url, { allowPrivateTargets: this.allowPrivateTargets, allowedPorts: this.allowedPorts });
    if (badPort) return { error: `refused target: ${badPort}` };
    if (!this.allowPrivateTargets && isIP(hostOf(url))) {
      const refused = blockedAddressReason(hostOf(url));
      if (refused) return { error: `refused target: ${refused}` };
    }
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'payout-gateway-webhooks/0.5.0',
      ...signatureHeaders(this.secretOf(job), job.id, Math.floor(now.getTime() / 1000), body),
    };
    try {
      const response = await request(url, {
        method: 'POST', headers, body, dispatcher: this.agent,
        signal: AbortSignal.timeout(this.timeoutMs), headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs,
      });
      await response.body.dump();
      const retryAfterMs = parseRetryAfter(response.headers['retry-after'], now);
      return { statusCode: response.statusCode, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    } catch (error) {
      return { error: describe(error, this.timeoutMs, this.connectTimeoutMs) };
    }
  }

  /** Waits for requests in flight, then closes the pools. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  /** Aborts requests in flight (their sends answer an error at once) and closes the pools. */
  async destroy(): Promise<void> {
    await this.agent.destroy();
  }

  private secretOf(job: DeliveryJob): string {
    let secret = this.secrets.get(job.secretCiphertext);
    if (!secret) {
      secret = this.box.open(job.secretCiphertext);
      this.secrets.set(job.secretCiphertext, secret);
    }
    return secret;
  }
}

function describe(error: unknown, timeoutMs: number, connectTimeoutMs: number): string {
  if (error instanceof Error) {
    const code = (error as { code?: string }).code;
    if (code === 'UND_ERR_CONNECT_TIMEOUT') return `connect timeout after ${connectTimeoutMs} ms`;
    if (error.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return `timeout after ${timeoutMs} ms`;
    const cause = (error as { cause?: Error }).cause;
    return `${code ?? error.name}: ${(cause ?? error).message}`.slice(0, 500);
  }
  return String(error).slice(0, 500);
}
