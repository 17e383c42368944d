import { Customer } from '../../src/core/customers/customer';
import { Payment } from '../../src/core/payments/payment';
import { SandboxKycProvider } from '../../src/adapters/providers/sandbox-kyc';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';

// The sandbox's deterministic answers (docs/decisions.md § Sandbox values): payouts by the account
// number's last four digits, KYC by the id number's, each after its configured delay.
const T0 = new Date('2026-11-26T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const clockAt = (ms: number) => ({ now: () => at(ms) });

function payment(accountNumber: string, overrides: Partial<Payment> = {}): Payment {
  return new Payment({
    id: 'pay_01JDX0000000000000000000AB', tenantId: 'ten_test', status: 'provider_accepted', paymentMethod: 'BANK', sourceCurrency: 'USDC',
    destinationCurrency: 'NGN', country: 'NG', blockchain: 'SOLANA', amountStablecoin: '10', fiatAmount: '15000',
    exchangeRate: '1500', payoutFee: '0', accountName: 'Ada Obi', accountNumber, paymentCode: '058',
    businessNumber: null, reference: 'order-1', refundAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
    optionalIssuerFee: 'NO', quoteId: null, providerRef: null, provider: 'sandbox', submittedAt: T0, failureReason: null, failureCode: null,
    nextActionAt: T0, attempts: 0, acceptedAt: T0, createdAt: T0, updatedAt: T0, ...overrides,
  });
}

describe('sandbox payout provider', () => {
  const delays = { acceptDelayMs: 1_000, resultDelayMs: 5_000 };

  it('submits after the accept delay from creation: a retry for the time left, then accepted as sbx_ + the id', async () => {
    const p = payment('0123456789', { status: 'initiated', acceptedAt: null });
    expect(new SandboxPayoutProvider(clockAt(0), delays).name).toBe('sandbox');
    expect(await new SandboxPayoutProvider(clockAt(400), delays).submit(p)).toEqual({ kind: 'retry', afterMs: 600 });
    expect(await new SandboxPayoutProvider(clockAt(1_000), delays).submit(p)).toEqual({ kind: 'accepted', providerRef: 'sbx_01JDX0000000000000000000AB' });
  });

  it('0000 is rejected at submission (recipient_account_invalid), once the delay is over', async () => {
    const p = payment('0123450000', { status: 'initiated', acceptedAt: null });
    expect(await new SandboxPayoutProvider(clockAt(999), delays).submit(p)).toEqual({ kind: 'retry', afterMs: 1 });
    expect(await new SandboxPayoutProvider(clockAt(1_000), delays).submit(p))
      .toEqual({ kind: 'rejected', reason: 'Recipient account rejected by the provider', code: 'recipient_account_invalid' });
    // Only the last four digits count.
    expect((await new SandboxPayoutProvider(clockAt(1_000), delays).submit(payment('0000123456', { status: 'initiated' }))).kind).toBe('accepted');
  });

  it('a payment not yet accepted is not found (submitting again gives the same answer)', async () => {
    expect(await new SandboxPayoutProvider(clockAt(60_000), delays).status(payment('0123451111', { status: 'initiated' }))).toEqual({ kind: 'not_found' });
  });

  it('the result comes after the result delay from acceptance, or from the last update when acceptance is not recorded', async () => {
    const accepted = payment('0123456789', { acceptedAt: at(1_000), updatedAt: at(3_000) });
    expect(await new SandboxPayoutProvider(clockAt(2_000), delays).status(accepted)).toEqual({ kind: 'pending', afterMs: 4_000 });
    expect(await new SandboxPayoutProvider(clockAt(6_000), delays).status(accepted)).toEqual({ kind: 'succeeded' });
    const unrecorded = payment('0123456789', { acceptedAt: null, updatedAt: at(3_000) });
    expect(await new SandboxPayoutProvider(clockAt(6_000), delays).status(unrecorded)).toEqual({ kind: 'pending', afterMs: 2_000 });
    expect(await new SandboxPayoutProvider(clockAt(8_000), delays).status(unrecorded)).toEqual({ kind: 'succeeded' });
  });

  it('1111 fails (declined), 2222 is refunded (reversed), 3333 stays pending a minute at a time, anything else succeeds', async () => {
    const sandbox = new SandboxPayoutProvider(clockAt(5_000), delays);
    expect(await sandbox.status(payment('0123451111'))).toEqual({ kind: 'failed', reason: 'Payout failed at the recipient institution', code: 'declined' });
    expect(await sandbox.status(payment('0123452222'))).toEqual({ kind: 'refunded', reason: 'Payout returned; funds sent to the refund address', code: 'reversed' });
    expect(await sandbox.status(payment('0123453333'))).toEqual({ kind: 'pending', afterMs: 60_000 });
    expect(await sandbox.status(payment('0123454444'))).toEqual({ kind: 'succeeded' });
    expect(await sandbox.status(payment('1111000000'))).toEqual({ kind: 'succeeded' });
  });
});

describe('sandbox KYC', () => {
  const customer = (idNumber: string) => new Customer({
    id: 'cus_1', tenantId: 'ten_test', externalId: 'ext-1', firstName: 'Ada', lastName: 'Obi', country: 'NG', dateOfBirth: '1990-01-01',
    idType: "PASSPORT", idNumber, kycStatus: "pending", kycReason: null, nextCheckAt: null,
    createdAt: T0, updatedAt: T0,
  });

  it('waits the delay from creation, then approves', async () => {
    expect(await new SandboxKycProvider(clockAt(250), 1_000).check(customer('A1234567'))).toEqual({ kind: 'pending', afterMs: 750 });
    expect(await new SandboxKycProvider(clockAt(1_000), 1_000).check(customer('A1234567'))).toEqual({ kind: 'approved' });
  });

  it('rejects an id number ending in 0000, and only then', async () => {
    const kyc = new SandboxKycProvider(clockAt(1_000), 1_000);
    expect(await kyc.check(customer('A1230000'))).toEqual({ kind: 'rejected', reason: 'Identity document could not be verified' });
    expect(await kyc.check(customer('A0000123'))).toEqual({ kind: 'approved' });
    expect(await new SandboxKycProvider(clockAt(999), 1_000).check(customer('A1230000'))).toEqual({ kind: 'pending', afterMs: 1 });
  });
});
