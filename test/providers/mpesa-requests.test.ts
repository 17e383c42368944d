import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MpesaClient } from '../../src/adapters/providers/mpesa/mpesa-client';
import type { MpesaConfig } from '../../src/adapters/providers/mpesa/mpesa-config';
import { MpesaPayoutProvider } from '../../src/adapters/providers/mpesa/mpesa-payout-provider';
import { B2B_PATH, B2C_PATH, payoutRequestOf, STATUS_PATH, statusQueryOf, type RequestSettings } from '../../src/adapters/providers/mpesa/mpesa-requests';
import { keKesPayment } from './mpesa-harness';

// The Daraja requests a payment becomes (https://developer.safaricom.co.ke/apis/BusinessToCustomer,
// …/BusinessPayBill, …/BusinessBuyGoods, …/TransactionStatus) and how the provider reads Daraja's
// synchronous answer (docs/decisions.md § Payments: states and events), over a scripted gateway.
const PATH_SECRET = 'cb_0123456789abcdefghijklmnopqrstuvwxyz';
const settings: RequestSettings = {
  shortcode: '600980', b2bShortcode: '600000', initiatorName: 'testapi', b2cCommandId: 'BusinessPayment',
  callbackBaseUrl: 'https://pay.example.com/cb/mpesa', callbackPathSecret: PATH_SECRET, securityCredential: 'CREDENTIAL==',
};
const url = (kind: string, id: string) => `https://pay.example.com/cb/mpesa/${PATH_SECRET}/${kind}/${id}`;

describe('payment to Daraja request', () => {
  it('MOMO to an M-Pesa number is B2C under the payment id, the number without +, whole shillings', () => {
    const payment = keKesPayment({ fiatAmount: '1500.00', accountNumber: '+254712345678' });
    expect(payoutRequestOf(payment, settings)).toEqual({
      ok: true, api: 'b2c', path: B2C_PATH, body: {
        OriginatorConversationID: payment.id, InitiatorName: 'testapi', CommandID: 'BusinessPayment', PartyA: '600980', PartyB: '254712345678',
        SecurityCredential: 'CREDENTIAL==', Amount: '1500', Remarks: `Payout ${payment.id}`,
        QueueTimeOutURL: url('timeout', payment.id), ResultURL: url('result', payment.id),
      },
    });
    expect(payoutRequestOf(keKesPayment({ accountNumber: '254712345678' }), settings)).toMatchObject({ ok: true, body: { PartyB: '254712345678' } });
  });

  it('PAYBILL is BusinessPayBill to the business number with the account as reference; TILL BusinessBuyGoods with the id\'s end', () => {
    const paybill = keKesPayment({ paymentMethod: 'PAYBILL', businessNumber: '888880', accountNumber: 'ACC-12345678X' });
    expect(payoutRequestOf(paybill, settings)).toEqual({
      ok: true, api: 'b2b', path: B2B_PATH, body: {
        Initiator: 'testapi', CommandID: 'BusinessPayBill', SenderIdentifierType: '4', RecieverIdentifierType: '4',
        PartyA: '600000', PartyB: '888880', AccountReference: 'ACC-12345678X',
        SecurityCredential: 'CREDENTIAL==', Amount: '1500', Remarks: `Payout ${paybill.id}`,
        QueueTimeOutURL: url('timeout', paybill.id), ResultURL: url('result', paybill.id),
      },
    });
    const till = keKesPayment({ paymentMethod: 'TILL', accountNumber: '5123400' });
    expect(payoutRequestOf(till, settings)).toMatchObject({
      ok: true, api: 'b2b', path: B2B_PATH, body: { CommandID: 'BusinessBuyGoods', PartyA: '600000', PartyB: '5123400', AccountReference: till.id.slice(-13) },
    });
  });

  it('refuses, with its reason, what M-Pesa cannot carry', () => {
    const refused = (over: Parameters<typeof keKesPayment>[0]) => payoutRequestOf(keKesPayment(over), settings);
    expect(refused({ country: 'UG' })).toEqual({ ok: false, reason: 'M-Pesa pays out only KES in KE' });
    expect(refused({ destinationCurrency: 'UGX' })).toEqual({ ok: false, reason: 'M-Pesa pays out only KES in KE' });
    expect(refused({ fiatAmount: '1500.5' })).toEqual({ ok: false, reason: 'M-Pesa carries whole shillings only; 1500.5 KES has cents' });
    expect(refused({ paymentCode: 'AIRTEL' })).toEqual({ ok: false, reason: 'M-Pesa does not pay AIRTEL wallets' });
    for (const accountNumber of ['+25571234567', '+2547123456789', '0712345678', '+254 712345678']) {
      expect(refused({ accountNumber })).toEqual({ ok: false, reason: 'accountNumber is not a Kenyan M-Pesa number (254 and 9 digits)' });
    }
    expect(refused({ fiatAmount: '9' })).toEqual({ ok: false, reason: 'M-Pesa B2C carries 10 to 250,000 KES per payment' });
    expect(refused({ fiatAmount: '250001' })).toEqual({ ok: false, reason: 'M-Pesa B2C carries 10 to 250,000 KES per payment' });
    expect(refused({ fiatAmount: '10' })).toMatchObject({ ok: true });
    expect(refused({ fiatAmount: '250000' })).toMatchObject({ ok: true });
    for (const businessNumber of [null, '1234', '12345678', '12a456']) {
      expect(refused({ paymentMethod: 'PAYBILL', businessNumber, accountNumber: 'A1' })).toEqual({ ok: false, reason: 'businessNumber is not an M-Pesa PayBill number' });
    }
    expect(refused({ paymentMethod: 'PAYBILL', businessNumber: '12345', accountNumber: 'A'.repeat(13) })).toMatchObject({ ok: true });
    expect(refused({ paymentMethod: 'PAYBILL', businessNumber: '1234567', accountNumber: 'A'.repeat(14) }))
      .toEqual({ ok: false, reason: 'M-Pesa PayBill account references have at most 13 characters' });
    expect(refused({ paymentMethod: 'TILL', accountNumber: '51234' })).toMatchObject({ ok: true });
    expect(refused({ paymentMethod: 'TILL', accountNumber: 'till-51234' })).toEqual({ ok: false, reason: 'accountNumber is not an M-Pesa till number' });
    expect(refused({ paymentMethod: 'BANK', paymentCode: '01' })).toEqual({ ok: false, reason: 'M-Pesa does not pay BANK payouts' });
  });

  it('a Transaction Status query asks by OriginalConversationID from the payment\'s PartyA, answering to its status callbacks', () => {
    const b2c = keKesPayment();
    expect(statusQueryOf(b2c, b2c.id, settings)).toEqual({
      Initiator: 'testapi', SecurityCredential: 'CREDENTIAL==', CommandID: 'TransactionStatusQuery', OriginalConversationID: b2c.id,
      PartyA: '600980', IdentifierType: '4', ResultURL: url('status', b2c.id), QueueTimeOutURL: url('status-timeout', b2c.id), Remarks: `Status ${b2c.id}`,
    });
    expect(statusQueryOf(keKesPayment({ paymentMethod: 'TILL', accountNumber: '5123400' }), 'AG_1', settings)).toMatchObject({ PartyA: '600000', OriginalConversationID: 'AG_1' });
  });
});

