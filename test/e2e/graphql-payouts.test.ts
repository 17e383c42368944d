import { randomUUID } from 'node:crypto';
import { gql, withEnumNames } from '../support/graphql-client';
import { eventually, startTestService, type TestService } from '../support/test-service';

const BANKS = 'query Banks($country: BankListCountry!) { banks(country: $country) { bankCode bankName } }';
const MOMO = `query Momo($type: MomoResolutionType!, $accountNumber: String, $phoneNumber: String) {
  momoResolve(type: $type, accountNumber: $accountNumber, phoneNumber: $phoneNumber) { valid type accountName accountNumber phoneNumber operators message }
}`;
const ACCOUNT = `query Account($accountNumber: String!, $currency: BankResolutionCurrency!, $bankCode: String!) {
  accountResolve(accountNumber: $accountNumber, currency: $currency, paymentType: BANK, bankCode: $bankCode) { accountId accountName }
}`;
const ID = `query Id($username: String!, $issuer: String!, $network: WalletNetwork!) {
  idResolve(username: $username, issuer: $issuer, walletNetwork: $network) { status username issuer currency walletAddress walletNetwork country reference }
}`;
const CREATE_TRQ = 'mutation Trq($input: TransferRequestInput!) { createTransferRequest(input: $input) { link } }';
const TRQ = `query Trq($reference: String!) {
  transferRequest(reference: $reference) { reference status link amount currency acquirerMerchantName recipient createdAt expiresAt }
}`;
const LEGACY = 'mutation Legacy($input: LegacyPayoutInput!) { legacyPayout(input: $input) { success transactionId replayed } }';

/** The code of the first error, or undefined when the operation succeeded. */
const codeOf = (body: any): string | undefined => body.errors?.[0]?.extensions?.code;

