import { parseFlutterwaveCallback } from '../../src/adapters/providers/flutterwave/flutterwave-callbacks';
import { TEST_HASH } from './flutterwave-harness';

// parseFlutterwaveCallback on each kind of request (https://developer.flutterwave.com/docs/webhooks):
// `verif-hash` equal to the dashboard's secret hash, `transfer.completed` with the transfer as `data`.
const ID = 'pay_01JDX0000000000000000000AB';
const transfer = (over: Record<string, unknown> = {}) => ({
  id: 33286, account_number: '0690000033', bank_code: '044', full_name: 'Bale Gary', created_at: '2020-04-14T16:39:17.000Z',
  currency: 'NGN', debit_currency: 'NGN', amount: 30020, fee: 26.875, status: 'SUCCESSFUL', reference: ID, meta: null,
  narration: 'payout', approver: null, complete_message: 'Successful', requires_approval: 0, is_approved: 1, ...over,
});
const request = (body: unknown, headers: Record<string, string> = { 'verif-hash': TEST_HASH }, remoteAddress = '127.0.0.1') =>
  ({ headers, rawBody: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), remoteAddress });
const settings = { secretHash: TEST_HASH, allowedIps: [] as string[] };

describe('Flutterwave webhook answers', () => {
  it('a transfer.completed with our reference is a report, keyed by the transfer id and status', () => {
    const result = parseFlutterwaveCallback(request({ event: 'transfer.completed', 'event.type': 'Transfer', data: transfer() }), settings);
    expect(result).toEqual({
      ok: true,
      report: { provider: 'flutterwave', paymentId: ID, outcome: { kind: 'succeeded', providerRef: '33286' }, providerEventId: '33286:SUCCESSFUL' },
      ack: { status: 200, body: 'OK' },
    });
  });

  it('a FAILED transfer reports the failure with its message', () => {
    const result = parseFlutterwaveCallback(request({ event: 'transfer.completed', data: transfer({ status: 'FAILED', complete_message: 'DISBURSE FAILED: Insufficient funds in customer wallet' }) }), settings);
    expect(result.ok && result.report?.outcome).toEqual({
      kind: 'failed', reason: 'Flutterwave transfer failed: DISBURSE FAILED: Insufficient funds in customer wallet', code: 'insufficient_provider_balance',
    });
  });

  it('a missing or wrong verif-hash is refused with 401', () => {
    const body = { event: 'transfer.completed', data: transfer() };
    for (const headers of [{}, { 'verif-hash': 'wrong' }, { 'verif-hash': `${TEST_HASH}x` }, { 'verif-hash': '' }] as Array<Record<string, string>>) {
      expect(parseFlutterwaveCallback(request(body, headers), settings)).toMatchObject({ ok: false, reason: 'bad_signature', ack: { status: 401 } });
    }
  });

  it('an address outside a configured allow-list is refused with 403, before the hash; ::ffff: IPv4 peers match', () => {
    const body = { event: 'transfer.completed', data: transfer() };
    const allowList = { ...settings, allowedIps: ['10.0.0.5'] };
    expect(parseFlutterwaveCallback(request(body, {}, '10.0.0.6'), allowList)).toMatchObject({ ok: false, reason: 'unknown_source', ack: { status: 403 } });
    expect(parseFlutterwaveCallback(request(body, undefined, '::ffff:10.0.0.5'), allowList)).toMatchObject({ ok: true });
  });

  it('a body that is not JSON, not an event, or a transfer.completed without a readable transfer is refused with 400', () => {
    expect(parseFlutterwaveCallback(request('{not json'), settings)).toMatchObject({ ok: false, reason: 'unparseable', ack: { status: 400 } });
    expect(parseFlutterwaveCallback(request({ data: {} }), settings)).toMatchObject({ ok: false, reason: 'unparseable' });
    expect(parseFlutterwaveCallback(request({ event: 'transfer.completed', data: { reference: ID } }), settings)).toMatchObject({ ok: false, reason: 'unparseable' });
  });

  it('another event, or a transfer whose reference is not ours, is acknowledged and ignored', () => {
    expect(parseFlutterwaveCallback(request({ event: 'charge.completed', data: { id: 1 } }), settings)).toEqual({ ok: true, report: null, ack: { status: 200, body: 'OK' } });
    expect(parseFlutterwaveCallback(request({ event: 'transfer.completed', data: transfer({ reference: 'rave-transfer-1' }) }), settings)).toEqual({ ok: true, report: null, ack: { status: 200, body: 'OK' } });
  });
});
