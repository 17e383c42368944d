import { parseMpesaCallback } from '../../src/adapters/providers/mpesa/mpesa-callbacks';
import { outcomeOfRecord } from '../../src/adapters/providers/mtn-momo/mtn-momo-wire';
import { outcomeOfTransfer } from '../../src/adapters/providers/paystack/paystack-transfers';
import { outcomeOfTransfer as flutterwaveOutcome } from '../../src/adapters/providers/flutterwave/flutterwave-transfers';
import { flutterwaveFailureCode } from '../../src/adapters/providers/flutterwave/flutterwave-failure-codes';

// Every status and result code each provider documents, mapped one by one, and what an undocumented
// one becomes: pending with the provider's word as `unknownStatus`, which the payout worker records
// as a reconciliation finding (docs/providers.md, docs/decisions.md § Reconciliation).

describe('Paystack transfer statuses (https://paystack.com/docs/transfers/how-transfers-work/)', () => {
  const transfer = (status: string) => ({
    reference: 'pay_01jb8z6q3m4n5p6r7s8t9v0w1x', transfer_code: 'TRF_abc123', status, amount: 150000, currency: 'NGN', gateway_response: null,
  });

  it.each([
    ['success', { kind: 'succeeded', providerRef: 'TRF_abc123' }],
    ['failed', { kind: 'failed', reason: 'Paystack transfer failed', code: 'provider_error' }],
    ['abandoned', { kind: 'failed', reason: expect.stringContaining('abandoned the transfer'), code: 'expired' }],
    ['blocked', { kind: 'failed', reason: expect.stringContaining('blocked the transfer'), code: 'expired' }],
    ['rejected', { kind: 'failed', reason: expect.stringContaining('rejected the transfer'), code: 'declined' }],
    ['reversed', { kind: 'refunded', reason: expect.stringContaining('reversed the transfer'), code: 'reversed' }],
    ['pending', { kind: 'pending', afterMs: 60_000, providerRef: 'TRF_abc123' }],
    ['received', { kind: 'pending', afterMs: 60_000, providerRef: 'TRF_abc123' }],
    ['otp', { kind: 'pending', afterMs: 60_000, providerRef: 'TRF_abc123' }],
  ])('documented %s', (status, outcome) => {
    expect(outcomeOfTransfer(transfer(status))).toEqual(outcome);
  });

  it.each(['under_review', 'SUCCESS', 'constructor', ''])('undocumented "%s": pending, a long re-check, the word kept as its unknown status', (status) => {
    expect(outcomeOfTransfer(transfer(status))).toEqual({ kind: 'pending', afterMs: 15 * 60_000, providerRef: 'TRF_abc123', unknownStatus: status });
  });
});

describe('MTN MoMo transfer statuses (SUCCESSFUL, FAILED, PENDING)', () => {
  const ref = '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9';
  const record = (status: string, reason?: string) => outcomeOfRecord({ status, ...(reason ? { reason } : {}) }, ref, 5000);

  it('SUCCESSFUL succeeds, FAILED fails with its reason, PENDING waits', () => {
    expect(record('SUCCESSFUL')).toEqual({ kind: 'succeeded', providerRef: ref });
    expect(record('FAILED', 'PAYEE_NOT_FOUND')).toEqual({ kind: 'failed', reason: expect.stringContaining('(PAYEE_NOT_FOUND)'), code: 'recipient_account_invalid' });
    expect(record('FAILED', 'SOME_NEW_REASON')).toEqual({ kind: 'failed', reason: 'MTN MoMo: the transfer failed at MTN MoMo (SOME_NEW_REASON)', code: 'unknown' });
    expect(record('PENDING')).toEqual({ kind: 'pending', afterMs: 5000, providerRef: ref });
  });

  it.each(['ONGOING', 'REJECTED', 'TIMEOUT', 'successful'])('undocumented %s: pending, the status kept as its unknown status', (status) => {
    expect(record(status)).toEqual({ kind: 'pending', afterMs: 5000, providerRef: ref, unknownStatus: status });
  });
});

