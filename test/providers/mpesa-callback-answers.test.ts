import { mpesaCallbackUrl, parseMpesaCallback, type MpesaCallbackInput } from '../../src/adapters/providers/mpesa/mpesa-callbacks';
import { mpesaResultFailureCode, mpesaStatusFailureCode } from '../../src/adapters/providers/mpesa/mpesa-failure-codes';

// Every answer parseMpesaCallback gives, whole (docs/decisions.md § Payout providers: callbacks;
// § Webhooks): the refusals and their HTTP status, the report and what was observed, for the B2C
// and B2B result (https://developer.safaricom.co.ke/apis/BusinessToCustomer, "Result Codes") and
// the Transaction Status result (https://developer.safaricom.co.ke/apis/TransactionStatus, FAQ
// "What are the different transaction statuses?").
const SECRET = 'cb_0123456789abcdefghijklmnopqrstuvwxyz';
const PAYMENT = 'pay_01JDX0000000000000000000AB';
const ACCEPTED = { status: 200, body: { ResultCode: 0, ResultDesc: 'Accepted' } };
const settings = { callbackPathSecret: SECRET, callbackAllowList: (address: string) => address === '196.201.214.200' };

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const call = (over: Partial<MpesaCallbackInput> = {}, config: Parameters<typeof parseMpesaCallback>[1] = settings) => parseMpesaCallback(
  { headers: {}, rawBody: json({}), remoteAddress: '196.201.214.200', pathSecret: SECRET, kind: 'result', paymentId: PAYMENT, ...over },
  config,
);
const refused = (refusal: string, status: number, reason: string) => ({ ok: false, refusal, reason, ack: { status, body: { ResultCode: 1, ResultDesc: 'Rejected' } } });
const report = (outcome: object, providerEventId?: string) => ({ provider: 'mpesa', paymentId: PAYMENT, outcome, ...(providerEventId ? { providerEventId } : {}) });
/** A payment result (ResultURL) about PAYMENT. */
const result = (fields: Record<string, unknown>, parameters?: Array<{ Key: string; Value?: unknown }>) => json({
  Result: {
    ResultType: 0, ResultCode: 0, ResultDesc: 'The service request is processed successfully.', OriginatorConversationID: PAYMENT,
    ConversationID: 'AG_20191219_00005797af5d7d75f652', ...fields, ...(parameters ? { ResultParameters: { ResultParameter: parameters } } : {}),
  },
});
/** A Transaction Status result about PAYMENT (its OriginatorConversationID is the query's; the payment's is a parameter). */
const statusResult = (code: unknown, parameters: Array<{ Key: string; Value?: unknown }>) => json({
  Result: {
    ResultType: 0, ResultCode: code, ResultDesc: 'ok', OriginatorConversationID: '10571-7910404-1', ConversationID: 'AG_20191219_0000417c3e4a3a0a5a8c',
    ResultParameters: { ResultParameter: [{ Key: 'OriginatorConversationID', Value: PAYMENT }, ...parameters] },
  },
});

