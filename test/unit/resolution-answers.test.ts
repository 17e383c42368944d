import { listBanks } from '../../src/core/resolution/list-banks';
import { resolveBankAccount } from '../../src/core/resolution/resolve-bank-account';
import { resolveMomo } from '../../src/core/resolution/resolve-momo';
import type { AccountDirectory } from '../../src/core/resolution/resolution-ports';
import { err, ok } from '../../src/core/shared/result';
import { catalog } from '../support/fake-world';

/** A directory answering from a script, recording what it was asked. */
function directory(answer: 'found' | 'account_not_found' | 'upstream_unavailable') {
  const asked: unknown[] = [];
  const reply = <T>(value: T) => (answer === 'found' ? ok(value) : err(answer, `directory: ${answer}`));
  const accounts: AccountDirectory = {
    merchant: async (type, accountNumber) => (asked.push(['merchant', type, accountNumber]), reply({ accountName: 'Mama Mboga Shop' })),
    mobileWallet: async (country, phone) => (asked.push(['wallet', country, phone]), reply(undefined)),
    bankAccount: async (query) => (asked.push(['bank', query]), reply({ accountId: 'acc-1', accountName: 'Jane Doe' })),
  };
  return { accounts, asked };
}

/** Resolution answers, word for word (OpenAPI resolveMomo, resolveBankAccount, listBanks), on a scripted directory. */
describe('resolveMomo answers', () => {
  it.each(['paybill', 'till'] as const)('resolves a %s with every field, the phone empty', async (type) => {
    const { accounts, asked } = directory('found');
    expect(await resolveMomo({ catalog, accounts }, { type, accountNumber: '123456', phoneNumber: '254712345678' })).toEqual(ok({
      valid: true, type, accountName: 'Mama Mboga Shop', accountNumber: '123456', phoneNumber: '', operators: [], message: `${type} account resolved`,
    }));
    expect(asked).toEqual([['merchant', type, '123456']]);
  });

  it('answers an unknown merchant as valid: false, and an outage as upstream_unavailable', async () => {
    expect(await resolveMomo({ catalog, accounts: directory('account_not_found').accounts }, { type: 'till', accountNumber: '123456' })).toEqual(ok({
      valid: false, type: 'till', accountName: '', accountNumber: '123456', phoneNumber: '', operators: [], message: 'No till account 123456 was found',
    }));
    expect(await resolveMomo({ catalog, accounts: directory('upstream_unavailable').accounts }, { type: 'paybill', accountNumber: '123456' }))
      .toEqual(err('upstream_unavailable', 'directory: upstream_unavailable'));
  });

  it.each([[undefined], ['12345'], ['1234567'], ['12345a']])('refuses paybill number %p', async (accountNumber) => {
    const { accounts, asked } = directory('found');
    expect(await resolveMomo({ catalog, accounts }, { type: 'paybill', ...(accountNumber !== undefined ? { accountNumber } : {}) }))
      .toEqual(err('validation_error', 'accountNumber of exactly 6 digits is required for paybill', { field: 'accountNumber' }));
    expect(asked).toEqual([]);
  });

  it('resolves a mobile-money number without its plus, with the country\'s operators', async () => {
    const { accounts, asked } = directory('found');
    const operators = catalog.countries.KE!.methods.MOMO!.codes;
    expect(await resolveMomo({ catalog, accounts }, { type: 'momo', phoneNumber: '+254712345678' })).toEqual(ok({
      valid: true, type: 'momo', accountName: '', accountNumber: '', phoneNumber: '254712345678', operators, message: `Mobile-money number in ${catalog.countries.KE!.name}`,
    }));
    expect(asked).toEqual([['wallet', 'KE', '254712345678']]);
  });

  it('answers an unregistered wallet and an unserved country code as valid: false, an outage as upstream_unavailable', async () => {
    const none = { valid: false, type: 'momo', accountName: '', accountNumber: '', operators: [] };
    expect(await resolveMomo({ catalog, accounts: directory('account_not_found').accounts }, { type: 'momo', phoneNumber: '254712345678' }))
      .toEqual(ok({ ...none, phoneNumber: '254712345678', message: 'No mobile-money wallet is registered to phoneNumber' }));
    const { accounts, asked } = directory('found');
    expect(await resolveMomo({ catalog, accounts }, { type: 'momo', phoneNumber: '15551234567' }))
      .toEqual(ok({ ...none, phoneNumber: '15551234567', message: 'The country code of phoneNumber is not served' }));
    expect(asked).toEqual([]);
    expect(await resolveMomo({ catalog, accounts: directory('upstream_unavailable').accounts }, { type: 'momo', phoneNumber: '254712345678' }))
      .toEqual(err('upstream_unavailable', 'directory: upstream_unavailable'));
  });

  it('answers valid: false for a country without mobile money, naming it', async () => {
    const { accounts, asked } = directory('found');
    const r = await resolveMomo({ catalog, accounts }, { type: 'momo', phoneNumber: '2348012345678' });
    expect(r).toEqual(ok(expect.objectContaining({ valid: false, operators: [], message: `Mobile money is not offered in ${catalog.countries.NG!.name}` })));
    expect(asked).toEqual([]);
  });

  it.each([[undefined], ['0712345678'], ['+12345'], ['2547123456781234']])('refuses momo phone %p', async (phoneNumber) => {
    expect(await resolveMomo({ catalog, accounts: directory('found').accounts }, { type: 'momo', ...(phoneNumber !== undefined ? { phoneNumber } : {}) }))
      .toEqual(err('validation_error', 'phoneNumber with country code (e.g. 254712345678) is required for momo', { field: 'phoneNumber' }));
  });
});

