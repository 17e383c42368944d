import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ulid } from 'ulid';
import { PaystackClient } from '../../src/adapters/providers/paystack/paystack-client';
import { parsePaystackCallback, type PaystackCallbackResult } from '../../src/adapters/providers/paystack/paystack-callbacks';
import { parsePaystackConfig, type PaystackConfig } from '../../src/adapters/providers/paystack/paystack-config';
import { Payment } from '../../src/core/payments/payment';

/** The adapter's configuration pointing at `url` (a simulator), with short timeouts for tests. */
export function configFor(url: string, secretKey: string, overrides: Record<string, string> = {}): PaystackConfig {
  const config = parsePaystackConfig({
    PAYSTACK_SECRET_KEY: secretKey, PAYSTACK_BASE_URL: url,
    PAYSTACK_CONNECT_TIMEOUT_MS: '1000', PAYSTACK_RESPONSE_TIMEOUT_MS: '2000', ...overrides,
  });
  if (!config) throw new Error('unreachable: configuration set');
  return config;
}

/** A client, closed by `clients.closeAll()`. */
export function clientPool() {
  const made: PaystackClient[] = [];
  return {
    client(config: PaystackConfig): PaystackClient {
      const client = new PaystackClient(config);
      made.push(client);
      return client;
    },
    closeAll: () => Promise.all(made.splice(0).map((client) => client.close())),
  };
}

/** A BANK payment in Nigeria (or as overridden), with a fresh id. */
export function bankPayment(overrides: Partial<Payment> = {}): Payment {
  const now = new Date();
  return new Payment({
    id: `pay_${ulid()}`, tenantId: 'ten_test', status: 'initiated', paymentMethod: 'BANK',
    sourceCurrency: 'USDC', destinationCurrency: 'NGN', country: 'NG', blockchain: 'SOLANA',
    amountStablecoin: '10.000000', fiatAmount: '15000.50', exchangeRate: '1500', payoutFee: '0.5',
    accountName: 'Ada Obi', accountNumber: '0123456780', paymentCode: '058', businessNumber: null,
    reference: 'invoice 1', refundAddress: 'So11111111111111111111111111111111111111112', optionalIssuerFee: 'NO',
    quoteId: null, providerRef: null, provider: null, submittedAt: null, failureReason: null, failureCode: null, nextActionAt: now, attempts: 0,
    acceptedAt: null, createdAt: now, updatedAt: now, ...overrides,
  });
}

/** A webhook endpoint over real HTTP that answers with `parsePaystackCallback`'s ack and records every verdict. */
export async function startCallbackEndpoint(secretKey: string, allowedIps: readonly string[] = []) {
  const results: PaystackCallbackResult[] = [];
  const waiters: Array<{ test: () => boolean; resolve: () => void }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const result = parsePaystackCallback(
        { headers: req.headers, rawBody: Buffer.concat(chunks), remoteAddress: req.socket.remoteAddress },
        { secretKey, allowedIps },
      );
      results.push(result);
      res.writeHead(result.ack.status, { 'content-type': 'text/plain' }).end(result.ack.body);
      for (const waiter of waiters.splice(0)) {
        if (waiter.test()) waiter.resolve();
        else waiters.push(waiter);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const reportsFor = (paymentId: string) => results.flatMap((result) => (result.ok && result.report?.paymentId === paymentId ? [result.report] : []));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks/paystack`,
    results,
    reportsFor,
    /** Resolves once `count` reports about `paymentId` have arrived; rejects after `timeoutMs` (5 s) instead of holding the test to Jest's limit. */
    waitForReports(paymentId: string, count: number, timeoutMs = 5_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const test = () => reportsFor(paymentId).length >= count;
        if (test()) return resolve();
        const timer = setTimeout(() => reject(new Error(`fewer than ${count} reports for ${paymentId} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ test, resolve: () => {
          clearTimeout(timer);
          resolve();
        } });
      });
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