describe('Daraja\'s synchronous answer to a payment request', () => {
  let server: Server;
  let reply: { status: number; body: unknown } | 'drop' = { status: 200, body: {} };
  let posted: Array<{ url: string; body: Record<string, string> }> = [];
  const providers: MpesaPayoutProvider[] = [];
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url?.startsWith('/oauth/')) return res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"t","expires_in":3599}');
        posted.push({ url: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string> });
        if (reply === 'drop') return req.socket.destroy();
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  beforeEach(() => {
    posted = [];
  });
  afterAll(async () => {
    await Promise.all(providers.map((p) => p.abort()));
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const provider = (over: Partial<MpesaConfig> = {}) => {
    const config = {
      ...settings, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, consumerKey: 'k', consumerSecret: 's',
      initiatorPassword: 'Safaricom999!*!', certificate: Buffer.from(publicKey.export({ type: 'spki', format: 'pem' })),
      connectTimeoutMs: 1_000, responseTimeoutMs: 1_000, resultWaitMs: 45_000, ...over,
    } as MpesaConfig;
    const made = new MpesaPayoutProvider(config, new MpesaClient(config));
    providers.push(made);
    return made;
  };
  const submitWith = async (status: number, body: unknown, payment = keKesPayment()) => {
    reply = { status, body };
    return provider().submit(payment);
  };
  const till = () => keKesPayment({ paymentMethod: 'TILL', accountNumber: '5123400' });

  it('the SecurityCredential is the initiator password encrypted to the certificate\'s key (RSA PKCS#1 v1.5)', async () => {
    const payment = keKesPayment();
    await submitWith(200, { OriginatorConversationID: payment.id, ResponseCode: '0' }, payment);
    // Node refuses PKCS#1 v1.5 private decryption (CVE-2023-46809): the padding 00 02 <nonzero> 00 is read by hand.
    const block = privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, Buffer.from(posted[0]!.body.SecurityCredential!, 'base64'));
    expect([block[0], block[1]]).toEqual([0, 2]);
    expect(block.subarray(block.indexOf(0, 2) + 1).toString('utf8')).toBe('Safaricom999!*!');
  });

  it('ResponseCode 0 naming our id is accepted, rechecked after MPESA_RESULT_WAIT_MS; naming another id, unknown', async () => {
    const payment = keKesPayment();
    expect(await submitWith(200, { OriginatorConversationID: payment.id, ConversationID: 'AG_1', ResponseCode: 0, ResponseDescription: 'Accept the service request successfully.' }, payment))
      .toEqual({ kind: 'accepted', providerRef: payment.id, recheckAfterMs: 45_000 });
    expect(await submitWith(200, { OriginatorConversationID: 'pay_01JDX0000000000000000000ZZ', ResponseCode: '0' }, payment))
      .toEqual({ kind: 'unknown', reason: 'Daraja acknowledged another OriginatorConversationID' });
  });

  it('B2B is accepted under the OriginatorConversationID Daraja assigns', async () => {
    expect(await submitWith(200, { OriginatorConversationID: '5118-111210482-1', ConversationID: 'AG_2', ResponseCode: '0' }, till()))
      .toEqual({ kind: 'accepted', providerRef: '5118-111210482-1', recheckAfterMs: 45_000 });
    expect(posted[0]!.url).toBe(B2B_PATH);
  });

  it('a gateway error for a malformed request is rejected with its message (120 characters at most), or its code', async () => {
    expect(await submitWith(400, { requestId: 'r', errorCode: '400.002.02', errorMessage: `Bad Request - Invalid Amount ${'x'.repeat(200)}` }))
      .toEqual({ kind: 'rejected', reason: `M-Pesa refused the request: ${`Bad Request - Invalid Amount ${'x'.repeat(200)}`.slice(0, 120)}`, code: 'declined' });
    expect(await submitWith(400, { requestId: 'r', errorCode: '400.002.05' })).toEqual({ kind: 'rejected', reason: 'M-Pesa refused the request: 400.002.05', code: 'declined' });
  });

  it('a duplicate OriginatorConversationID is unknown: an earlier attempt reached Daraja', async () => {
    expect(await submitWith(500, { requestId: 'r', errorCode: '500.002.1001', errorMessage: 'Duplicate OriginatorConversationID.' }))
      .toEqual({ kind: 'unknown', reason: 'Daraja already has this OriginatorConversationID: ask its status' });
  });

  it('throttled: B2C is retried in 30 s under the same id, B2B is unknown', async () => {
    for (const errorCode of ['500.003.02', '500.003.03']) {
      expect(await submitWith(429, { requestId: 'r', errorCode })).toEqual({ kind: 'retry', afterMs: 30_000, reason: `Daraja throttled (${errorCode})` });
      expect(await submitWith(429, { requestId: 'r', errorCode }, till())).toEqual({ kind: 'unknown', reason: `Daraja throttled (${errorCode})` });
    }
  });

  it('404 and 405 are our configuration: retried in five minutes; any other answer is unknown', async () => {
    expect(await submitWith(404, '')).toEqual({ kind: 'retry', afterMs: 300_000, reason: 'Daraja HTTP 404: check MPESA_BASE_URL' });
    expect(await submitWith(405, { errorCode: '405.001.01' })).toEqual({ kind: 'retry', afterMs: 300_000, reason: 'Daraja HTTP 405 405.001.01: check MPESA_BASE_URL' });
    expect(await submitWith(500, { requestId: 'r', errorCode: '500.001.1001', errorMessage: 'Server error' })).toEqual({ kind: 'unknown', reason: 'Daraja HTTP 500 500.001.1001' });
    expect(await submitWith(503, 'down')).toEqual({ kind: 'unknown', reason: 'Daraja HTTP 503' });
    expect(await submitWith(200, { ResponseCode: '0' })).toEqual({ kind: 'unknown', reason: 'Daraja HTTP 200' });
  });

  it('a request that may have arrived and got no answer is unknown; after abort() nothing is sent and submit is retry', async () => {
    reply = 'drop';
    expect(await provider().submit(keKesPayment())).toEqual({ kind: 'unknown', reason: expect.stringMatching(/^no answer after sending/) });
    const stopped = provider();
    await stopped.abort();
    expect(await stopped.submit(keKesPayment())).toEqual({ kind: 'retry', afterMs: 30_000, reason: 'no access token: the service is stopping' });
  });

  it('status asks Transaction Status and waits a minute: by the providerRef, or a B2C payment\'s own id; an unknown B2B one waits ten minutes unasked', async () => {
    reply = { status: 200, body: { OriginatorConversationID: 'q', ResponseCode: '0' } };
    const mpesa = provider();
    expect(await mpesa.status(keKesPayment({ providerRef: 'AG_9', paymentMethod: 'TILL', accountNumber: '5123400' }))).toEqual({ kind: 'pending', afterMs: 60_000, providerRef: 'AG_9' });
    expect(posted.at(-1)).toMatchObject({ url: STATUS_PATH, body: { OriginalConversationID: 'AG_9', PartyA: '600000', CommandID: 'TransactionStatusQuery' } });
    const b2c = keKesPayment();
    expect(await mpesa.status(b2c)).toEqual({ kind: 'pending', afterMs: 60_000 });
    expect(posted.at(-1)).toMatchObject({ url: STATUS_PATH, body: { OriginalConversationID: b2c.id, PartyA: '600980' } });
    const before = posted.length;
    expect(await mpesa.status(till())).toEqual({ kind: 'pending', afterMs: 600_000 });
    expect(posted).toHaveLength(before);
  });
});
