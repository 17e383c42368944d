import { createHmac } from 'node:crypto';
import { parsePaystackCallback } from '../../src/adapters/providers/paystack/paystack-callbacks';

// Every answer parsePaystackCallback gives, whole (https://paystack.com/docs/payments/webhooks/:
// `x-paystack-signature` is the hex HMAC-SHA512 of the raw body with the secret key; transfer events
// https://paystack.com/docs/transfers/single-transfers/ "Transfer webhooks"; docs/decisions.md § Webhooks).
const KEY = 'sk_test_callbacks';
const PAYMENT = 'pay_01JDX0000000000000000000AB';
const sign = (body: Buffer, key = KEY) => createHmac('sha512', key).update(body).digest('hex');
const event = (name: string, data: Record<string, unknown>) => Buffer.from(JSON.stringify({ event: name, data }));
const transfer = (status: string, over: Record<string, unknown> = {}) => ({
  reference: PAYMENT.toLowerCase(), transfer_code: 'TRF_1', status, amount: 1500050, currency: 'NGN', gateway_response: null, ...over,
});
const parse = (rawBody: Buffer, over: { signature?: string | string[]; remoteAddress?: string; allowedIps?: string[] } = {}) => parsePaystackCallback(
  { headers: { 'x-paystack-signature': 'signature' in over ? over.signature : sign(rawBody) }, rawBody, remoteAddress: 'remoteAddress' in over ? over.remoteAddress : '52.31.139.75' },
  { secretKey: KEY, allowedIps: over.allowedIps ?? ['52.31.139.75', '52.49.173.169'] },
);
const refused = (reason: string, message: string, status: number) => ({ ok: false, reason, message, ack: { status, body: message } });
const OK = { status: 200, body: 'OK' };

describe('Paystack webhook refusals', () => {
  const body = event('transfer.success', transfer('success'));

  it('a source outside the allow-list is 403, naming it; an IPv4 peer of a dual-stack socket is read as IPv4', () => {
    expect(parse(body, { remoteAddress: '10.0.0.9' })).toEqual(refused('unknown_source', 'source address 10.0.0.9 is not an allowed Paystack address', 403));
    expect(parse(body, { remoteAddress: undefined })).toEqual(refused('unknown_source', 'source address unknown is not an allowed Paystack address', 403));
    expect(parse(body, { remoteAddress: '::FFFF:52.49.173.169' })).toMatchObject({ ok: true });
    expect(parse(body, { remoteAddress: '::ffff:7f00:1' })).toEqual(refused('unknown_source', 'source address ::ffff:7f00:1 is not an allowed Paystack address', 403));
    expect(parse(body, { remoteAddress: '10.0.0.9', allowedIps: [] })).toMatchObject({ ok: true });
  });

  it('a missing, repeated, malformed or wrong signature is 401', () => {
    const bad = refused('bad_signature', 'x-paystack-signature is missing or wrong', 401);
    expect(parse(body, { signature: undefined })).toEqual(bad);
    expect(parse(body, { signature: [sign(body), sign(body)] })).toEqual(bad);
    expect(parse(body, { signature: sign(body).slice(0, 127) })).toEqual(bad);
    expect(parse(body, { signature: `${sign(body)}0` })).toEqual(bad);
    expect(parse(body, { signature: `${sign(body).slice(0, 127)}g` })).toEqual(bad);
    expect(parse(body, { signature: sign(body, 'sk_test_other') })).toEqual(bad);
    expect(parse(body, { signature: sign(body).toUpperCase() })).toMatchObject({ ok: true });
  });

  it('signed but unreadable is 400: not JSON, not an event, a transfer event without a transfer or with another status', () => {
    expect(parse(Buffer.from('event=transfer.success'))).toEqual(refused('unparseable', 'body is not JSON', 400));
    expect(parse(Buffer.from('{"data":{}}'))).toEqual(refused('unparseable', 'body is not a Paystack event', 400));
    expect(parse(event('transfer.failed', { reference: PAYMENT.toLowerCase() }))).toEqual(refused('unparseable', 'transfer.failed without a readable transfer', 400));
    expect(parse(event('transfer.success', transfer('failed')))).toEqual(refused('unparseable', 'transfer.success carries status "failed"', 400));
    expect(parse(event('transfer.reversed', transfer('x'.repeat(60))))).toEqual(refused('unparseable', `transfer.reversed carries status "${'x'.repeat(40)}"`, 400));
  });
});

describe('Paystack webhook reports', () => {
  it('transfer.success reports the payment succeeded, identified by transfer code and event, with the transfer\'s figures', () => {
    expect(parse(event('transfer.success', transfer('success')))).toEqual({
      ok: true, ack: OK,
      report: { provider: 'paystack', paymentId: PAYMENT, outcome: { kind: 'succeeded', providerRef: 'TRF_1' }, providerEventId: 'TRF_1:transfer.success' },
      transfer: { reference: PAYMENT.toLowerCase(), transferCode: 'TRF_1', amount: 1500050, currency: 'NGN' },
    });
  });

  it('transfer.failed and transfer.reversed carry their own status', () => {
    expect(parse(event('transfer.failed', transfer('failed')))).toMatchObject({ ok: true, report: { outcome: { kind: 'failed' }, providerEventId: 'TRF_1:transfer.failed' } });
    expect(parse(event('transfer.reversed', transfer('reversed')))).toMatchObject({ ok: true, report: { outcome: { kind: 'refunded' }, providerEventId: 'TRF_1:transfer.reversed' } });
  });

  it('another event, or a transfer not of ours, is acknowledged and reports nothing', () => {
    expect(parse(event('charge.success', { reference: 'x' }))).toEqual({ ok: true, report: null, ack: OK });
    expect(parse(event('transferrecipient.created', {}))).toEqual({ ok: true, report: null, ack: OK });
    expect(parse(event('transfer.success', transfer('success', { reference: 'invoice-2026-000000001' })))).toEqual({ ok: true, report: null, ack: OK });
  });
});
