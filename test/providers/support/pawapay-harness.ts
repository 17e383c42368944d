import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ulid } from 'ulid';
import { Payment, type PaymentProps } from '../../../src/core/payments/payment';
import { parsePawapayCallback, type PawapayCallbackResult } from '../../../src/adapters/providers/pawapay/pawapay-callbacks';
import { PawapayClient } from '../../../src/adapters/providers/pawapay/pawapay-client';
import { parsePawapayConfig, type PawapayConfig } from '../../../src/adapters/providers/pawapay/pawapay-config';
import { PawapayPayoutProvider } from '../../../src/adapters/providers/pawapay/pawapay-payout-provider';
import { startPawapaySimulator, type PawapaySimulator, type PawapaySimulatorOptions } from '../../../simulators/pawapay/pawapay-simulator';

export const PAWAPAY_CALLBACK_SECRET = 'pp_secret_0123456789abcdefghijklmnopqrstuv';

/** The simulator, a callback endpoint that parses with the adapter, and the adapter wired to both. */
export interface PawapayHarness {
  sim: PawapaySimulator;
  config: PawapayConfig;
  provider: PawapayPayoutProvider;
  /** Every callback the endpoint got, parsed; emits `result`. */
  callbacks: PawapayCallbackResult[];
  callbackEvents: EventEmitter;
  close(): Promise<void>;
}

/** Starts the pawaPay simulator with its callbacks going to an endpoint that parses them with the adapter. */
export async function startPawapayHarness(simOptions: PawapaySimulatorOptions = {}, env: Record<string, string> = {}): Promise<PawapayHarness> {
  const callbacks: PawapayCallbackResult[] = [];
  const callbackEvents = new EventEmitter();
  const wired: { config?: PawapayConfig } = {};
  const endpoint = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const result = parsePawapayCallback({
        rawBody: Buffer.concat(chunks), remoteAddress: req.socket.remoteAddress, pathSecret: (req.url ?? '').split('/').pop(),
      }, wired.config!);
      callbacks.push(result);
      res.writeHead(result.status).end();
      callbackEvents.emit('result', result);
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/callbacks/pawapay/${PAWAPAY_CALLBACK_SECRET}`;
  const sim = await startPawapaySimulator({ processingDelayMs: 20, callbackDelayMs: 200, callbackUrl, ...simOptions });
  const config = parsePawapayConfig({
    PAWAPAY_BASE_URL: sim.url,
    PAWAPAY_API_TOKEN: sim.apiToken,
    PAWAPAY_ENVIRONMENT: 'sandbox',
    PAWAPAY_CALLBACK_SECRET,
    PAWAPAY_CALLBACK_ALLOWED_IPS: '127.0.0.1',
    PAWAPAY_RESPONSE_TIMEOUT_MS: '400',
    PAWAPAY_POLL_INTERVAL_MS: '1000',
    ...env,
  })!;
  wired.config = config;
  const client = new PawapayClient(config);
  return {
    sim, config, provider: new PawapayPayoutProvider(config, client), callbacks, callbackEvents,
    close: async () => {
      await client.close();
      await sim.close();
      endpoint.closeAllConnections();
      await new Promise<void>((resolve) => endpoint.close(() => resolve()));
    },
  };
}

/**
 * A MOMO payment (Uganda, MTN, 15000 UGX unless overridden) whose recipient number ends in `suffix`
 * (the simulator's fault digits).
 */
export function pawapayPayment(suffix: string, overrides: Partial<PaymentProps> = {}): Payment {
  const now = new Date();
  const digits = String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
  return new Payment({
    id: `pay_${ulid()}`, tenantId: 'ten_test', status: 'initiated', paymentMethod: 'MOMO', sourceCurrency: 'USDC',
    destinationCurrency: 'UGX', country: 'UG', blockchain: 'SOLANA', amountStablecoin: '4', fiatAmount: '15000',
    exchangeRate: '3750', payoutFee: '0', accountName: 'Test Payee', accountNumber: `+2567${digits}${suffix}`,
    paymentCode: 'MTN', businessNumber: null, reference: 'Invoice 42', refundAddress: 'x', optionalIssuerFee: 'NO',
    quoteId: null, providerRef: null, provider: null, submittedAt: null, failureReason: null, failureCode: null, nextActionAt: now, attempts: 0, acceptedAt: null,
    createdAt: now, updatedAt: now, ...overrides,
  });
}