describe('GraphQL: bank list, resolutions, transfer requests and the legacy payout', () => {
  let service: TestService;
  let key: string;
  let otherKey: string;
  beforeAll(async () => {
    service = await startTestService();
    ({ apiKey: key } = await service.newTenant());
    ({ apiKey: otherKey } = await service.newTenant());
  });
  afterAll(() => service.close());

  const query = (text: string, variables: Record<string, unknown> = {}, apiKey = key) => gql(service.baseUrl, text, variables, apiKey);
  const rest = (method: string, path: string, body?: unknown, apiKey = key) => service.call(method, path, { apiKey, ...(body ? { body } : {}) });

  describe('banks', () => {
    it.each(['NG', 'ZA'])('lists the banks of %s exactly as REST does', async (country) => {
      const res = await query(BANKS, { country });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.banks.length).toBeGreaterThan(0);
      expect(res.body.data.banks).toEqual((await rest('GET', `/v1/account/banks?country=${country}`)).body);
    });

    it('refuses a country without a bank list', async () => {
      expect(codeOf((await query(BANKS, { country: 'KE' })).body)).toBe('validation_error');
    });

    it('refuses a caller without a key', async () => {
      const res = await gql(service.baseUrl, BANKS, { country: 'NG' });
      expect(res.status).toBe(401);
      expect(codeOf(res.body)).toBe('unauthorized');
    });
  });

  describe('momoResolve', () => {
    it.each([
      [{ type: 'till', accountNumber: '123456' }],
      [{ type: 'paybill', accountNumber: '654321' }],
      [{ type: 'momo', phoneNumber: '+254712345678' }],
      [{ type: 'till', accountNumber: '120000' }],
      [{ type: 'momo', phoneNumber: '254712340000' }],
    ])('answers %j as REST does', async (input) => {
      const res = await query(MOMO, withEnumNames(input, ['type']));
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.momoResolve).toEqual(withEnumNames((await rest('POST', '/momo/resolve', input)).body, ['type']));
    });

    it('a number that does not resolve is valid: false with a message, not an error', async () => {
      const res = await query(MOMO, { type: 'TILL', accountNumber: '120000' });
      expect(res.body.data.momoResolve).toMatchObject({ valid: false, accountName: '', message: expect.stringMatching(/.+/) });
    });

    it.each([
      [{ type: 'till', accountNumber: '12345' }], [{ type: 'till', accountNumber: '1234567' }],
      [{ type: 'till' }], [{ type: 'momo' }], [{ type: 'momo', phoneNumber: '0712345678' }],
    ])('refuses %j with validation_error', async (input) => {
      expect(codeOf((await query(MOMO, withEnumNames(input, ['type']))).body)).toBe('validation_error');
    });
  });

  describe('accountResolve', () => {
    it('resolves an NGN account as REST does', async () => {
      const input = { accountNumber: '0123456789', currency: 'NGN', bankCode: '058' };
      const res = await query(ACCOUNT, input);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.accountResolve).toEqual((await rest('POST', '/account/resolve', { ...input, paymentType: 'bank' })).body);
      expect(res.body.data.accountResolve.accountName).not.toBe('');
    });

    it('an account that does not exist is account_not_found, REST\'s shape C code', async () => {
      const res = await query(ACCOUNT, { accountNumber: '0123450000', currency: 'NGN', bankCode: '058' });
      expect(res.body.data).toEqual({ accountResolve: null });
      expect(codeOf(res.body)).toBe('account_not_found');
    });

    it.each([
      [{ accountNumber: '012345678', currency: 'NGN', bankCode: '058' }],
      [{ accountNumber: '01234567890123456', currency: 'NGN', bankCode: '058' }],
      [{ accountNumber: '0123456789', currency: 'NGN', bankCode: '999' }],
    ])('refuses %j with validation_error', async (input) => {
      expect(codeOf((await query(ACCOUNT, input)).body)).toBe('validation_error');
    });

    it('accepts the boundaries of 10 and 16 digits', async () => {
      for (const accountNumber of ['0123456789', '0123456789012345']) {
        expect((await query(ACCOUNT, { accountNumber, currency: 'KES', bankCode: '058' })).body.errors).toBeUndefined();
      }
    });
  });

  describe('idResolve', () => {
    it.each([['Solana', /^[1-9A-HJ-NP-Za-km-z]{32,44}$/], ['Base', /^0x[0-9a-f]{40}$/]])('resolves on %s as REST does', async (network, address) => {
      const res = await query(ID, { username: 'jane.doe', issuer: 'issuer_a', network: network.toUpperCase() });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.idResolve.walletAddress).toMatch(address);
      expect(res.body.data.idResolve.reference).toMatch(/^[A-Z0-9_]+-FIAT$/);
      const restBody = (await rest('POST', '/id/resolve', { username: 'jane.doe', issuer: 'issuer_a', wallet_network: network })).body;
      // GraphQL spells REST's snake_case names in camelCase and its enum values in upper case.
      const { wallet_address: walletAddress, wallet_network: walletNetwork, ...same } = restBody;
      expect(res.body.data.idResolve).toEqual(withEnumNames({ ...same, walletAddress, walletNetwork }, ['status', 'walletNetwork']));
    });

    it('an unknown username is account_not_found; an unknown issuer is validation_error', async () => {
      expect(codeOf((await query(ID, { username: 'user0000', issuer: 'issuer_a', network: 'SOLANA' })).body)).toBe('account_not_found');
      expect(codeOf((await query(ID, { username: 'jane.doe', issuer: 'nobody', network: 'SOLANA' })).body)).toBe('validation_error');
      expect(codeOf((await query(ID, { username: '', issuer: 'issuer_a', network: 'SOLANA' })).body)).toBe('validation_error');
    });
  });

  describe('transfer requests', () => {
    const input = (overrides: Record<string, unknown> = {}) => ({
      recipient: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', amount: '150.5', acquirerMerchantName: 'ACQ_1',
      reference: `trq-${randomUUID()}`, merchantID: 'merchant-42', ...overrides,
    });

    it('createTransferRequest stores the request; transferRequest reads it as REST does', async () => {
      const trq = input({ currency: 'ZAR', terminalType: 'WEB', merchantCategoryCode: '02', description: 'Two tickets' });
      const created = await query(CREATE_TRQ, { input: trq });
      expect(created.body.errors).toBeUndefined();
      expect(created.body.data.createTransferRequest.link).toMatch(/^https:\/\/pay\.acquirer-one\.example\/transfer\?token=/);
      const read = await query(TRQ, { reference: trq.reference });
      expect(read.body.data.transferRequest).toMatchObject({ reference: trq.reference, status: 'PENDING', amount: '150.50', currency: 'ZAR', link: created.body.data.createTransferRequest.link });
      expect(read.body.data.transferRequest).toEqual(withEnumNames((await rest('GET', `/tx/transferRequests/${trq.reference}`)).body, ['status']));
    });

    it('a reference used twice is duplicate_reference', async () => {
      const trq = input();
      expect((await query(CREATE_TRQ, { input: trq })).body.errors).toBeUndefined();
      expect(codeOf((await query(CREATE_TRQ, { input: trq })).body)).toBe('duplicate_reference');
    });

    it.each([
      ['amount 0.009', { amount: '0.009' }, 'validation_error'], ['amount 0.01', { amount: '0.01' }, undefined],
      ['amount 1.234', { amount: '1.234' }, 'validation_error'],
      ['description of 100', { description: 'd'.repeat(100) }, undefined], ['description of 101', { description: 'd'.repeat(101) }, 'validation_error'],
      ['URL of 256', { successUrl: `https://x.example/${'u'.repeat(238)}` }, undefined],
      ['URL of 257', { successUrl: `https://x.example/${'u'.repeat(239)}` }, 'validation_error'],
      ['merchantCategoryCode 03', { merchantCategoryCode: '03' }, 'validation_error'],
    ])('%s answers %p; a refused request is not stored', async (_label, overrides, code) => {
      const trq = input(overrides);
      expect(codeOf((await query(CREATE_TRQ, { input: trq })).body)).toBe(code);
      const stored = await query(TRQ, { reference: trq.reference });
      expect(codeOf(stored.body)).toBe(code ? 'not_found' : undefined);
    });

    it("another tenant's reference is not_found; an over-long one is validation_error", async () => {
      const trq = input();
      await query(CREATE_TRQ, { input: trq });
      expect(codeOf((await query(TRQ, { reference: trq.reference }, otherKey)).body)).toBe('not_found');
      expect(codeOf((await query(TRQ, { reference: 'r'.repeat(129) })).body)).toBe('validation_error');
    });
  });

  describe('legacyPayout', () => {
    /** REST's body; GraphQL takes it with `destination` as its enum value name (MoMo → MOMO). */
    const restInput = (overrides: Record<string, unknown> = {}) => ({
      amount: '1500', destination: 'MoMo', accountName: 'Jane Wanjiku', accountNumber: '254712345678',
      reference: `legacy-${randomUUID()}`, currency: 'KES', country: 'KE', code: 'MPESA', ...overrides,
    });
    const input = (overrides: Record<string, unknown> = {}) => withEnumNames(restInput(overrides), ['destination']);

    it('creates a payment that reaches succeeded, readable through payment(id)', async () => {
      const res = await query(LEGACY, { input: input() });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.legacyPayout).toEqual({ success: true, transactionId: expect.stringMatching(/^pay_/), replayed: false });
      const id = res.body.data.legacyPayout.transactionId;
      const done = await eventually(async () => {
        const p = await query('query P($id: ID!) { payment(id: $id) { status paymentMethod fiatAmount } }', { id });
        return p.body.data.payment.status === 'SUCCEEDED' ? p.body.data.payment : undefined;
      });
      expect(done).toEqual({ status: 'SUCCEEDED', paymentMethod: 'MOMO', fiatAmount: '1500.00' });
    });

    it('is deduplicated by reference across transports: same input replays, other input is duplicate_reference', async () => {
      const body = input();
      const viaRest = await rest('POST', '/momo/payout', { ...body, destination: 'MoMo', amount: 1500 });
      expect(viaRest.status).toBe(200);
      const replay = await query(LEGACY, { input: body });
      expect(replay.body.data.legacyPayout).toEqual({ success: true, transactionId: viaRest.body.transactionId, replayed: true });
      expect(codeOf((await query(LEGACY, { input: { ...body, amount: '1600' } })).body)).toBe('duplicate_reference');
    });

    it.each([
      [{ destination: 'Till', accountNumber: '12345' }, 'validation_error'],
      [{ destination: 'Till', accountNumber: '123456' }, undefined],
      [{ destination: 'Till', accountNumber: '1234567' }, 'validation_error'],
      [{ destination: 'Bank', accountNumber: '123456789', currency: 'NGN', country: 'NG', code: '100004' }, 'validation_error'],
      [{ destination: 'Bank', accountNumber: '1234567890', currency: 'NGN', country: 'NG', code: '100004' }, undefined],
      [{ destination: 'Paybill', accountNumber: 'ACC-42' }, 'validation_error'],
      [{ code: 'MTN' }, 'validation_error'],
    ])('%j answers %p', async (overrides, code) => {
      expect(codeOf((await query(LEGACY, { input: input(overrides) })).body)).toBe(code);
    });

    it('refusals carry REST\'s shape B codes and write no payment', async () => {
      const poor = await service.newTenant('1');
      const before = (await rest('GET', '/v1/payments?limit=100', undefined, poor.apiKey)).body;
      const res = await query(LEGACY, { input: input() }, poor.apiKey);
      expect(codeOf(res.body)).toBe('insufficient_balance');
      expect((await rest('GET', '/v1/payments?limit=100', undefined, poor.apiKey)).body).toEqual(before);
    });
  });
});