describe('M-Pesa callback refusals', () => {
  it('the URL given to Daraja is base / secret / kind / payment id', () => {
    expect(mpesaCallbackUrl({ callbackBaseUrl: 'https://pay.example.com/cb/mpesa', callbackPathSecret: SECRET }, 'status-timeout', PAYMENT))
      .toBe(`https://pay.example.com/cb/mpesa/${SECRET}/status-timeout/${PAYMENT}`);
  });

  it('a source outside the allow-list is 403 whatever its secret, so guesses cannot be tested from elsewhere', () => {
    const outside = refused('unknown_source', 403, 'source address not in MPESA_CALLBACK_ALLOWED_IPS');
    expect(call({ remoteAddress: '10.0.0.7' })).toEqual(outside);
    expect(call({ remoteAddress: '10.0.0.7', pathSecret: 'wrong' })).toEqual(outside);
    // Without an allow-list (development) every source gets to the secret check.
    expect(call({ remoteAddress: '10.0.0.7', pathSecret: 'wrong' }, { callbackPathSecret: SECRET })).toEqual(refused('bad_secret', 404, 'wrong path secret'));
  });

  it('a wrong, longer, shorter or missing path secret is 404', () => {
    for (const pathSecret of [`${SECRET}x`, SECRET.slice(0, -1), '', undefined]) {
      expect(call({ pathSecret })).toEqual(refused('bad_secret', 404, 'wrong path secret'));
    }
  });

  it('an unknown kind or a payment id not of ours is 400 unknown callback path', () => {
    for (const over of [{ kind: 'refund' }, { kind: '' }, { kind: 'RESULT' }, { paymentId: 'pay_01jdx0000000000000000000ab' }, { paymentId: `${PAYMENT}C` }, { paymentId: `x${PAYMENT}` }, { paymentId: PAYMENT.slice(0, -1) }]) {
      expect(call(over)).toEqual(refused('unparseable', 400, 'unknown callback path'));
    }
  });

  it('a body that is not JSON, or not a Daraja result, is 400', () => {
    expect(call({ rawBody: Buffer.from('Result=0') })).toEqual(refused('unparseable', 400, 'body is not JSON'));
    expect(call({ rawBody: json({ Result: { ResultCode: 0, OriginatorConversationID: PAYMENT } }) })).toEqual(refused('unparseable', 400, 'body is not a Daraja result'));
    expect(call({ rawBody: json({ Result: { ResultCode: 0, OriginatorConversationID: '', ConversationID: 'AG_1' } }) })).toEqual(refused('unparseable', 400, 'body is not a Daraja result'));
  });

  it('a result about another payment of ours is 400; one about an id Daraja assigned (B2B) is read', () => {
    const other = 'pay_01JDX0000000000000000000ZZ';
    expect(call({ rawBody: result({ OriginatorConversationID: other }) })).toEqual(refused('unparseable', 400, 'result is about another payment'));
    expect(call({ kind: 'status', rawBody: json({ Result: { ResultCode: 0, OriginatorConversationID: 'q-1', ConversationID: 'AG_1', ResultParameters: { ResultParameter: [{ Key: 'OriginatorConversationID', Value: other }] } } }) }))
      .toEqual(refused('unparseable', 400, 'result is about another payment'));
    expect(call({ rawBody: result({ OriginatorConversationID: '29115-34620561-1' }) })).toMatchObject({ ok: true, report: { outcome: { kind: 'succeeded' } } });
    expect(call({ rawBody: result({ OriginatorConversationID: `x${other}` }) })).toMatchObject({ ok: true });
  });
});

describe('M-Pesa queue timeouts', () => {
  it.each(['timeout', 'status-timeout'])('%s: whatever the body, the payment is pending and status is asked at once', (kind) => {
    for (const rawBody of [Buffer.from(''), Buffer.from('not json'), result({})]) {
      expect(call({ kind, rawBody })).toEqual({ ok: true, report: report({ kind: 'pending', afterMs: 0 }), ack: ACCEPTED, observed: {} });
    }
  });
});

