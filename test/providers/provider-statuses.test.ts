import { parseMpesaCallback } from '../../src/adapters/providers/mpesa/mpesa-callbacks';
import { outcomeOfRecord } from '../../src/adapters/providers/mtn-momo/mtn-momo-wire';
import { outcomeOfTransfer } from '../../src/adapters/providers/paystack/paystack-transfers';

// Every status and result code each provider documents, mapped one by one, and what an undocumented
// one becomes: pending with the provider's word as `unknownStatus`, which the payout worker records
// as a reconciliation finding (docs/providers.md, docs/decisions.md § Reconciliation).

describe('Paystack transfer statuses (https://paystack.com/docs/transfers/how-transfers-work/)', () => {
  const transfer = (status: string) => ({
    reference: 'pay_01jb8z6q3m4n5p6r7s8t9v0w1x', transfer_code: 'TRF_abc123', status, amount: 150000, currency: 'NGN', gateway_response: null,
  });

  it.each([
    ['success', { kind: 'succeeded', providerRef: 'TRF_abc123' }],
    ['failed', { kind: 'failed', reason: 'Paystack transfer failed' }],
    ['abandoned', { kind: 'failed', reason: expect.stringContaining('abandoned the transfer') }],
    ['blocked', { kind: 'failed', reason: expect.stringContaining('blocked the transfer') }],
    ['rejected', { kind: 'failed', reason: expect.stringContaining('rejected the transfer') }],
    ['reversed', { kind: 'refunded', reason: expect.stringContaining('reversed the transfer') }],
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
    expect(record('FAILED', 'PAYEE_NOT_FOUND')).toEqual({ kind: 'failed', reason: expect.stringContaining('(PAYEE_NOT_FOUND)') });
    expect(record('FAILED', 'SOME_NEW_REASON')).toEqual({ kind: 'failed', reason: 'MTN MoMo: the transfer failed at MTN MoMo (SOME_NEW_REASON)' });
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

    it.each(['1', '2', '3', '4', '8', '11', '21', '2001', '2006', '2028', '2040', '8006', 'SFC_IC0003', '17', '18', '19', '20', '22'])(
      'documented failure %s fails the payment', (code) => {
        expect(parse('result', { ResultCode: code, ResultDesc: 'as Daraja words it' })).toEqual({ kind: 'failed', reason: expect.stringMatching(new RegExp(`^M-Pesa result ${code}: `)) });
      },
    );

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
      for (const word of ['Cancelled', 'Declined', 'Expired']) expect(status(0, word)).toEqual({ kind: 'failed', reason: `M-Pesa transaction ${word.toLowerCase()}` });
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