describe('M-Pesa results and Transaction Status words', () => {
  const paymentId = 'pay_01JB8Z6Q3M4N5P6R7S8T9V0W1X';
  const secret = 'cb_0123456789abcdefghijklmnopqrstuvwxyz';
  const parse = (kind: 'result' | 'status', result: Record<string, unknown>) => {
    const parsed = parseMpesaCallback({
      headers: {}, remoteAddress: '127.0.0.1', pathSecret: secret, kind, paymentId,
      rawBody: Buffer.from(JSON.stringify({ Result: { OriginatorConversationID: kind === 'result' ? paymentId : '3213-416199-2', ConversationID: 'AG_1', ...result } })),
    }, { callbackPathSecret: secret });
    if (!parsed.ok) throw new Error(parsed.reason);
    return parsed.report.outcome;
  };

  describe('payment results (B2C "Result Codes" table; Account Balance error table, ApiResult)', () => {
    it('0 succeeds with the receipt; 15 (duplicate detected) and ResultType 1 wait, with no finding', () => {
      expect(parse('result', { ResultCode: 0, TransactionID: 'SG632NMUAB' })).toEqual({ kind: 'succeeded', providerRef: 'SG632NMUAB' });
      expect(parse('result', { ResultCode: 15 })).toEqual({ kind: 'pending', afterMs: 60_000 });
      expect(parse('result', { ResultType: 1, ResultCode: 0 })).toEqual({ kind: 'pending', afterMs: 60_000 });
    });

    it.each([
      ['1', 'insufficient_provider_balance'], ['2', 'limit_exceeded'], ['3', 'limit_exceeded'], ['4', 'limit_exceeded'], ['8', 'limit_exceeded'],
      ['11', 'provider_error'], ['21', 'provider_error'], ['2001', 'provider_error'], ['2006', 'declined'], ['2028', 'provider_error'],
      ['2040', 'recipient_account_invalid'], ['8006', 'provider_error'], ['SFC_IC0003', 'provider_error'],
      ['17', 'provider_error'], ['18', 'provider_error'], ['19', 'provider_error'], ['20', 'provider_error'], ['22', 'provider_error'],
    ])('documented failure %s fails the payment (%s)', (code, failureCode) => {
      expect(parse('result', { ResultCode: code, ResultDesc: 'as Daraja words it' }))
        .toEqual({ kind: 'failed', reason: expect.stringMatching(new RegExp(`^M-Pesa result ${code}: `)), code: failureCode });
    });

    it.each(['9999', '1032', 'SFC_IC9999'])('undocumented %s: pending, Transaction Status asked at once, the code kept as its unknown status', (code) => {
      expect(parse('result', { ResultCode: code, ResultDesc: 'something new' })).toEqual({ kind: 'pending', afterMs: 0, unknownStatus: `ResultCode ${code}` });
    });
  });

  describe('Transaction Status results (TransactionStatus FAQ: Initiated, Authorized, Pending Authorized; final Cancelled, Declined, Completed, Expired)', () => {
    const status = (code: string | number, word?: string) => parse('status', {
      ResultCode: code,
      ResultParameters: { ResultParameter: [{ Key: 'OriginatorConversationID', Value: paymentId }, ...(word === undefined ? [] : [{ Key: 'TransactionStatus', Value: word }]), { Key: 'ReceiptNo', Value: 'MBN31H462N' }] },
    });

    it('Completed succeeds; Cancelled, Declined, Expired fail; Initiated, Authorized, Pending Authorized wait with no finding', () => {
      expect(status(0, 'Completed')).toEqual({ kind: 'succeeded', providerRef: 'MBN31H462N' });
      for (const word of ['Cancelled', 'Declined', 'Expired']) {
        expect(status(0, word)).toEqual({ kind: 'failed', reason: `M-Pesa transaction ${word.toLowerCase()}`, code: word === 'Expired' ? 'expired' : 'declined' });
      }
      for (const word of ['Initiated', 'Authorized', 'Pending Authorized', 'pending authorized']) expect(status(0, word)).toEqual({ kind: 'pending', afterMs: 60_000 });
    });

    it.each(['Reversed', 'OnHold', ''])('undocumented word "%s": pending, the word kept as its unknown status', (word) => {
      expect(status(0, word)).toEqual({ kind: 'pending', afterMs: 60_000, unknownStatus: `TransactionStatus ${word || '(none)'}` });
    });

    it('a query Daraja answers with a documented code (SFC_IC0003, 2001) concludes nothing; an undocumented code is an unknown status', () => {
      expect(status('SFC_IC0003', 'Completed')).toEqual({ kind: 'pending', afterMs: 60_000 });
      expect(status(2001)).toEqual({ kind: 'pending', afterMs: 60_000 });
      expect(status('SIM_NO_SUCH_TRANSACTION')).toEqual({ kind: 'pending', afterMs: 60_000, unknownStatus: 'ResultCode SIM_NO_SUCH_TRANSACTION' });
    });
  });
});

describe('Flutterwave transfer statuses (https://developer.flutterwave.com/docs/making-payments/transfers/overview)', () => {
  const transfer = (status: string, complete_message: string | null = null) => ({
    id: 396432, reference: 'pay_01JB8Z6Q3M4N5P6R7S8T9V0W1X', status, amount: 5500, currency: 'NGN', complete_message,
  });

  it.each([
    ['SUCCESSFUL', { kind: 'succeeded', providerRef: '396432' }],
    ['FAILED', { kind: 'failed', reason: 'Flutterwave transfer failed', code: 'unknown' }],
    ['NEW', { kind: 'pending', afterMs: 60_000, providerRef: '396432' }],
    ['PENDING', { kind: 'pending', afterMs: 60_000, providerRef: '396432' }],
  ])('documented %s', (status, outcome) => {
    expect(flutterwaveOutcome(transfer(status))).toEqual(outcome);
  });

  it.each(['successful', 'REVERSED', 'constructor', ''])('undocumented "%s": pending, a long re-check, the word kept as its unknown status', (status) => {
    expect(flutterwaveOutcome(transfer(status))).toEqual({ kind: 'pending', afterMs: 15 * 60_000, providerRef: '396432', unknownStatus: status });
  });

  it.each([
    ['DISBURSE FAILED: Insufficient funds in customer wallet', 'insufficient_provider_balance'],
    ['DISBURSE FAILED: You can only spend XAF 100000000.00 at once', 'limit_exceeded'],
    ['beneficiary_name is required', 'provider_error'],
    ['DISBURSE FAILED: A fatal error occured while proccesing your request.', 'provider_error'],
    ['Account resolution failed', 'unknown'],
    ['', 'unknown'],
  ])('complete_message "%s" → %s', (message, code) => {
    expect(flutterwaveFailureCode(message)).toBe(code);
  });
});
