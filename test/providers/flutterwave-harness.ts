import { ulid } from 'ulid';
import { FlutterwaveClient } from '../../src/adapters/providers/flutterwave/flutterwave-client';
import { parseFlutterwaveConfig, type FlutterwaveConfig } from '../../src/adapters/providers/flutterwave/flutterwave-config';
import { Payment } from '../../src/core/payments/payment';

export const TEST_KEY = 'FLWSECK_TEST-answers0123456789-X';
export const TEST_HASH = 'test-hash-4Rk9Vw2Qz7Lp3Xn8Bc5M';
/** The sender variables every Flutterwave configuration carries (sent on Kenyan M-Pesa transfers). */
export const SENDER_ENV = { FLUTTERWAVE_SENDER_NAME: 'Payout Gateway Ltd', FLUTTERWAVE_SENDER_COUNTRY: 'KE', FLUTTERWAVE_SENDER_MOBILE: '254700000001' };

/** The adapter's configuration pointing at `url` (a simulator or a scripted server), with short timeouts for tests. */
export function configFor(url: string, secretKey = TEST_KEY, overrides: Record<string, string> = {}): FlutterwaveConfig {
  const config = parseFlutterwaveConfig({
    FLUTTERWAVE_SECRET_KEY: secretKey, FLUTTERWAVE_WEBHOOK_SECRET_HASH: TEST_HASH, FLUTTERWAVE_BASE_URL: url,
    FLUTTERWAVE_CONNECT_TIMEOUT_MS: '1000', FLUTTERWAVE_RESPONSE_TIMEOUT_MS: '2000', ...SENDER_ENV, ...overrides,
  });
  if (!config) throw new Error('unreachable: configuration set');
  return config;
}

/** Clients made by a test file, closed by `closeAll()`. */
export function clientPool() {
  const made: FlutterwaveClient[] = [];
  return {
    client(config: FlutterwaveConfig): FlutterwaveClient {
      const client = new FlutterwaveClient(config);
      made.push(client);
      return client;
    },
    closeAll: () => Promise.all(made.splice(0).map((client) => client.close())),
  };
}

/** A BANK payment in Nigeria at GTBank (058), with a fresh id; `overrides` change any field. */
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

/** A MOMO payment to Airtel Uganda (+256…), with a fresh id. */
export function momoPayment(overrides: Partial<Payment> = {}): Payment {
  return bankPayment({
    paymentMethod: 'MOMO', country: 'UG', destinationCurrency: 'UGX', paymentCode: 'AIRTEL',
    accountNumber: '+256701234510', fiatAmount: '50000', ...overrides,
  });
}