describe('M-Pesa payment results (B2C, B2B)', () => {
  it('0 succeeds with the TransactionReceipt as reference, and says what it observed', () => {
    const parsed = call({ rawBody: result({ TransactionID: 'NLJ0000000' }, [
      { Key: 'TransactionAmount', Value: 1500 }, { Key: 'TransactionReceipt', Value: 'NLJ7RT61SV' }, { Key: 'Amount', Value: 9 },
    ]) });
    expect(parsed).toEqual({
      ok: true, ack: ACCEPTED,
      report: report({ kind: 'succeeded', providerRef: 'NLJ7RT61SV' }, 'AG_20191219_00005797af5d7d75f652'),
      observed: { resultCode: '0', originatorConversationId: PAYMENT, conversationId: 'AG_20191219_00005797af5d7d75f652', receipt: 'NLJ7RT61SV', amount: '1500' },
    });
  });

  it('without a TransactionReceipt the TransactionID is the reference; B2B reports the Amount; without either, no reference', () => {
    expect(call({ rawBody: result({ ResultCode: '0', TransactionID: 'QKA81LK5CY' }, [{ Key: 'Amount', Value: '190.00' }]) })).toMatchObject({
      report: report({ kind: 'succeeded', providerRef: 'QKA81LK5CY' }, 'AG_20191219_00005797af5d7d75f652'),
      observed: { receipt: 'QKA81LK5CY', amount: '190.00' },
    });
    const bare = call({ rawBody: result({}) });
    expect(bare).toMatchObject({ report: { outcome: { kind: 'succeeded' } } });
    expect(bare.ok && bare.report.outcome).toEqual({ kind: 'succeeded' });
  });

  it('ResultParameters without a ResultParameter is read as no parameters', () => {
    const parsed = call({ rawBody: json({ Result: { ResultCode: 0, OriginatorConversationID: PAYMENT, ConversationID: 'AG_1', TransactionID: 'QKA81LK5CY', ResultParameters: {} } }) });
    expect(parsed.ok && parsed.report.outcome).toEqual({ kind: 'succeeded', providerRef: 'QKA81LK5CY' });
  });

  it('the first of repeated parameters with a value counts', () => {
    const parsed = call({ rawBody: result({}, [{ Key: 'TransactionReceipt' }, { Key: 'TransactionReceipt', Value: 'FIRST00001' }, { Key: 'TransactionReceipt', Value: 'SECOND0001' }]) });
    expect(parsed.ok && parsed.report.outcome).toEqual({ kind: 'succeeded', providerRef: 'FIRST00001' });
  });

  it('a documented failure fails with the code\'s documented description (not the result\'s own text) and its failure code', () => {
    const failed = call({ rawBody: result({ ResultCode: 2040, ResultDesc: 'Jane Wanjiku cannot receive', TransactionID: 'NLJ0000000' }) });
    expect(failed).toEqual({
      ok: true, ack: ACCEPTED,
      report: report({ kind: 'failed', reason: 'M-Pesa result 2040: Credit Party customer type can\'t be supported by the service', code: 'recipient_account_invalid' }, 'AG_20191219_00005797af5d7d75f652'),
      observed: { resultCode: '2040', originatorConversationId: PAYMENT, conversationId: 'AG_20191219_00005797af5d7d75f652', receipt: undefined, amount: undefined },
    });
    expect(call({ rawBody: result({ ResultCode: 17 }) })).toMatchObject({ report: { outcome: { kind: 'failed', reason: 'M-Pesa result 17: Internal failure', code: 'provider_error' } } });
    expect(call({ rawBody: result({ ResultCode: 'SFC_IC0003' }) })).toMatchObject({ report: { outcome: { kind: 'failed', reason: 'M-Pesa result SFC_IC0003: The operator does not exist', code: 'provider_error' } } });
  });

  it('15 (duplicate detected) and ResultType 1 settle nothing: pending a minute, no finding', () => {
    for (const fields of [{ ResultCode: 15 }, { ResultType: 1, ResultCode: 0 }, { ResultType: '1', ResultCode: 2040 }]) {
      const parsed = call({ rawBody: result(fields) });
      expect(parsed.ok && parsed.report.outcome).toEqual({ kind: 'pending', afterMs: 60_000 });
    }
  });

  it('a code documented nowhere is pending at once with the code as an unknown status', () => {
    const parsed = call({ rawBody: result({ ResultCode: 9999, ResultDesc: 'Something new' }) });
    expect(parsed.ok && parsed.report.outcome).toEqual({ kind: 'pending', afterMs: 0, unknownStatus: 'ResultCode 9999' });
  });
});

