import { createHash } from 'node:crypto';
import { parseMtnMomoCallback } from '../../src/adapters/providers/mtn-momo/mtn-momo-callbacks';
import { errorCodeOf, failureReasonOf, outcomeOfRecord, transferReferenceOf } from '../../src/adapters/providers/mtn-momo/mtn-momo-wire';

// MTN MoMo transfer callbacks and records, whole (docs/decisions.md § Webhooks; the MoMo
// Disbursement transfer status answer `{amount, currency, financialTransactionId, externalId,
// payee, status, reason}`, statuses SUCCESSFUL, FAILED, PENDING).
const SECRET = 'cb_secret_0123456789abcdefghijklmnopqrstuv';
const PAYMENT = 'pay_01JDX0000000000000000000AB';
const config = { callbackSecret: SECRET, callbackAllowedIps: ['127.0.0.1', '10.20.0.0/16'], pollIntervalMs: 4_000 };
const body = (record: Record<string, unknown>) => Buffer.from(JSON.stringify(record));
const parse = (rawBody: Buffer, over: { remoteAddress?: string; pathSecret?: string } = {}, settings: typeof config = config) => parseMtnMomoCallback(
  { headers: {}, rawBody, remoteAddress: 'remoteAddress' in over ? over.remoteAddress : '127.0.0.1', pathSecret: 'pathSecret' in over ? over.pathSecret : SECRET },
  settings,
);
const refused = (refusal: string, message: string, status: number) => ({ ok: false, refusal, message, ack: { status, body: '' } });
const successful = body({ amount: '15000', currency: 'UGX', financialTransactionId: '363440463', externalId: PAYMENT, status: 'SUCCESSFUL' });