describe('resolveBankAccount answers', () => {
  const query = { accountNumber: '0123456789', currency: 'NGN' as const, bankCode: catalog.resolutionBankCodes[0]! };

  it('returns the holder the directory names, asking with the number, currency and bank', async () => {
    const { accounts, asked } = directory('found');
    expect(await resolveBankAccount({ catalog, accounts }, query as never)).toEqual(ok({ accountId: 'acc-1', accountName: 'Jane Doe' }));
    expect(asked).toEqual([['bank', query]]);
  });

  it('words not-found with the number and bank, and passes an outage on', async () => {
    expect(await resolveBankAccount({ catalog, accounts: directory('account_not_found').accounts }, query as never))
      .toEqual(err('account_not_found', `No account 0123456789 at bank ${query.bankCode}`));
    expect(await resolveBankAccount({ catalog, accounts: directory('upstream_unavailable').accounts }, query as never))
      .toEqual(err('upstream_unavailable', 'directory: upstream_unavailable'));
  });

  it('refuses a malformed number or an unknown bank before asking', async () => {
    const { accounts, asked } = directory('found');
    expect(await resolveBankAccount({ catalog, accounts }, { ...query, accountNumber: '12345678a0' } as never))
      .toEqual(err('validation_error', 'accountNumber must be 10 to 16 digits', { field: 'accountNumber' }));
    expect(await resolveBankAccount({ catalog, accounts }, { ...query, bankCode: 'nope' } as never))
      .toEqual(err('validation_error', `bankCode must be one of ${catalog.resolutionBankCodes.join(', ')}`, { field: 'bankCode' }));
    expect(asked).toEqual([]);
  });
});

describe('listBanks answers', () => {
  it('lists NG and ZA banks in catalog order, and names the countries it serves otherwise', async () => {
    expect(await listBanks(catalog, 'NG')).toEqual(ok(catalog.countries.NG!.banks));
    expect(await listBanks(catalog, 'ZA')).toEqual(ok(catalog.countries.ZA!.banks));
    expect((catalog.countries.NG!.banks ?? []).length).toBeGreaterThan(0);
    expect(await listBanks(catalog, 'KE')).toEqual(err('validation_error', 'country must be one of NG, ZA', { field: 'country' }));
  });

  it('takes a live directory\'s list when it answers, and the catalog\'s when it cannot', async () => {
    const paystack = [{ bankCode: '044', bankName: 'Access Bank' }];
    const answering = { banks: async () => ok(paystack) };
    const failing = { banks: async () => err('upstream_unavailable' as const, 'down') };
    expect(await listBanks(catalog, 'NG', answering as never)).toEqual(ok(paystack));
    expect(await listBanks(catalog, 'NG', failing as never)).toEqual(ok(catalog.countries.NG!.banks));
  });
});
