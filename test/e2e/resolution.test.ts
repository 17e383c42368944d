import type { AccountDirectory, IssuerDirectory } from '../../src/core/resolution/resolution-ports';
import { err } from '../../src/core/shared/result';
import { startTestService, type TestService } from '../support/test-service';

const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const BASE_ADDRESS = /^0x[0-9a-f]{40}$/;
const SHAPE_A_400 = { statusCode: 400, code: 'validation_error', message: expect.any(String), details: { requestId: expect.any(String), fields: expect.any(Array) } };
const shapeC = (statusCode: number, error: string) => ({ statusCode, error, message: expect.any(String), details: expect.any(String), code: error });

describe('bank list and recipient resolution over HTTP', () => {
  let service: TestService;
  let apiKey: string;

  beforeAll(async () => {
    service = await startTestService();
    ({ apiKey } = await service.newTenant('0'));
  });
  afterAll(() => service.close());

  const post = (path: string, body: unknown) => service.call('POST', path, { apiKey, body });

  describe('GET /v1/account/banks', () => {
    it('lists the banks of NG and of ZA as {bankCode, bankName}', async () => {
      const ng = await service.call('GET', '/v1/account/banks?country=NG', { apiKey });
      expect(ng.status).toBe(200);
      expect(ng.body).toHaveLength(7);
      expect(ng.body).toContainEqual({ bankCode: '058', bankName: 'Guaranty Trust Bank' });
      for (const bank of ng.body) expect(Object.keys(bank).sort()).toEqual(['bankCode', 'bankName']);
      const za = await service.call('GET', '/v1/account/banks?country=ZA', { apiKey });
      expect(za.status).toBe(200);
      expect(za.body.map((b: { bankCode: string }) => b.bankCode)).toEqual(['632005', '250655', '051001']);
    });

    it.each(['KE', 'GH', 'ng', 'XX', ''])('refuses country %p (400 shape A)', async (country) => {
      const res = await service.call('GET', `/v1/account/banks?country=${country}`, { apiKey });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(SHAPE_A_400);
    });

    it('refuses a missing country and a missing key', async () => {
      expect((await service.call('GET', '/v1/account/banks', { apiKey })).body).toEqual(SHAPE_A_400);
      const anon = await service.call('GET', '/v1/account/banks?country=NG');
      expect(anon.status).toBe(401);
      expect(anon.body.code).toBe('unauthorized');
    });
  });

  describe('POST /momo/resolve', () => {
    it.each(['paybill', 'till'])('resolves a %s number with every field of the momo resolution', async (type) => {
      const res = await post('/momo/resolve', { type, accountNumber: '123456' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        valid: true, type, accountName: expect.any(String), accountNumber: '123456', phoneNumber: '', operators: [], message: expect.any(String),
      });
      expect(res.body.accountName).not.toBe('');
      // Deterministic: the same number has the same registered name.
      expect((await post('/momo/resolve', { type, accountNumber: '123456' })).body.accountName).toBe(res.body.accountName);
    });

    it.each([
      ['paybill', '12345'], ['paybill', '1234567'], ['till', '12345'], ['till', '1234567'], ['till', '12345a'],
    ])('refuses a %s number %p that is not 6 digits (400 shape A)', async (type, accountNumber) => {
      const res = await post('/momo/resolve', { type, accountNumber });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(SHAPE_A_400);
    });

    it.each([
      [{ type: 'paybill' }], [{ type: 'till', phoneNumber: '254712345678' }], [{ type: 'momo' }], [{ type: 'momo', accountNumber: '123456' }],
      [{ accountNumber: '123456' }], [{ type: 'bank', accountNumber: '123456' }], [{ type: 'momo', phoneNumber: '0712345678' }],
      [{ type: 'momo', phoneNumber: '+254 712 345678' }], [{ type: 'till', accountNumber: '123456', extra: 1 }],
    ])('refuses %j (400 shape A)', async (body) => {
      const res = await post('/momo/resolve', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(SHAPE_A_400);
    });

    it('answers valid: false for a paybill or till ending 0000', async () => {
      const res = await post('/momo/resolve', { type: 'till', accountNumber: '120000' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        valid: false, type: 'till', accountName: '', accountNumber: '120000', phoneNumber: '', operators: [], message: expect.any(String),
      });
      expect(res.body.message).not.toBe('');
    });

    it.each([
      ['+254712345678', '254712345678', ['MPESA', 'AIRTEL']],
      ['254712345678', '254712345678', ['MPESA', 'AIRTEL']],
      ['256772123456', '256772123456', ['MTN', 'AIRTEL']],
      ['+233241234567', '233241234567', ['MTN']],
      ['225071234567', '225071234567', ['ORANGE', 'MTN', 'MOOV', 'WAVE']],
    ])('resolves momo %s to its country operators', async (phoneNumber, normalised, operators) => {
      const res = await post('/momo/resolve', { type: 'momo', phoneNumber });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        valid: true, type: 'momo', accountName: '', accountNumber: '', phoneNumber: normalised, operators, message: expect.any(String),
      });
    });

    it.each([
      ['254712340000', 'a number ending 0000'],
      ['15551234567', 'an unknown country code'],
      ['2348031234567', 'a country without mobile money (NG)'],
    ])('answers valid: false for momo %s (%s)', async (phoneNumber) => {
      const res = await post('/momo/resolve', { type: 'momo', phoneNumber });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ valid: false, type: 'momo', accountName: '', accountNumber: '', phoneNumber, operators: [] });
      expect(res.body.message).not.toBe('');
    });
  });

  describe('POST /account/resolve', () => {
    const body = (overrides: Record<string, unknown> = {}) => ({ accountNumber: '0123456789', currency: 'NGN', paymentType: 'bank', bankCode: '058', ...overrides });

    it.each(['100004', '100033', '011', '058', '033', '090267', '110006'])('resolves an account at bank %s', async (bankCode) => {
      const res = await post('/account/resolve', body({ bankCode }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ accountId: '0123456789', accountName: expect.any(String) });
      expect(res.body.accountName).not.toBe('');
    });

    it('resolves in KES too, and the same number to the same name', async () => {
      const a = await post('/account/resolve', body({ currency: 'KES', accountNumber: '1234567890123' }));
      const b = await post('/account/resolve', body({ currency: 'KES', accountNumber: '1234567890123' }));
      expect(a.status).toBe(200);
      expect(b.body).toEqual(a.body);
    });

    it('answers 404 shape C account_not_found for a number ending 0000', async () => {
      const res = await post('/account/resolve', body({ accountNumber: '0123450000' }));
      expect(res.status).toBe(404);
      expect(res.body).toEqual(shapeC(404, 'account_not_found'));
      expect(Object.keys(res.body).sort()).toEqual(['code', 'details', 'error', 'message', 'statusCode']);
    });

    it.each([
      [{ bankCode: '999' }], [{ bankCode: '632005' }], [{ bankCode: 58 }], [{ currency: 'ZAR' }], [{ paymentType: 'momo' }],
      [{ accountNumber: '123456789' }], [{ accountNumber: '12345678901234567' }], [{ accountNumber: '01234abc89' }],
      [{ accountNumber: undefined }], [{ bankCode: undefined }], [{ extra: true }],
    ])('refuses %j (400 shape A)', async (overrides) => {
      const res = await post('/account/resolve', body(overrides));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(SHAPE_A_400);
    });
  });

  describe('POST /id/resolve', () => {
    const resolve = (overrides: Record<string, unknown> = {}) =>
      post('/id/resolve', { username: 'jane.doe', issuer: 'issuer_a', wallet_network: 'Solana', ...overrides });

    it('resolves a Solana address with every field of the identifier resolution', async () => {
      const res = await resolve();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 'Successful', username: 'jane.doe', issuer: 'issuer_a', currency: 'KES',
        wallet_address: expect.stringMatching(SOLANA_ADDRESS), wallet_network: 'Solana', country: 'Kenya', reference: 'PAYOUT-FIAT',
      });
    });

    it('resolves a Base address as 0x + 40 lower-case hex', async () => {
      const res = await resolve({ wallet_network: 'Base', issuer: 'issuer_d' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ wallet_network: 'Base', issuer: 'issuer_d', currency: 'USDC', country: 'Kenya' });
      expect(res.body.wallet_address).toMatch(BASE_ADDRESS);
    });

    it.each([
      ['issuer_b', 'Nigeria', 'NGN'], ['issuer_c', 'South Africa', 'ZAR'],
    ])('takes country and currency of %s from the catalog', async (issuer, country, currency) => {
      expect((await resolve({ issuer })).body).toMatchObject({ issuer, country, currency });
    });

    it('is stable: the same input gives the same address; another input another', async () => {
      const first = (await resolve()).body.wallet_address;
      expect((await resolve()).body.wallet_address).toBe(first);
      expect((await resolve({ username: 'john.doe' })).body.wallet_address).not.toBe(first);
      expect((await resolve({ issuer: 'issuer_b' })).body.wallet_address).not.toBe(first);
    });

    it('answers 404 shape C account_not_found for a username ending 0000', async () => {
      const res = await resolve({ username: 'user0000' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(shapeC(404, 'account_not_found'));
    });

    it.each([
      [{ issuer: 'issuer_e' }], [{ wallet_network: 'solana' }], [{ wallet_network: 'Ethereum' }], [{ username: '' }],
      [{ username: '   ' }], [{ username: 'x'.repeat(65) }], [{ network: 'Solana', wallet_network: undefined }], [{ username: 42 }],
    ])('refuses %j (400 shape A)', async (overrides) => {
      const res = await resolve(overrides);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(SHAPE_A_400);
    });

    it('uses SERVICE_NAME in the reference', async () => {
      const other = await startTestService({ SERVICE_NAME: 'ACME' });
      try {
        const { apiKey: key } = await other.newTenant('0');
        const res = await other.call('POST', '/id/resolve', { apiKey: key, body: { username: 'jane.doe', issuer: 'issuer_a', wallet_network: 'Solana' } });
        expect(res.body.reference).toBe('ACME-FIAT');
      } finally {
        await other.close();
      }
    });
  });

  it('lists every resolution route in GET /openapi.json with its error shapes', async () => {
    const doc = (await service.call('GET', '/openapi.json')).body;
    expect(doc.paths['/v1/account/banks'].get.operationId).toBe('listBanks');
    expect(doc.paths['/momo/resolve'].post.responses['200']).toBeDefined();
    for (const path of ['/account/resolve', '/id/resolve']) {
      const responses = doc.paths[path].post.responses;
      // Each status declares its shape narrowed to the codes it carries (ErrorC404: allOf ErrorC and its codes).
      expect(responses['404'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorC404');
      expect(doc.components.schemas.ErrorC404.allOf[0].$ref).toBe('#/components/schemas/ErrorC');
      expect(responses['502']).toBeDefined();
      expect(responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorA400');
      expect(doc.components.schemas.ErrorA400.allOf[0].$ref).toBe('#/components/schemas/ErrorA');
    }
    expect(doc.components.schemas.ErrorC.required.sort()).toEqual(['code', 'details', 'error', 'message', 'statusCode']);
    expect(doc.components.schemas.MomoResolution.required.sort()).toEqual(['accountName', 'accountNumber', 'message', 'operators', 'phoneNumber', 'type', 'valid']);
    const bankCodes = doc.components.schemas.AccountResolveRequest.properties.bankCode.enum;
    expect(bankCodes).toEqual(['100004', '100033', '011', '058', '033', '090267', '110006']);
    expect(doc.components.schemas.IdResolveRequest.properties.issuer.enum).toEqual(['issuer_a', 'issuer_b', 'issuer_c', 'issuer_d']);
  });
});

describe('resolution when a directory is down', () => {
  let service: TestService;
  let apiKey: string;
  const down = async () => err('upstream_unavailable' as const, 'directory timed out');
  const accounts: AccountDirectory = { merchant: down, mobileWallet: down, bankAccount: down };
  const issuers: IssuerDirectory = { walletAddress: down };

  beforeAll(async () => {
    service = await startTestService({}, { accountDirectory: accounts, issuerDirectory: issuers });
    ({ apiKey } = await service.newTenant('0'));
  });
  afterAll(() => service.close());

  it.each([
    ['/momo/resolve', { type: 'paybill', accountNumber: '123456' }],
    ['/momo/resolve', { type: 'momo', phoneNumber: '254712345678' }],
    ['/account/resolve', { accountNumber: '0123456789', currency: 'NGN', paymentType: 'bank', bankCode: '058' }],
    ['/id/resolve', { username: 'jane.doe', issuer: 'issuer_a', wallet_network: 'Base' }],
  ])('%s answers 502 shape C upstream_unavailable', async (path, body) => {
    const res = await service.call('POST', path, { apiKey, body });
    expect(res.status).toBe(502);
    expect(res.body).toEqual(shapeC(502, 'upstream_unavailable'));
  });
});
