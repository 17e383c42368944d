import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FlutterwaveClient } from '../../src/adapters/providers/flutterwave/flutterwave-client';
import { FlutterwavePayoutProvider, FlutterwaveUnavailableError } from '../../src/adapters/providers/flutterwave/flutterwave-payout-provider';
import { bankPayment, configFor, momoPayment } from './flutterwave-harness';

// How the Flutterwave provider reads each answer to `POST /v3/transfers` and `GET /v3/transfers?reference=`
// (https://developer.flutterwave.com/reference/endpoints/transfers/), from a scripted server over
// real local HTTP: answers the simulator does not give on demand.
type Answer = { status: number; body: unknown } | 'drop';

let server: Server;
let createAnswer: Answer;
let lookupAnswer: Answer;
let seen: Array<{ method: string; url: string; body: string }> = [];
const clients: FlutterwaveClient[] = [];

const ok = (data: unknown) => ({ status: 'success', message: 'ok', data });
const list = (items: unknown[]) => ({ status: 'success', message: 'Transfers fetched', meta: { page_info: { total: items.length, current_page: 1, total_pages: 1 } }, data: items });
const refusal = (status: number, message: string): Answer => ({ status, body: { status: 'error', message, data: null } });
const transferOf = (reference: string, over: Record<string, unknown> = {}) =>
  ({ id: 4242, reference, status: 'NEW', amount: 15000.5, currency: 'NGN', complete_message: '', created_at: new Date().toISOString(), ...over });

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      const answer = req.method === 'POST' ? createAnswer : lookupAnswer;
      if (answer === 'drop') return req.socket.destroy();
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
beforeEach(() => {
  seen = [];
  createAnswer = { status: 200, body: ok({}) };
  lookupAnswer = { status: 200, body: list([]) };
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const provider = (options: ConstructorParameters<typeof FlutterwavePayoutProvider>[2] = {}, url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`) => {
  const client = new FlutterwaveClient(configFor(url));
  clients.push(client);
  const config = configFor(url);
  return new FlutterwavePayoutProvider(client, config.sender, options);
};
const lookups = () => seen.filter((r) => r.method === 'GET').length;

describe('Flutterwave answers to a transfer', () => {
  it('sends one POST /v3/transfers with our reference, the amount in major units and the bank code; 2xx with our transfer is accepted', async () => {
    const payment = bankPayment();
    createAnswer = { status: 200, body: ok(transferOf(payment.id)) };
    expect(await provider({ resultWaitMs: 90_000 }).submit(payment)).toEqual({ kind: 'accepted', providerRef: '4242', recheckAfterMs: 90_000 });
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v3/transfers']);
    expect(JSON.parse(seen[0]!.body)).toEqual({
      account_bank: '058', account_number: '0123456780', amount: 15000.5, currency: 'NGN',
      narration: `Payout ${payment.id}`, reference: payment.id, beneficiary_name: 'Ada Obi',
    });
    expect(await provider().submit(payment)).toEqual({ kind: 'accepted', providerRef: '4242' });
  });

  it('a mobile-money payout names the operator as account_bank and the number with its country code, without +', async () => {
    const payment = momoPayment({ country: 'SN', destinationCurrency: 'XOF', paymentCode: 'ORANGE', accountNumber: '+221771234510', fiatAmount: '20000' });
    createAnswer = { status: 200, body: ok(transferOf(payment.id, { currency: 'XOF' })) };
    expect((await provider().submit(payment)).kind).toBe('accepted');
    expect(JSON.parse(seen[0]!.body)).toMatchObject({ account_bank: 'ORANGEMONEY', account_number: '221771234510', amount: 20000, currency: 'XOF' });
    expect(JSON.parse(seen[0]!.body)).not.toHaveProperty('meta');
  });

  it('a Kenyan M-Pesa payout goes to MPS in KES, cents kept, with the configured sender in meta', async () => {
    const payment = momoPayment({ country: 'KE', destinationCurrency: 'KES', paymentCode: 'MPESA', accountNumber: '+254712345610', fiatAmount: '1500.25' });
    createAnswer = { status: 200, body: ok(transferOf(payment.id, { currency: 'KES' })) };
    expect((await provider().submit(payment)).kind).toBe('accepted');
    expect(JSON.parse(seen[0]!.body)).toEqual({
      account_bank: 'MPS', account_number: '254712345610', amount: 1500.25, currency: 'KES', narration: `Payout ${payment.id}`,
      reference: payment.id, beneficiary_name: 'Ada Obi',
      meta: { sender: 'Payout Gateway Ltd', sender_country: 'KE', mobile_number: '254700000001' },
    });
  });

  it('Kenya: Airtel, a number outside +254 and a third decimal are refused before any call', async () => {
    for (const overrides of [
      { paymentCode: 'AIRTEL', accountNumber: '+254733123410', fiatAmount: '1500' },
      { paymentCode: 'MPESA', accountNumber: '+256712345610', fiatAmount: '1500' },
      { paymentCode: 'MPESA', accountNumber: '+254712345610', fiatAmount: '1500.255' },
    ]) {
      const outcome = await provider().submit(momoPayment({ country: 'KE', destinationCurrency: 'KES', ...overrides }));
      expect(outcome).toMatchObject({ kind: 'rejected', code: 'unsupported_by_provider' });
    }
    expect(seen).toEqual([]);
  });

  it('2xx without a readable transfer of ours is unknown', async () => {
    const payment = bankPayment();
    createAnswer = { status: 200, body: ok(transferOf('pay_01JDX00000000000000000000Z')) };
    expect(await provider().submit(payment)).toEqual({ kind: 'unknown', reason: 'Flutterwave answered HTTP 200 without a readable transfer' });
    createAnswer = { status: 201, body: { status: 'success' } };
    expect(await provider().submit(payment)).toEqual({ kind: 'unknown', reason: 'Flutterwave answered HTTP 201 without a readable transfer' });
  });

  it('5xx and 3xx are unknown, with no look-up', async () => {
    createAnswer = { status: 502, body: {} };
    expect(await provider().submit(bankPayment())).toEqual({ kind: 'unknown', reason: 'Flutterwave answered HTTP 502' });
    createAnswer = { status: 302, body: {} };
    expect(await provider().submit(bankPayment())).toEqual({ kind: 'unknown', reason: 'Flutterwave answered HTTP 302' });
    expect(lookups()).toBe(0);
  });

  it('a dropped connection after sending is unknown; a refused connection is retried', async () => {
    createAnswer = 'drop';
    expect((await provider().submit(bankPayment())).kind).toBe('unknown');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await provider({}, `http://127.0.0.1:${port}`).submit(bankPayment())).toMatchObject({ kind: 'retry', afterMs: 5_000 });
  });

  it('401 and 403 are our key or address: retried in a minute, no look-up', async () => {
    for (const status of [401, 403]) {
      seen = [];
      createAnswer = refusal(status, 'Invalid authorization key');
      expect(await provider().submit(bankPayment())).toEqual({ kind: 'retry', afterMs: 60_000, reason: 'Flutterwave refused our credentials or address: Invalid authorization key' });
      expect(lookups()).toBe(0);
    }
  });

  it('a 400 refusal with no transfer under our reference is rejected as declined, after one look-up by reference', async () => {
    const payment = bankPayment();
    createAnswer = refusal(400, 'Invalid account number');
    expect(await provider().submit(payment)).toEqual({ kind: 'rejected', reason: 'Flutterwave refused the transfer: Invalid account number', code: 'declined' });
    expect(seen.filter((r) => r.method === 'GET').map((r) => r.url)).toEqual([`/v3/transfers?reference=${payment.id}`]);
  });

  it('a 400 refusal while a transfer under our reference exists (a duplicate reference) is that transfer, accepted', async () => {
    const payment = bankPayment();
    createAnswer = refusal(400, 'Transfer reference already exists');
    lookupAnswer = { status: 200, body: list([transferOf(payment.id, { id: 77, status: 'PENDING' })]) };
    expect(await provider().submit(payment)).toEqual({ kind: 'accepted', providerRef: '77' });
  });

  it('an insufficient balance (Flutterwave\'s text) and a 429 are retried, unless the transfer exists', async () => {
    createAnswer = refusal(400, 'DISBURSE FAILED: Insufficient funds in customer wallet');
    expect(await provider().submit(bankPayment())).toMatchObject({ kind: 'retry', afterMs: 300_000 });
    createAnswer = refusal(429, 'Too many requests');
    expect(await provider().submit(bankPayment())).toMatchObject({ kind: 'retry', afterMs: 30_000 });
    const payment = bankPayment();
    lookupAnswer = { status: 200, body: list([transferOf(payment.id, { id: 78 })]) };
    expect(await provider().submit(payment)).toEqual({ kind: 'accepted', providerRef: '78' });
  });

  it('a refusal whose look-up fails is unknown, never rejected', async () => {
    createAnswer = refusal(400, 'Invalid account number');
    lookupAnswer = { status: 500, body: { status: 'error', message: 'down' } };
    expect(await provider().submit(bankPayment())).toEqual({
      kind: 'unknown', reason: 'Flutterwave refused the transfer: Invalid account number; could not confirm that no transfer exists (transfer look-up answered HTTP 500: down)',
    });
  });

  it('refuses before any call what Flutterwave cannot carry', async () => {
    const cases: Array<[Partial<Parameters<typeof bankPayment>[0]>, string]> = [
      [{ paymentMethod: 'PAYBILL', country: 'KE', destinationCurrency: 'KES' }, 'Flutterwave pays bank accounts and mobile money, not PAYBILL'],
      [{ country: 'GH', destinationCurrency: 'GHS', paymentCode: 'GCB' }, 'Flutterwave does not pay bank accounts in GH'],
      [{ fiatAmount: '100.005' }, 'Flutterwave cannot carry 100.005 NGN: it takes positive amounts with at most 2 decimal places'],
      [{ destinationCurrency: 'GHS' }, 'Flutterwave pays NGN in NG, not GHS'],
    ];
    for (const [over, reason] of cases) {
      expect(await provider().submit(bankPayment(over))).toEqual({ kind: 'rejected', reason, code: 'unsupported_by_provider' });
    }
    const momo: Array<[Parameters<typeof momoPayment>[0], string]> = [
      [{ paymentCode: 'MPESA' }, 'Flutterwave does not pay MPESA mobile money in UG'],
      [{ country: 'TZ', destinationCurrency: 'TZS' }, 'Flutterwave does not pay AIRTEL mobile money in TZ'],
      [{ accountNumber: '+254701234510' }, 'Flutterwave in UG pays numbers starting with +256'],
      [{ fiatAmount: '50000.5' }, 'Flutterwave cannot carry 50000.5 UGX: it takes positive amounts with at most 0 decimal places'],
    ];
    for (const [over, reason] of momo) {
      expect(await provider().submit(momoPayment(over))).toEqual({ kind: 'rejected', reason, code: 'unsupported_by_provider' });
    }
    expect(seen).toEqual([]);
  });
});

