import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PaystackAccountDirectory } from '../../src/adapters/providers/paystack/paystack-account-directory';
import { PaystackClient } from '../../src/adapters/providers/paystack/paystack-client';
import type { BankAccountQuery } from '../../src/core/resolution/resolution-ports';
import { configFor } from './paystack-harness';

// Paystack's bank list and account resolution (official OpenAPI `bank_list`, `resolveBankAccount`;
// https://paystack.com/docs/identity-verification/verify-account-number/) as the directory reads
// them, from a scripted server over real local HTTP.
type Answer = { status: number; body: unknown } | 'drop';

let server: Server;
let answer: Answer;
let asked: URL[] = [];
const clients: PaystackClient[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      asked.push(new URL(req.url ?? '/', 'http://paystack.test'));
      if (answer === 'drop') return req.socket.destroy();
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
beforeEach(() => {
  asked = [];
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const directory = (now?: () => number) => {
  const client = new PaystackClient(configFor(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'sk_test_directory'));
  clients.push(client);
  return new PaystackAccountDirectory(client, now);
};
const query = (over: Partial<BankAccountQuery> = {}) => ({ accountNumber: '0123456789', bankCode: '058', currency: 'NGN', ...over }) as BankAccountQuery;

describe('Paystack account resolution', () => {
  it('asks /bank/resolve with the number and bank code, and answers the holder Paystack names', async () => {
    answer = { status: 200, body: { status: true, message: 'Account number resolved', data: { account_number: '0123456789', account_name: 'ADA OBI', bank_id: 9 } } };
    expect(await directory().bankAccount(query())).toEqual({ ok: true, value: { accountId: '0123456789', accountName: 'ADA OBI' } });
    expect(asked[0]!.pathname).toBe('/bank/resolve');
    expect(Object.fromEntries(asked[0]!.searchParams)).toEqual({ account_number: '0123456789', bank_code: '058' });
  });

  it('400, 404 and 422 with Paystack\'s error body are account_not_found; other answers upstream_unavailable', async () => {
    for (const status of [400, 404, 422]) {
      answer = { status, body: { status: false, message: 'Could not resolve account name. Check parameters or try again.' } };
      expect(await directory().bankAccount(query())).toEqual({ ok: false, code: 'account_not_found', message: 'No account 0123456789 at bank 058' });
    }
    answer = { status: 422, body: 'no body' };
    expect(await directory().bankAccount(query())).toEqual({ ok: false, code: 'upstream_unavailable', message: 'Paystack could not resolve the account (HTTP 422)' });
    answer = { status: 500, body: { status: false, message: 'An error occurred' } };
    expect(await directory().bankAccount(query())).toEqual({ ok: false, code: 'upstream_unavailable', message: 'Paystack could not resolve the account (HTTP 500)' });
    answer = { status: 200, body: { status: true, message: 'ok', data: { account_number: '0123456789', account_name: '' } } };
    expect(await directory().bankAccount(query())).toMatchObject({ ok: false, code: 'upstream_unavailable' });
    answer = 'drop';
    expect(await directory().bankAccount(query())).toEqual({ ok: false, code: 'upstream_unavailable', message: 'Paystack could not be reached' });
  });

  it('KES accounts are not resolved; paybills, tills and wallets never are', async () => {
    expect(await directory().bankAccount(query({ currency: 'KES' }))).toEqual({ ok: false, code: 'upstream_unavailable', message: 'Paystack does not resolve KES bank accounts' });
    expect(await directory().merchant('till', '5123400')).toEqual({ ok: false, code: 'upstream_unavailable', message: 'Paystack does not look up till numbers' });
    expect(await directory().mobileWallet('KE', '+254712345678')).toEqual({ ok: false, code: 'upstream_unavailable', message: 'Paystack does not look up mobile-money wallets' });
    expect(asked).toHaveLength(0);
  });
});

describe('Paystack bank list', () => {
  const banks = [
    { name: 'Access Bank', code: '044', active: true, is_deleted: false, supports_transfer: true, type: 'nuban' },
    { name: 'Old Bank', code: '001', active: false },
    { name: 'Deleted Bank', code: '002', is_deleted: true },
    { name: 'No Transfers Bank', code: '003', supports_transfer: false },
    { name: 'MTN Mobile Money', code: 'MTN', type: 'mobile_money' },
    { name: 'Wallet Co', code: 'WAL', type: 'mobile_money_business' },
    { name: 'GTBank', code: '058', is_deleted: null, type: null },
  ];

  it('lists the active, transfer-capable banks of the country\'s currency in Paystack\'s order, without mobile money', async () => {
    answer = { status: 200, body: { status: true, message: 'Banks retrieved', data: banks } };
    expect(await directory().banks('NG')).toEqual({ ok: true, value: [{ bankCode: '044', bankName: 'Access Bank' }, { bankCode: '058', bankName: 'GTBank' }] });
    expect(asked[0]!.pathname).toBe('/bank');
    expect(Object.fromEntries(asked[0]!.searchParams)).toEqual({ currency: 'NGN' });
  });

  it('keeps a list an hour per currency', async () => {
    answer = { status: 200, body: { status: true, message: 'ok', data: banks } };
    let now = 0;
    const paystack = directory(() => now);
    await paystack.banks('NG');
    now = 3_600_000 - 1;
    expect(await paystack.coversBank('NG', '058')).toBe(true);
    expect(asked).toHaveLength(1);
    await paystack.banks('GH');
    expect(asked.map((u) => u.searchParams.get('currency'))).toEqual(['NGN', 'GHS']);
    now = 3_600_000;
    await paystack.banks('NG');
    expect(asked).toHaveLength(3);
  });

  it('a country Paystack does not serve, an error answer or no answer is upstream_unavailable; coversBank is then false', async () => {
    expect(await directory().banks('UG')).toEqual({ ok: false, code: 'upstream_unavailable', message: 'Paystack lists no banks in UG' });
    answer = { status: 401, body: { status: false, message: 'Invalid key' } };
    expect(await directory().banks('NG')).toEqual({ ok: false, code: 'upstream_unavailable', message: 'Paystack bank list failed: Invalid key' });
    answer = { status: 200, body: { status: true, message: 'ok', data: 'banks' } };
    expect(await directory().banks('NG')).toEqual({ ok: false, code: 'upstream_unavailable', message: 'Paystack bank list failed: HTTP 200 without a Paystack error body' });
    answer = 'drop';
    expect(await directory().banks('NG')).toEqual({ ok: false, code: 'upstream_unavailable', message: 'Paystack could not be reached' });
    expect(await directory().coversBank('NG', '058')).toBe(false);
    answer = { status: 200, body: { status: true, message: 'ok', data: banks } };
    expect(await directory().coversBank('NG', '001')).toBe(false);
  });
});