describe('MTN MoMo transfer reference', () => {
  it('is a version 4, RFC 4122 variant uuid from the SHA-256 of the payment id, the same every time', () => {
    const bytes = createHash('sha256').update(`mtn_momo:transfer:${PAYMENT}`).digest().subarray(0, 16);
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = bytes.toString('hex');
    expect(transferReferenceOf(PAYMENT)).toBe(`${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`);
    for (let i = 0; i < 32; i += 1) {
      expect(transferReferenceOf(`pay_${i}`)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});

describe('MTN MoMo callback refusals', () => {
  it('an address outside the allow-list, or none, is 403 whatever the secret', () => {
    const outside = refused('unknown_source', 'callback source address is not allowed', 403);
    expect(parse(successful, { remoteAddress: '192.168.1.9' })).toEqual(outside);
    expect(parse(successful, { remoteAddress: '192.168.1.9', pathSecret: 'wrong' })).toEqual(outside);
    expect(parse(successful, { remoteAddress: undefined })).toEqual(outside);
    expect(parse(successful, { remoteAddress: '10.20.3.4' })).toMatchObject({ ok: true });
    expect(parse(successful, { remoteAddress: '192.168.1.9' }, { ...config, callbackAllowedIps: [] })).toMatchObject({ ok: true });
  });

  it('a wrong, empty or missing path secret is 404', () => {
    for (const pathSecret of [`${SECRET}x`, '', undefined]) {
      expect(parse(successful, { pathSecret })).toEqual(refused('bad_path_secret', 'callback path secret does not match', 404));
    }
    // An empty configured secret never matches an empty path either.
    expect(parse(successful, { pathSecret: '' }, { ...config, callbackSecret: '' })).toEqual(refused('bad_path_secret', 'callback path secret does not match', 404));
  });

  it('a body that is not a transfer status, or names no payment of ours, is 400', () => {
    expect(parse(Buffer.from('status=SUCCESSFUL'))).toEqual(refused('unparseable', 'callback body is not JSON with a transfer status', 400));
    expect(parse(body({ externalId: PAYMENT, status: '' }))).toEqual(refused('unparseable', 'callback body is not JSON with a transfer status', 400));
    for (const externalId of [undefined, '', 'order-42', PAYMENT.toLowerCase(), `${PAYMENT}Z`, 'pay_01JDX0000000000000000000AU']) {
      expect(parse(body({ externalId, status: 'SUCCESSFUL' }))).toEqual(refused('unparseable', 'callback externalId is not a payment id', 400));
    }
  });
});

describe('MTN MoMo callback reports', () => {
  const reference = transferReferenceOf(PAYMENT);

  it('SUCCESSFUL succeeds under our reference, identified by MTN\'s financial transaction id', () => {
    expect(parse(successful)).toEqual({
      ok: true, ack: { status: 200, body: '' },
      report: { provider: 'mtn_momo', paymentId: PAYMENT, outcome: { kind: 'succeeded', providerRef: reference }, providerEventId: '363440463' },
    });
  });

  it('without a financial transaction id, the reference and status identify the message', () => {
    expect(parse(body({ externalId: PAYMENT, status: 'FAILED', reason: 'PAYEE_NOT_FOUND' }))).toEqual({
      ok: true, ack: { status: 200, body: '' },
      report: {
        provider: 'mtn_momo', paymentId: PAYMENT, providerEventId: `${reference}:FAILED`,
        outcome: { kind: 'failed', reason: 'MTN MoMo: the recipient number is not registered for Mobile Money (PAYEE_NOT_FOUND)', code: 'recipient_account_invalid' },
      },
    });
  });

  it('PENDING waits the poll interval; another status waits as an unknown status', () => {
    expect(outcomeOfRecord({ status: 'PENDING' }, reference, 4_000)).toEqual({ kind: 'pending', afterMs: 4_000, providerRef: reference });
    expect(outcomeOfRecord({ status: 'ONGOING' }, reference, 4_000)).toEqual({ kind: 'pending', afterMs: 4_000, providerRef: reference, unknownStatus: 'ONGOING' });
  });

  it('a failure reason may come as a code, an object with a code or a message, or not at all', () => {
    const failed = (reason: unknown) => parse(body({ externalId: PAYMENT, status: 'FAILED', ...(reason === undefined ? {} : { reason }) }));
    expect(failed({ code: 'NOT_ENOUGH_FUNDS', message: 'x' })).toMatchObject({ report: { outcome: { reason: 'MTN MoMo: insufficient funds or the receiver\'s transaction limit exceeded (NOT_ENOUGH_FUNDS)' } } });
    expect(failed({ message: 'Something else' })).toMatchObject({ report: { outcome: { reason: 'MTN MoMo: the transfer failed at MTN MoMo (Something else)', code: 'unknown' } } });
    expect(failed({})).toMatchObject({ report: { outcome: { reason: 'MTN MoMo: the transfer failed at MTN MoMo (UNSPECIFIED)', code: 'unknown' } } });
    expect(failed(undefined)).toMatchObject({ report: { outcome: { reason: 'MTN MoMo: the transfer failed at MTN MoMo (UNSPECIFIED)', code: 'unknown' } } });
  });

  it('a reason code is named with only letters, digits, _ and spaces, 64 at most', () => {
    expect(failureReasonOf('<b>BAD-CODE</b>')).toBe('MTN MoMo: the transfer failed at MTN MoMo (bBADCODEb)');
    expect(failureReasonOf('X'.repeat(80))).toBe(`MTN MoMo: the transfer failed at MTN MoMo (${'X'.repeat(64)})`);
    expect(failureReasonOf(undefined)).toBe('MTN MoMo: the transfer failed at MTN MoMo (UNSPECIFIED)');
  });

  it('an error body\'s code is read; anything else has none', () => {
    expect(errorCodeOf('{"code":"RESOURCE_ALREADY_EXIST","message":"Duplicated reference id"}')).toBe('RESOURCE_ALREADY_EXIST');
    expect(errorCodeOf('{"message":"no code"}')).toBeUndefined();
    expect(errorCodeOf('<html>')).toBeUndefined();
    expect(errorCodeOf('{"code":5}')).toBeUndefined();
  });
});
