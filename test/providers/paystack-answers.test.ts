import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PaystackClient } from '../../src/adapters/providers/paystack/paystack-client';
import { PaystackPayoutProvider, PaystackUnavailableError } from '../../src/adapters/providers/paystack/paystack-payout-provider';
import { bankPayment, configFor } from './paystack-harness';

// How the Paystack provider reads each answer to `POST /transfer` and `GET /transfer/verify/{reference}`
// (official OpenAPI `transfer_initiate`, `transfer_verify`; https://paystack.com/docs/api/errors/),
// from a scripted server over real local HTTP: answers the simulator does not give on demand.
type Answer = { status: number; body: unknown } | 'drop';

let server: Server;
let recipientAnswer: Answer;
let transferAnswer: Answer;
let verifyAnswer: Answer;
let seen: string[] = [];
const clients: PaystackClient[] = [];

const envelope = (data: unknown) => ({ status: true, message: 'ok', data });
const notFound: Answer = { status: 404, body: { status: false, message: 'Transfer not found' } };

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
      const answer = req.url === '/transferrecipient' ? recipientAnswer : req.method === 'POST' ? transferAnswer : verifyAnswer;
      if (answer === 'drop') return req.socket.destroy();
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
beforeEach(() => {
  seen = [];
  recipientAnswer = { status: 201, body: envelope({ recipient_code: 'RCP_1' }) };
  transferAnswer = { status: 200, body: envelope({}) };
  verifyAnswer = notFound;
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const provider = (url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`, options: ConstructorParameters<typeof PaystackPayoutProvider>[1] = {}) => {
  const client = new PaystackClient(configFor(url, 'sk_test_answers'));
  clients.push(client);
  return new PaystackPayoutProvider(client, options);
};
const transferOf = (reference: string, over: Record<string, unknown> = {}) =>
  envelope({ reference, transfer_code: 'TRF_1', status: 'pending', amount: 1500050, currency: 'NGN', ...over });

describe('Paystack answers to a transfer', () => {
  it('2xx with the transfer of our reference is accepted, rechecked after the configured wait when there is one', async () => {
    const payment = bankPayment();
    transferAnswer = { status: 200, body: transferOf(payment.id.toLowerCase()) };
    expect(await provider(undefined, { resultWaitMs: 90_000 }).submit(payment)).toEqual({ kind: 'accepted', providerRef: 'TRF_1', recheckAfterMs: 90_000 });
    expect(await provider().submit(payment)).toEqual({ kind: 'accepted', providerRef: 'TRF_1' });
  });

  it('2xx without a readable transfer of ours is unknown', async () => {
    const payment = bankPayment();
    transferAnswer = { status: 200, body: transferOf('pay_01jdx0000000000000000000zz') };
    expect(await provider().submit(payment)).toEqual({ kind: 'unknown', reason: 'Paystack answered HTTP 200 without a readable transfer' });
    transferAnswer = { status: 202, body: { status: true } };
    expect(await provider().submit(payment)).toEqual({ kind: 'unknown', reason: 'Paystack answered HTTP 202 without a readable transfer' });
  });

  it('5xx and 3xx are unknown', async () => {
    transferAnswer = { status: 502, body: {} };
    expect(await provider().submit(bankPayment())).toEqual({ kind: 'unknown', reason: 'Paystack answered HTTP 502' });
    transferAnswer = { status: 302, body: {} };
    expect(await provider().submit(bankPayment())).toEqual({ kind: 'unknown', reason: 'Paystack answered HTTP 302' });
  });

  it('401 and 403 are our credentials: retried in a minute, no look-up', async () => {
    for (const status of [401, 403]) {
      seen = [];
      transferAnswer = { status, body: { status: false, message: 'Invalid key' } };
      expect(await provider().submit(bankPayment())).toEqual({ kind: 'retry', afterMs: 60_000, reason: 'Paystack refused our credentials: Invalid key' });
      expect(seen).toEqual(['POST /transferrecipient', 'POST /transfer']);
    }
  });

  it('429 is retried in 30 s once the reference is confirmed absent; found, it is accepted', async () => {
    const payment = bankPayment();
    transferAnswer = { status: 429, body: { status: false, message: 'Too many requests' } };
    expect(await provider().submit(payment)).toEqual({ kind: 'retry', afterMs: 30_000, reason: 'Paystack rate limit: Too many requests' });
    expect(seen.at(-1)).toBe(`GET /transfer/verify/${payment.id.toLowerCase()}`);
    verifyAnswer = { status: 200, body: transferOf(payment.id.toLowerCase(), { transfer_code: 'TRF_found' }) };
    expect(await provider().submit(payment)).toEqual({ kind: 'accepted', providerRef: 'TRF_found' });
  });

  it('an insufficient balance is retried in five minutes; another refusal is rejected, declined', async () => {
    transferAnswer = { status: 400, body: { status: false, message: 'Your balance is not enough. Insufficient Balance' } };
    expect(await provider().submit(bankPayment())).toEqual({ kind: 'retry', afterMs: 300_000, reason: 'Paystack balance too low: Your balance is not enough. Insufficient Balance' });
    transferAnswer = { status: 400, body: { status: false, message: 'Invalid amount' } };
    expect(await provider().submit(bankPayment())).toEqual({ kind: 'rejected', reason: 'Paystack refused the transfer: Invalid amount', code: 'declined' });
  });

  it('a refusal whose absence cannot be confirmed is unknown, naming both', async () => {
    transferAnswer = { status: 400, body: { status: false, message: 'Invalid amount' } };
    verifyAnswer = { status: 500, body: { status: false, message: 'An error occurred' } };
    expect(await provider().submit(bankPayment())).toEqual({ kind: 'unknown', reason: expect.stringMatching(/^Paystack refused the transfer: Invalid amount; could not confirm that no transfer exists \(.+\)$/) });
    verifyAnswer = 'drop';
    expect(await provider().submit(bankPayment())).toEqual({ kind: 'unknown', reason: expect.stringMatching(/^Paystack refused the transfer: Invalid amount; could not confirm that no transfer exists \(\S+: .+\)$/) });
  });

  it('unreachable is retry in 5 s; a dropped transfer request unknown', async () => {
    expect(await provider('http://127.0.0.1:1').submit(bankPayment())).toMatchObject({ kind: 'retry', reason: expect.stringMatching(/^Paystack unreachable creating the recipient \(ECONNREFUSED/) });
    transferAnswer = 'drop';
    expect(await provider().submit(bankPayment())).toEqual({ kind: 'unknown', reason: expect.stringMatching(/^Paystack transfer outcome unknown: \S+/) });
  });

  it('status: unreadable verify answers throw PaystackUnavailableError', async () => {
    verifyAnswer = 'drop';
    await expect(provider().status(bankPayment())).rejects.toBeInstanceOf(PaystackUnavailableError);
    verifyAnswer = { status: 200, body: transferOf('pay_01jdx0000000000000000000zz') };
    await expect(provider().status(bankPayment())).rejects.toBeInstanceOf(PaystackUnavailableError);
    verifyAnswer = { status: 404, body: 'no' };
    await expect(provider().status(bankPayment())).rejects.toBeInstanceOf(PaystackUnavailableError);
    verifyAnswer = notFound;
    expect(await provider().status(bankPayment())).toEqual({ kind: 'not_found' });
  });
});

describe('Paystack transfer recipients', () => {
  it('a recipient is created once per account and reused; the oldest goes first when the cache is full', async () => {
    const payment = bankPayment();
    transferAnswer = { status: 200, body: transferOf(payment.id.toLowerCase()) };
    const paystack = provider(undefined, { recipientCacheSize: 2 });
    const accounts = ['0123456781', '0123456782', '0123456783'];
    const submitTo = (accountNumber: string) => paystack.submit(bankPayment({ accountNumber, id: payment.id }));
    await submitTo(accounts[0]!);
    await submitTo(accounts[0]!);
    expect(seen.filter((s) => s === 'POST /transferrecipient')).toHaveLength(1);
    await submitTo(accounts[1]!);
    await submitTo(accounts[0]!); // now the newest of the two
    await submitTo(accounts[2]!); // evicts accounts[1]
    expect(seen.filter((s) => s === 'POST /transferrecipient')).toHaveLength(3);
    await submitTo(accounts[0]!);
    expect(seen.filter((s) => s === 'POST /transferrecipient')).toHaveLength(3);
    await submitTo(accounts[1]!);
    expect(seen.filter((s) => s === 'POST /transferrecipient')).toHaveLength(4);
  });

  it('a recipient refused with 4xx is rejected as recipient_account_invalid; 401, 403, 429 and 5xx are retry', async () => {
    recipientAnswer = { status: 422, body: { status: false, message: 'Account number is invalid' } };
    expect(await provider().submit(bankPayment())).toEqual({ kind: 'rejected', reason: 'Paystack refused the recipient: Account number is invalid', code: 'recipient_account_invalid' });
    for (const status of [401, 403, 429, 500, 302]) {
      recipientAnswer = { status, body: { status: false, message: 'Try later' } };
      expect(await provider().submit(bankPayment())).toEqual({ kind: 'retry', afterMs: 30_000, reason: 'Paystack could not create the recipient: Try later' });
    }
    recipientAnswer = { status: 200, body: envelope({ recipient_code: 'NOT_A_CODE' }) };
    expect(await provider().submit(bankPayment())).toMatchObject({ kind: 'retry', reason: 'Paystack could not create the recipient: HTTP 200 without a Paystack error body' });
  });
});
