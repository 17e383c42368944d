import { parseMpesaCallback } from '../../src/adapters/providers/mpesa/mpesa-callbacks';
import type { MpesaClient } from '../../src/adapters/providers/mpesa/mpesa-client';
import { MpesaPayoutProvider } from '../../src/adapters/providers/mpesa/mpesa-payout-provider';
import type { MtnMomoClient } from '../../src/adapters/providers/mtn-momo/mtn-momo-client';
import type { MtnMomoConfig } from '../../src/adapters/providers/mtn-momo/mtn-momo-config';
import { MtnMomoPayoutProvider } from '../../src/adapters/providers/mtn-momo/mtn-momo-payout-provider';
import { outcomeOfRecord } from '../../src/adapters/providers/mtn-momo/mtn-momo-wire';
import type { PaystackCall, PaystackClient, PaystackRequest } from '../../src/adapters/providers/paystack/paystack-client';
import { paystackFailureCode } from '../../src/adapters/providers/paystack/paystack-failure-codes';
import { PaystackPayoutProvider } from '../../src/adapters/providers/paystack/paystack-payout-provider';
import { outcomeOfTransfer } from '../../src/adapters/providers/paystack/paystack-transfers';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { startMpesaSimulator, type MpesaSimulator } from '../../simulators/mpesa/mpesa-simulator';
import { certificateFile, configOf, keKesPayment, mpesaEnv, PATH_SECRET } from './mpesa-harness';
import { bankPayment } from './paystack-harness';
import { momoPayment } from './support/mtn-momo-harness';

/**
 * Every provider answer that fails or refunds a payment carries its failure code
 * (docs/api.md § Failure codes), mapped where the adapter turns the provider's word into
 * `rejected`, `failed` or `refunded`: one case per status, result code and refusal.
 */
