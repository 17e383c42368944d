import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { Payment } from '../../src/core/payments/payment';
import { parseMpesaCallback, type MpesaCallbackParse } from '../../src/adapters/providers/mpesa/mpesa-callbacks';
import { parseMpesaConfig, type MpesaConfig } from '../../src/adapters/providers/mpesa/mpesa-config';
import type { MpesaSimulator } from '../../simulators/mpesa/mpesa-simulator';

export const PATH_SECRET = 'cb_0123456789abcdefghijklmnopqrstuvwxyz';

/** One callback our receiver got, as parseMpesaCallback read it. */
export interface Got {
  readonly kind: string;
  readonly paymentId: string;
  readonly parsed: MpesaCallbackParse;
}

/** A real HTTP server standing in for our callback route: `/mpesa/:secret/:kind/:paymentId`. */
export interface CallbackReceiver {
  readonly url: string;
  readonly got: Got[];
  /** Resolves with the n-th (1-based) callback of `kind` for `paymentId` when it has come; rejects after `timeoutMs` (5 s). */
  next(paymentId: string, kind: string, n?: number, timeoutMs?: number): Promise<Got>;
  close(): Promise<void>;
}

export async function startCallbackReceiver(config: () => MpesaConfig): Promise<CallbackReceiver> {
  const got: Got[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const [, , pathSecret, kind = '', paymentId = ''] = (req.url ?? '').split('/');
      let parsed: MpesaCallbackParse;
      try {
        parsed = parseMpesaCallback(
          { headers: req.headers, rawBody: Buffer.concat(chunks), remoteAddress: req.socket.remoteAddress ?? '', pathSecret, kind, paymentId },
          config(),
        );
      } catch (error) {
        // As the service's route would: a parser that throws answers 500, and the test sees it at once.
        parsed = { ok: false, refusal: 'unparseable', reason: `parseMpesaCallback threw: ${String(error)}`, ack: { status: 500, body: { ResultCode: 1, ResultDesc: 'Error' } } };
      }
      got.push({ kind, paymentId, parsed });
      waiters.splice(0).forEach((wake) => wake());
      res.writeHead(parsed.ack.status, { 'content-type': 'application/json' }).end(JSON.stringify(parsed.ack.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const next = (paymentId: string, kind: string, n = 1, timeoutMs = 5_000): Promise<Got> => new Promise((resolve, reject) => {
    // A callback that never comes fails the test after `timeoutMs` instead of holding it to Jest's limit.
    const timer = setTimeout(() => reject(new Error(`no ${kind} callback #${n} for ${paymentId} within ${timeoutMs} ms`)), timeoutMs);
    const check = () => {
      const found = got.filter((g) => g.paymentId === paymentId && g.kind === kind)[n - 1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      } else waiters.push(check);
    };
    check();
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mpesa`, got, next,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Writes the simulator's public key where MPESA_CERTIFICATE_PATH can name it. */
export function certificateFile(sim: MpesaSimulator): string {
  const path = join(mkdtempSync(join(tmpdir(), 'mpesa-')), 'cert.pem');
  writeFileSync(path, sim.publicKeyPem);
  return path;
}

/** A complete MPESA_* environment pointing at the simulator and the receiver. */
export function mpesaEnv(sim: MpesaSimulator, receiverUrl: string, certPath: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    MPESA_BASE_URL: sim.url,
    MPESA_CONSUMER_KEY: sim.options.consumerKey,
    MPESA_CONSUMER_SECRET: sim.options.consumerSecret,
    MPESA_SHORTCODE: sim.options.shortcodes[0]!,
    MPESA_INITIATOR_NAME: sim.options.initiatorName,
    MPESA_INITIATOR_PASSWORD: sim.options.initiatorPassword,
    MPESA_CERTIFICATE_PATH: certPath,
    MPESA_CALLBACK_BASE_URL: receiverUrl,
    MPESA_CALLBACK_PATH_SECRET: PATH_SECRET,
    MPESA_CALLBACK_ALLOWED_IPS: '127.0.0.1',
    MPESA_RESPONSE_TIMEOUT_MS: '1500',
    ...extra,
  };
}

export function configOf(env: Record<string, string>): MpesaConfig {
  const config = parseMpesaConfig(env);
  if (!config) throw new Error('no M-Pesa config');
  return config;
}

/** A KE payment; `last2` picks the simulator's fault by the recipient's last two digits. */
export function keKesPayment(overrides: Partial<Payment> & { last2?: string } = {}): Payment {
  const { last2 = '00', ...rest } = overrides;
  const now = new Date();
  return new Payment({
    id: `pay_${ulid()}`, tenantId: 'ten_test', status: 'initiated', paymentMethod: 'MOMO', sourceCurrency: 'USDC',
    destinationCurrency: 'KES', country: 'KE', blockchain: 'SOLANA', amountStablecoin: '11.6', fiatAmount: '1500',
    exchangeRate: '129.3', payoutFee: '0', accountName: 'Jane Wanjiku', accountNumber: `+2547123456${last2}`, paymentCode: 'MPESA',
    businessNumber: null, reference: 'order-1', refundAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
    optionalIssuerFee: 'NO', quoteId: null, providerRef: null, provider: null, submittedAt: null, failureReason: null, failureCode: null, nextActionAt: now, attempts: 0,
    acceptedAt: null, createdAt: now, updatedAt: now, ...rest,
  });
}