describe('Flutterwave answers to a status query', () => {
  const status = async (over: Record<string, unknown>) => {
    const payment = bankPayment();
    lookupAnswer = { status: 200, body: list([transferOf(payment.id, over)]) };
    return provider().status(payment);
  };

  it('NEW (queued) and PENDING are pending, rechecked in a minute', async () => {
    expect(await status({ status: 'NEW' })).toEqual({ kind: 'pending', afterMs: 60_000, providerRef: '4242' });
    expect(await status({ status: 'PENDING' })).toEqual({ kind: 'pending', afterMs: 60_000, providerRef: '4242' });
  });

  it('SUCCESSFUL is succeeded', async () => {
    expect(await status({ status: 'SUCCESSFUL', complete_message: 'Successful' })).toEqual({ kind: 'succeeded', providerRef: '4242' });
  });

  it('FAILED is failed, its complete_message as the reason', async () => {
    expect(await status({ status: 'FAILED', complete_message: 'Account not credited' })).toEqual({
      kind: 'failed', reason: 'Flutterwave transfer failed: Account not credited', code: 'unknown',
    });
    expect(await status({ status: 'FAILED', complete_message: null })).toEqual({ kind: 'failed', reason: 'Flutterwave transfer failed', code: 'unknown' });
  });

  it.each([
    ['DISBURSE FAILED: Insufficient funds in customer wallet', 'insufficient_provider_balance'],
    ['DISBURSE FAILED: Insufficient wallet balance', 'insufficient_provider_balance'],
    ['DISBURSE FAILED: You can only spend GHS 1000.00 at once', 'limit_exceeded'],
    ['beneficiary_name is required', 'provider_error'],
    ['DISBURSE FAILED: A fatal error occured while proccesing your request.', 'provider_error'],
  ])('FAILED with "%s" carries the code %s', async (message, code) => {
    expect(await status({ status: 'FAILED', complete_message: message })).toEqual({ kind: 'failed', reason: `Flutterwave transfer failed: ${message}`, code });
  });

  it('a status Flutterwave does not document waits, long, with the word as its unknown status', async () => {
    expect(await status({ status: 'REVERSED' })).toEqual({ kind: 'pending', afterMs: 900_000, providerRef: '4242', unknownStatus: 'REVERSED' });
  });

  it('an empty list is not_found', async () => {
    expect(await provider().status(bankPayment())).toEqual({ kind: 'not_found' });
  });

  it('a list carrying other references (the filter not applied) proves nothing: unavailable', async () => {
    const payment = bankPayment();
    lookupAnswer = { status: 200, body: list([transferOf('someone-else')]) };
    await expect(provider().status(payment)).rejects.toThrow(new FlutterwaveUnavailableError('transfer look-up by reference listed other transfers'));
  });

  it('a 5xx, a 401, an unreadable body or a dropped connection is unavailable', async () => {
    for (const answer of [{ status: 500, body: {} }, refusal(401, 'Invalid authorization key'), { status: 200, body: { status: 'success' } }, 'drop' as const]) {
      lookupAnswer = answer;
      await expect(provider().status(bankPayment())).rejects.toBeInstanceOf(FlutterwaveUnavailableError);
    }
  });

  it('our reference in an unreadable item is unavailable, never not_found', async () => {
    const payment = bankPayment();
    lookupAnswer = { status: 200, body: list([{ reference: payment.id, status: 'SUCCESSFUL' }]) };
    await expect(provider().status(payment)).rejects.toThrow('transfer look-up listed our reference in an unreadable item');
  });
});