describe('failure codes of provider outcomes', () => {
  describe('M-Pesa (Daraja)', () => {
    let sim: MpesaSimulator;
    let env: Record<string, string>;
    beforeAll(async () => {
      sim = await startMpesaSimulator({ port: 0 });
      env = mpesaEnv(sim, 'https://pay.example.com/callbacks/mpesa', certificateFile(sim));
    });
    afterAll(() => sim.close());

    const paymentId = keKesPayment().id;
    const parse = (kind: 'result' | 'status', body: object) => parseMpesaCallback(
      { headers: {}, rawBody: Buffer.from(JSON.stringify(body)), remoteAddress: '127.0.0.1', pathSecret: PATH_SECRET, kind, paymentId },
      configOf(env),
    );
    const outcomeOf = (parsed: ReturnType<typeof parse>) => (parsed.ok ? parsed.report.outcome : parsed.refusal);

    it.each([
      ['1', 'insufficient_provider_balance'],
      ['2', 'limit_exceeded'],
      ['3', 'limit_exceeded'],
      ['4', 'limit_exceeded'],
      ['8', 'limit_exceeded'],
      ['11', 'provider_error'],
      ['21', 'provider_error'],
      ['2001', 'provider_error'],
      ['2006', 'declined'],
      ['2028', 'provider_error'],
      ['2040', 'recipient_account_invalid'],
      ['8006', 'provider_error'],
      ['SFC_IC0003', 'provider_error'],
      ['17', 'provider_error'],
    ])('a payment result with ResultCode %s fails with %s', (resultCode, code) => {
      const parsed = parse('result', { Result: { ResultType: 0, ResultCode: resultCode, ResultDesc: 'x', OriginatorConversationID: paymentId, ConversationID: 'AG_1' } });
      expect(outcomeOf(parsed)).toEqual({ kind: 'failed', reason: expect.stringContaining(`M-Pesa result ${resultCode}`), code });
    });

    it('a ResultCode Daraja documents nowhere (constructor) fails nothing: the payment waits and Transaction Status decides', () => {
      const parsed = parse('result', { Result: { ResultType: 0, ResultCode: 'constructor', ResultDesc: 'x', OriginatorConversationID: paymentId, ConversationID: 'AG_1' } });
      expect(outcomeOf(parsed)).toEqual({ kind: 'pending', afterMs: 0, unknownStatus: 'ResultCode constructor' });
    });

    it.each([
      ['Expired', 'expired'],
      ['Cancelled', 'declined'],
      ['Declined', 'declined'],
    ])('a Transaction Status result %s fails with %s', (word, code) => {
      const parsed = parse('status', {
        Result: {
          ResultCode: 0, OriginatorConversationID: '3213-416199-2', ConversationID: 'AG_3',
          ResultParameters: { ResultParameter: [{ Key: 'OriginatorConversationID', Value: paymentId }, { Key: 'TransactionStatus', Value: word }] },
        },
      });
      expect(outcomeOf(parsed)).toEqual({ kind: 'failed', reason: `M-Pesa transaction ${word.toLowerCase()}`, code });
    });

    /** The adapter over a Daraja that gives `answer` to every request (the refusals happen before or at the first answer). */
    const mpesaAnswering = (answer: Awaited<ReturnType<MpesaClient['post']>>) => {
      const sent: string[] = [];
      const client = { post: async (path: string) => (sent.push(path), answer) } as unknown as MpesaClient;
      return { provider: new MpesaPayoutProvider(configOf(env), client), sent };
    };

    it('a payment M-Pesa cannot carry is rejected unsent, unsupported_by_provider', async () => {
      const { provider, sent } = mpesaAnswering({ kind: 'not_sent', reason: 'never asked' });
      expect(await provider.submit(keKesPayment({ fiatAmount: '5' }))).toEqual({ kind: 'rejected', reason: expect.any(String), code: 'unsupported_by_provider' });
      expect(await provider.submit(keKesPayment({ paymentCode: 'AIRTEL' }))).toEqual({ kind: 'rejected', reason: expect.any(String), code: 'unsupported_by_provider' });
      expect(sent).toEqual([]);
    });

    it.each(['24', '25', '29', '100000005', '100000010'])('a 200 acknowledgement refusing with ResponseCode %s is declined', async (responseCode) => {
      const payment = keKesPayment();
      const { provider } = mpesaAnswering({ kind: 'answered', status: 200, body: { OriginatorConversationID: payment.id, ResponseCode: responseCode } });
      expect(await provider.submit(payment)).toEqual({ kind: 'rejected', reason: `M-Pesa refused the request (ResponseCode ${responseCode})`, code: 'declined' });
    });

    it.each(['400.002.02', '400.002.05'])('a gateway refusal %s (malformed request) is declined', async (errorCode) => {
      const { provider } = mpesaAnswering({ kind: 'answered', status: 400, body: { requestId: 'r-1', errorCode, errorMessage: 'Bad Request - Invalid PartyA' } });
      expect(await provider.submit(keKesPayment())).toEqual({ kind: 'rejected', reason: 'M-Pesa refused the request: Bad Request - Invalid PartyA', code: 'declined' });
    });
  });

  describe('MTN MoMo', () => {
    it.each([
      ['PAYEE_NOT_FOUND', 'recipient_account_invalid'],
      ['PAYEE_NOT_ALLOWED_TO_RECEIVE', 'recipient_account_invalid'],
      ['NOT_ENOUGH_FUNDS', 'insufficient_provider_balance'],
      ['PAYER_LIMIT_REACHED', 'limit_exceeded'],
      ['COULD_NOT_PERFORM_TRANSACTION', 'expired'],
      ['NOT_ALLOWED', 'provider_error'],
      ['SENDER_ACCOUNT_NOT_ACTIVE', 'provider_error'],
      ['INTERNAL_PROCESSING_ERROR', 'provider_error'],
      ['TRANSACTION_NOT_FOUND', 'provider_error'],
      ['SOMETHING_NEW', 'unknown'],
      ['toString', 'unknown'],
      [undefined, 'unknown'],
    ])('a FAILED transfer with reason %s fails with %s', (reason, code) => {
      const outcome = outcomeOfRecord({ status: 'FAILED', ...(reason === undefined ? {} : { reason }) }, 'ref-1', 1000);
      expect(outcome).toEqual({ kind: 'failed', reason: expect.stringContaining(`(${reason ?? 'UNSPECIFIED'})`), code });
    });

    it('a payment the rail cannot carry is rejected unsent, unsupported_by_provider', async () => {
      const client = new Proxy({}, { get: () => { throw new Error('MTN MoMo must not be called'); } }) as MtnMomoClient;
      const provider = new MtnMomoPayoutProvider({ targetEnvironment: 'sandbox', sandboxCurrency: 'EUR' } as MtnMomoConfig, client);
      expect(await provider.submit(momoPayment('00', { country: 'KE', destinationCurrency: 'KES', paymentCode: 'MPESA' })))
        .toEqual({ kind: 'rejected', reason: expect.stringContaining('MTN MoMo pays only MOMO'), code: 'unsupported_by_provider' });
    });
  });

  describe('Paystack', () => {
    const transfer = (status: string) => ({
      reference: 'pay_01jd4zq8w0y8m2v6n3c5b7k9tq', transfer_code: 'TRF_1', status, amount: 150000, currency: 'NGN', gateway_response: 'Bank unavailable',
    });

    it('failed is provider_error and reversed is reversed, from status and webhooks alike (outcomeOfTransfer)', () => {
      expect(outcomeOfTransfer(transfer('failed'))).toEqual({ kind: 'failed', reason: 'Paystack transfer failed: Bank unavailable', code: 'provider_error' });
      expect(outcomeOfTransfer(transfer('reversed'))).toEqual({ kind: 'refunded', reason: expect.stringContaining('Paystack reversed the transfer'), code: 'reversed' });
    });

    it.each([
      ['reversed', 'reversed'],
      ['failed', 'provider_error'],
      ['abandoned', 'expired'],
      ['blocked', 'expired'],
      ['rejected', 'declined'],
      ['success', 'unknown'],
      ['hasOwnProperty', 'unknown'],
    ])('the conclusive status %s maps to %s', (status, code) => {
      expect(paystackFailureCode(status)).toBe(code);
    });

    /** The adapter over a Paystack that answers each request with `answer(request)`. */
    const paystackAnswering = (answer: (request: PaystackRequest) => PaystackCall) => {
      const sent: string[] = [];
      const client = { send: async (request: PaystackRequest) => (sent.push(`${request.method} ${request.path}`), answer(request)) } as unknown as PaystackClient;
      return { provider: new PaystackPayoutProvider(client), sent };
    };
    const absent: PaystackCall = { kind: 'answer', httpStatus: 404, body: { status: false, message: 'Transfer not found' } };

    it('a payment Paystack cannot carry is rejected unsent, unsupported_by_provider', async () => {
      const { provider, sent } = paystackAnswering(() => absent);
      expect(await provider.submit(bankPayment({ paymentMethod: 'MOMO' }))).toEqual({ kind: 'rejected', reason: expect.any(String), code: 'unsupported_by_provider' });
      expect(await provider.submit(bankPayment({ fiatAmount: '10.005' }))).toEqual({ kind: 'rejected', reason: expect.any(String), code: 'unsupported_by_provider' });
      expect(sent).toEqual([]);
    });

    it('a refused recipient is recipient_account_invalid, a refused transfer declined, once the reference is absent', async () => {
      const refusedRecipient = paystackAnswering((r) => (r.path === '/transferrecipient'
        ? { kind: 'answer', httpStatus: 400, body: { status: false, message: 'Account number is invalid' } } : absent));
      expect(await refusedRecipient.provider.submit(bankPayment()))
        .toEqual({ kind: 'rejected', reason: 'Paystack refused the recipient: Account number is invalid', code: 'recipient_account_invalid' });

      const refusedTransfer = paystackAnswering((r) => {
        if (r.path === '/transferrecipient') return { kind: 'answer', httpStatus: 201, body: { status: true, message: 'ok', data: { recipient_code: 'RCP_1' } } };
        if (r.path === '/transfer') return { kind: 'answer', httpStatus: 400, body: { status: false, message: 'Transfer could not be initiated' } };
        return absent;
      });
      expect(await refusedTransfer.provider.submit(bankPayment()))
        .toEqual({ kind: 'rejected', reason: 'Paystack refused the transfer: Transfer could not be initiated', code: 'declined' });
      expect(refusedTransfer.sent).toEqual(['POST /transferrecipient', 'POST /transfer', expect.stringMatching(/^GET \/transfer\/verify\//)]);
    });
  });

  describe('sandbox', () => {
    const clock = { now: () => new Date('2026-11-26T12:00:00Z') };
    const sandbox = new SandboxPayoutProvider(clock, { acceptDelayMs: 0, resultDelayMs: 0 });
    const at = new Date('2026-11-26T11:00:00Z');
    const payment = (digits: string, status: 'initiated' | 'provider_accepted') => bankPayment({
      accountNumber: `012345${digits}`, status, createdAt: at, updatedAt: at, acceptedAt: status === 'initiated' ? null : at,
    });

    it('0000 is rejected as recipient_account_invalid, 1111 fails declined, 2222 is refunded reversed', async () => {
      expect(await sandbox.submit(payment('0000', 'initiated'))).toEqual({ kind: 'rejected', reason: expect.any(String), code: 'recipient_account_invalid' });
      expect(await sandbox.status(payment('1111', 'provider_accepted'))).toEqual({ kind: 'failed', reason: expect.any(String), code: 'declined' });
      expect(await sandbox.status(payment('2222', 'provider_accepted'))).toEqual({ kind: 'refunded', reason: expect.any(String), code: 'reversed' });
    });
  });
});
