import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ulid } from 'ulid';
import { Payment, type PaymentProps } from '../../../src/core/payments/payment';
import { parseMtnMomoCallback, type MtnMomoCallbackResult } from '../../../src/adapters/providers/mtn-momo/mtn-momo-callbacks';
import { MtnMomoClient } from '../../../src/adapters/providers/mtn-momo/mtn-momo-client';
import { parseMtnMomoConfig, type MtnMomoConfig } from '../../../src/adapters/providers/mtn-momo/mtn-momo-config';
import { MtnMomoPayoutProvider } from '../../../src/adapters/providers/mtn-momo/mtn-momo-payout-provider';
import { startMtnMomoSimulator, type MtnMomoSimulator, type MtnMomoSimulatorOptions } from '../../../simulators/mtn-momo/mtn-momo-simulator';

export const CALLBACK_SECRET = 'cb_secret_0123456789abcdefghijklmnopqrstuv';

/** A settable clock for token expiry. */
export class TestClock {
  constructor(public ms = Date.now()) {}
  now(): Date {
    return new Date(this.ms);
  }
}

/** The simulator, a callback endpoint that parses with the adapter, and the adapter wired to both. */
export interface MomoHarness {
  sim: MtnMomoSimulator;
  config: MtnMomoConfig;
  clock: TestClock;
  provider: MtnMomoPayoutProvider;
  /** Every callback the endpoint got, parsed; emits `result`. */
  callbacks: MtnMomoCallbackResult[];
  callbackEvents: EventEmitter;
  callbackUrl: string;
  close(): Promise<void>;
}

export async function startMomoHarness(simOptions: MtnMomoSimulatorOptions = {}, env: Record<string, string> = {}): Promise<MomoHarness> {
  const sim = await startMtnMomoSimulator({ processingDelayMs: 20, callbackDelayMs: 200, ...simOptions });
  const callbacks: MtnMomoCallbackResult[] = [];
  const callbackEvents = new EventEmitter();
  const wired: { config?: MtnMomoConfig } = {};
  const endpoint = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const result = parseMtnMomoCallback({
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
        remoteAddress: req.socket.remoteAddress,
        pathSecret: (req.url ?? '').split('/').pop(),
      }, wired.config!);
      callbacks.push(result);
      res.writeHead(result.ack.status).end(result.ack.body);
      callbackEvents.emit('result', result);
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/callbacks/mtn_momo`;
  const config = parseMtnMomoConfig({
    MTN_MOMO_BASE_URL: sim.url,
    MTN_MOMO_SUBSCRIPTION_KEY: sim.credentials.subscriptionKey,
    MTN_MOMO_API_USER: sim.credentials.apiUser,
    MTN_MOMO_API_KEY: sim.credentials.apiKey,
    MTN_MOMO_TARGET_ENVIRONMENT: sim.credentials.targetEnvironment,
    MTN_MOMO_SANDBOX_CURRENCY: 'EUR',
    MTN_MOMO_CALLBACK_BASE_URL: callbackUrl,
    MTN_MOMO_CALLBACK_SECRET: CALLBACK_SECRET,
    MTN_MOMO_CALLBACK_ALLOWED_IPS: '127.0.0.1',
    MTN_MOMO_RESPONSE_TIMEOUT_MS: '400',
    MTN_MOMO_POLL_INTERVAL_MS: '1000',
    ...env,
  })!;
  wired.config = config;
  const clock = new TestClock();
  const client = new MtnMomoClient(config, clock);
  return {
    sim, config, clock, provider: new MtnMomoPayoutProvider(config, client), callbacks, callbackEvents, callbackUrl,
    close: async () => {
      await client.close();
      await sim.close();
      endpoint.closeAllConnections();
      await new Promise<void>((resolve) => endpoint.close(() => resolve()));
    },
  };
}

/** Runs `test` against a harness of its own, closed afterwards. */
export async function withMomoHarness(simOptions: MtnMomoSimulatorOptions, env: Record<string, string>, test: (h: MomoHarness) => Promise<void>): Promise<void> {
  const h = await startMomoHarness(simOptions, env);
  try {
    await test(h);
  } finally {
    await h.close();
  }
}

/** Resolves with the first `event` whose arguments pass `test`; rejects after `timeoutMs`. */
export function waitFor<T extends unknown[]>(emitter: EventEmitter, event: string, test: (...args: T) => boolean, timeoutMs = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      emitter.off(event, listener);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (...args: unknown[]) => {
      if (!test(...(args as T))) return;
      clearTimeout(timer);
      emitter.off(event, listener);
      resolve(args as T);
    };
    emitter.on(event, listener);
  });
}

/**
 * A MOMO/MTN payment to Uganda whose recipient number ends in `suffix` (the simulator's fault
 * digits), 15000 UGX unless overridden.
 */
export function momoPayment(suffix: string, overrides: Partial<PaymentProps> = {}): Payment {
  const now = new Date();
  const digits = String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
  return new Payment({
    id: `pay_${ulid()}`, tenantId: 'ten_test', status: 'initiated', paymentMethod: 'MOMO', sourceCurrency: 'USDC',
    destinationCurrency: 'UGX', country: 'UG', blockchain: 'SOLANA', amountStablecoin: '4', fiatAmount: '15000',
    exchangeRate: '3750', payoutFee: '0', accountName: 'Test Payee', accountNumber: `+2567${digits}${suffix}`,
    paymentCode: 'MTN', businessNumber: null, reference: "Invoice 42's payout", refundAddress: 'x', optionalIssuerFee: 'NO',
    quoteId: null, providerRef: null, provider: null, submittedAt: null, failureReason: null, failureCode: null, nextActionAt: now, attempts: 0, acceptedAt: null,
    createdAt: now, updatedAt: now, ...overrides,
  });
}