describe('M-Pesa Transaction Status results', () => {
  const outcomeOf = (code: unknown, parameters: Array<{ Key: string; Value?: unknown }>) => {
    const parsed = call({ kind: 'status', rawBody: statusResult(code, parameters) });
    if (!parsed.ok) throw new Error(`refused: ${parsed.reason}`);
    return parsed.report.outcome;
  };

  it('Completed succeeds with the ReceiptNo, and the observation carries the query\'s ids, the receipt and the Amount', () => {
    const parsed = call({ kind: 'status', rawBody: statusResult(0, [{ Key: 'TransactionStatus', Value: 'Completed' }, { Key: 'ReceiptNo', Value: 'MBN31H462N' }, { Key: 'Amount', Value: 1500 }]) });
    expect(parsed).toEqual({
      ok: true, ack: ACCEPTED,
      report: report({ kind: 'succeeded', providerRef: 'MBN31H462N' }, 'AG_20191219_0000417c3e4a3a0a5a8c'),
      observed: { resultCode: '0', originatorConversationId: '10571-7910404-1', conversationId: 'AG_20191219_0000417c3e4a3a0a5a8c', receipt: 'MBN31H462N', amount: '1500' },
    });
    expect(outcomeOf(0, [{ Key: 'TransactionStatus', Value: 'completed' }])).toEqual({ kind: 'succeeded' });
  });

  it('Expired fails as expired; Cancelled and Declined as declined, matched ignoring case and surrounding spaces', () => {
    expect(outcomeOf(0, [{ Key: 'TransactionStatus', Value: 'Expired' }])).toEqual({ kind: 'failed', reason: 'M-Pesa transaction expired', code: 'expired' });
    expect(outcomeOf(0, [{ Key: 'TransactionStatus', Value: ' CANCELLED ' }])).toEqual({ kind: 'failed', reason: 'M-Pesa transaction cancelled', code: 'declined' });
    expect(outcomeOf(0, [{ Key: 'TransactionStatus', Value: 'Declined' }])).toEqual({ kind: 'failed', reason: 'M-Pesa transaction declined', code: 'declined' });
  });

  it('Initiated, Authorized and Pending Authorized wait a minute with no finding', () => {
    for (const word of ['Initiated', 'Authorized', 'Pending Authorized', ' pending authorized ']) {
      expect(outcomeOf(0, [{ Key: 'TransactionStatus', Value: word }])).toEqual({ kind: 'pending', afterMs: 60_000 });
    }
  });

  it('a word the FAQ does not list, or none, waits with it as an unknown status', () => {
    expect(outcomeOf(0, [{ Key: 'TransactionStatus', Value: ' Reversed ' }])).toEqual({ kind: 'pending', afterMs: 60_000, unknownStatus: 'TransactionStatus Reversed' });
    expect(outcomeOf(0, [])).toEqual({ kind: 'pending', afterMs: 60_000, unknownStatus: 'TransactionStatus (none)' });
    expect(outcomeOf(0, [{ Key: 'TransactionStatus', Value: '  ' }])).toEqual({ kind: 'pending', afterMs: 60_000, unknownStatus: 'TransactionStatus (none)' });
  });

  it('a query answered with a documented code or 15 concludes nothing; an undocumented code is an unknown status; the word is not read', () => {
    for (const code of ['SFC_IC0003', 2001, 15, 17]) {
      expect(outcomeOf(code, [{ Key: 'TransactionStatus', Value: 'Completed' }])).toEqual({ kind: 'pending', afterMs: 60_000 });
    }
    expect(outcomeOf(4321, [{ Key: 'TransactionStatus', Value: 'Completed' }])).toEqual({ kind: 'pending', afterMs: 60_000, unknownStatus: 'ResultCode 4321' });
  });

  it('a status result naming no payment is read as the path\'s', () => {
    const parsed = call({ kind: 'status', rawBody: json({ Result: { ResultCode: 0, OriginatorConversationID: 'q-1', ConversationID: 'AG_1', ResultParameters: { ResultParameter: { Key: 'TransactionStatus', Value: 'Completed' } } } }) });
    expect(parsed).toMatchObject({ ok: true, report: { paymentId: PAYMENT, outcome: { kind: 'succeeded' }, providerEventId: 'AG_1' } });
  });
});

describe('M-Pesa failure codes', () => {
  it('a ResultCode not in the table is unknown; a final status other than expired is declined', () => {
    expect(mpesaResultFailureCode('9999')).toBe('unknown');
    expect(mpesaResultFailureCode('toString')).toBe('unknown');
    expect(mpesaResultFailureCode('1')).toBe('insufficient_provider_balance');
    expect(mpesaStatusFailureCode('expired')).toBe('expired');
    expect(mpesaStatusFailureCode('cancelled')).toBe('declined');
  });
});
