import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PaystackClient } from '../../src/adapters/providers/paystack/paystack-client';
import { PaystackPayoutProvider, PaystackUnavailableError } from '../../src/adapters/providers/paystack/paystack-payout-provider';
import { listPaystackTransfers } from '../../src/adapters/providers/paystack/paystack-reconciliation';
import { paystackRecords } from '../../src/adapters/providers/paystack/paystack-records';
import { configFor } from './paystack-harness';

// Paystack's transfer list, `GET /transfer?from=&to=` (official OpenAPI `transfer_list`: `status`,
// `data`, `meta.page`, `meta.pageCount`), as reconciliation reads it (docs/decisions.md §
// Reconciliation). The list answers here are scripted page by page over real local HTTP, so each
// edge the simulator never produces (an unreadable item, a failing page) can be served.
type Page = { status: number; body: unknown } | 'drop';

let server: Server;
let url: string;
let pages: Page[] = [];
let asked: URL[] = [];
const clients: PaystackClient[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://paystack.test');
    asked.push(query);
    const page = pages[Number(query.searchParams.get('page')) - 1] ?? { status: 200, body: { status: true, message: 'ok', data: [], meta: { page: 99, pageCount: 1 } } };
    if (page === 'drop') {
      req.socket.destroy();
      return;
    }
    res.writeHead(page.status, { 'content-type': 'application/json' }).end(JSON.stringify(page.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
beforeEach(() => {
  pages = [];
  asked = [];
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const client = () => {
  const made = new PaystackClient(configFor(url, 'sk_test_listing'));
  clients.push(made);
  return made;
};
const ID_A = 'pay_01JDX0000000000000000000AA';
const ID_B = 'pay_01JDX0000000000000000000BB';
const transfer = (paymentId: string, over: Record<string, unknown> = {}) => ({
  reference: paymentId.toLowerCase(), transfer_code: `TRF_${paymentId.slice(-2)}`, status: 'success', amount: 1500050, currency: 'NGN', ...over,
});
const listPage = (data: unknown[], page: number, pageCount: number): Page => ({ status: 200, body: { status: true, message: 'Transfers retrieved', data, meta: { page, pageCount, perPage: 100 } } });
const FROM = new Date('2026-11-26T10:00:00.000Z');
const TO = new Date('2026-11-26T11:00:00.000Z');

describe('listing transfers between two instants', () => {
  it('asks page by page with the window as ISO 8601 UTC and a page size under both spellings, until meta.pageCount', async () => {
    pages = [listPage([transfer(ID_A, { createdAt: '2026-11-26T10:05:00.000Z' })], 1, 2), listPage([transfer(ID_B, { created_at: '2026-11-26T10:06:00.000Z', status: 'failed' })], 2, 2)];
    const listed = await listPaystackTransfers(client(), FROM, TO);
    expect(asked.map((u) => `${u.pathname} ${u.searchParams.get('page')}`)).toEqual(['/transfer 1', '/transfer 2']);
    expect(Object.fromEntries(asked[0]!.searchParams)).toEqual({
      from: '2026-11-26T10:00:00.000Z', to: '2026-11-26T11:00:00.000Z', page: '1', perPage: '100', per_page: '100',
    });
    expect(listed).toEqual({ ok: true, value: { othersSkipped: 0, transfers: [
      { paymentId: ID_A, providerRef: 'TRF_AA', outcome: { kind: 'succeeded', providerRef: 'TRF_AA' }, providerStatus: 'success', amount: '15000.50', currency: 'NGN', createdAt: '2026-11-26T10:05:00.000Z' },
      expect.objectContaining({ paymentId: ID_B, providerStatus: 'failed', outcome: expect.objectContaining({ kind: 'failed' }), createdAt: '2026-11-26T10:06:00.000Z' }),
    ] } });
  });

  it('an empty page ends the listing even when meta counts more; a transfer without a creation time has none', async () => {
    pages = [listPage([transfer(ID_A)], 1, 5), listPage([], 2, 5)];
    const listed = await listPaystackTransfers(client(), FROM, TO);
    expect(asked).toHaveLength(2);
    expect(listed.ok && listed.value.transfers[0]).toEqual({
      paymentId: ID_A, providerRef: 'TRF_AA', outcome: { kind: 'succeeded', providerRef: 'TRF_AA' }, providerStatus: 'success', amount: '15000.50', currency: 'NGN',
    });
  });

  it('skips and counts transfers that are not ours: another reference, or none', async () => {
    pages = [listPage([{ ...transfer(ID_A), reference: 'invoice-2026-000000001' }, { transfer_code: 'TRF_x', status: 'success' }, transfer(ID_B)], 1, 1)];
    const listed = await listPaystackTransfers(client(), FROM, TO);
    expect(listed.ok && listed.value.othersSkipped).toBe(2);
    expect(listed.ok && listed.value.transfers.map((t) => t.paymentId)).toEqual([ID_B]);
  });

  it('one of ours that cannot be read fails the whole listing, naming the page and the payment', async () => {
    pages = [listPage([transfer(ID_A)], 1, 2), listPage([transfer(ID_B, { amount: '15000.50' })], 2, 2)];
    expect(await listPaystackTransfers(client(), FROM, TO)).toEqual({ ok: false, reason: `transfer list page 2: unreadable transfer for ${ID_B}` });
  });

  it('a page answered with an error, or with a body that is not a list, fails with the HTTP status and Paystack\'s message', async () => {
    pages = [{ status: 401, body: { status: false, message: 'Invalid key' } }];
    expect(await listPaystackTransfers(client(), FROM, TO)).toEqual({ ok: false, reason: 'transfer list page 1: HTTP 401: Invalid key' });
    pages = [listPage([transfer(ID_A)], 1, 2), { status: 200, body: { status: true, message: 'ok', data: [] } }];
    expect(await listPaystackTransfers(client(), FROM, TO))
      .toEqual({ ok: false, reason: 'transfer list page 2: HTTP 200: HTTP 200 without a Paystack error body' });
  });

  it('a page whose connection drops fails with the transport reason; the provider throws PaystackUnavailableError', async () => {
    pages = ['drop'];
    const listed = await listPaystackTransfers(client(), FROM, TO);
    expect(listed).toEqual({ ok: false, reason: expect.stringMatching(/^transfer list page 1: \S+/) });
    await expect(new PaystackPayoutProvider(client()).transfersBetween(FROM, TO)).rejects.toThrow(PaystackUnavailableError);
  });
});

describe('Paystack records for reconciliation', () => {
  it('lists over the window widened by a minute before and a day after, and keeps what a report compares', async () => {
    pages = [listPage([transfer(ID_A), transfer(ID_B, { status: 'reversed', amount: 100 })], 1, 1)];
    const records = paystackRecords(new PaystackPayoutProvider(client()));
    expect(records.provider).toBe('paystack');
    const found = await records.recordsFor([], { from: FROM, to: TO });
    expect(Object.fromEntries(asked[0]!.searchParams)).toMatchObject({ from: '2026-11-26T09:59:00.000Z', to: '2026-11-27T11:00:00.000Z' });
    expect(found).toEqual([
      { paymentId: ID_A, outcome: 'succeeded', providerStatus: 'success', amount: '15000.50', currency: 'NGN' },
      { paymentId: ID_B, outcome: 'refunded', providerStatus: 'reversed', amount: '1.00', currency: 'NGN' },
    ]);
  });

  it('a listing that cannot be read throws', async () => {
    pages = [{ status: 500, body: { status: false, message: 'An error occurred' } }];
    await expect(paystackRecords(new PaystackPayoutProvider(client())).recordsFor([], { from: FROM, to: TO })).rejects.toThrow(/HTTP 500: An error occurred/);
  });
});
