import { readFileSync } from 'node:fs';
import path from 'node:path';
import { catalogSchema, loadCatalog } from '../../src/adapters/providers/catalog-file';
import { SandboxAccountDirectory } from '../../src/adapters/providers/sandbox-account-directory';
import { base58, SandboxIssuerDirectory } from '../../src/adapters/providers/sandbox-issuer-directory';
import { countryOfPhone } from '../../src/core/resolution/dial-codes';
import { listBanks } from '../../src/core/resolution/list-banks';
import { resolveBankAccount } from '../../src/core/resolution/resolve-bank-account';
import { resolveIdentifier } from '../../src/core/resolution/resolve-identifier';
import { resolveMomo } from '../../src/core/resolution/resolve-momo';
import type { AccountDirectory, IssuerDirectory, LiveAccountDirectory } from '../../src/core/resolution/resolution-ports';
import { err, ok } from '../../src/core/shared/result';

const CATALOG_PATH = path.resolve(__dirname, '../../data/corridors.json');
const catalog = loadCatalog(CATALOG_PATH);
const accounts = new SandboxAccountDirectory();
const issuers = new SandboxIssuerDirectory();
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const BASE_ADDRESS = /^0x[0-9a-f]{40}$/;

describe('base58', () => {
  it.each([
    [[], ''],
    [[0], '1'],
    [[0, 0, 1], '112'],
    [[...Buffer.from('hello world')], 'StV1DL6CwTryKyV'],
    [[...Buffer.from('Hello World!')], '2NEpo7TZRRrLZSi2U'],
    [new Array(32).fill(0), '11111111111111111111111111111111'],
  ])('encodes %j as %p', (bytes, expected) => {
    expect(base58(Uint8Array.from(bytes))).toBe(expected);
  });

  it('encodes 32 bytes of 0xff in 44 characters', () => {
    expect(base58(new Uint8Array(32).fill(255))).toBe('JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG');
  });
});

describe('SandboxIssuerDirectory', () => {
  it('derives well-formed, stable, input-specific addresses', async () => {
    const lookup = { issuer: 'issuer_a', username: 'jane.doe', network: 'Solana' as const };
    const a = await issuers.walletAddress(lookup);
    const b = await issuers.walletAddress(lookup);
    expect(a).toEqual(b);
    expect(a.ok && a.value.walletAddress).toMatch(SOLANA_ADDRESS);
    const base = await issuers.walletAddress({ ...lookup, network: 'Base' });
    expect(base.ok && base.value.walletAddress).toMatch(BASE_ADDRESS);
    const others = await Promise.all([
      issuers.walletAddress({ ...lookup, issuer: 'issuer_b' }),
      issuers.walletAddress({ ...lookup, username: 'jane.doe2' }),
    ]);
    for (const other of others) expect(other).not.toEqual(a);
  });

  it('derives valid Solana addresses for many usernames (leading zero bytes included)', async () => {
    for (let i = 0; i < 500; i += 1) {
      const found = await issuers.walletAddress({ issuer: 'issuer_c', username: `user${i}x`, network: 'Solana' });
      expect(found.ok && found.value.walletAddress).toMatch(SOLANA_ADDRESS);
    }
  });

  it('does not find a username ending 0000', async () => {
    expect(await issuers.walletAddress({ issuer: 'issuer_a', username: 'abc0000', network: 'Base' })).toMatchObject({ ok: false, code: 'account_not_found' });
  });
});

describe('SandboxAccountDirectory', () => {
  it('names the same number the same way and refuses numbers ending 0000', async () => {
    const query = { accountNumber: '0123456789', currency: 'NGN' as const, bankCode: '058' };
    expect(await accounts.bankAccount(query)).toEqual(await accounts.bankAccount(query));
    expect(await accounts.bankAccount({ ...query, accountNumber: '0123450000' })).toMatchObject({ ok: false, code: 'account_not_found' });
    expect(await accounts.merchant('till', '990000')).toMatchObject({ ok: false, code: 'account_not_found' });
    expect(await accounts.mobileWallet('KE', '254712340000')).toMatchObject({ ok: false, code: 'account_not_found' });
    expect(await accounts.mobileWallet('KE', '254712345678')).toEqual(ok(undefined));
  });
});

describe('catalog resolution data', () => {
  const raw = JSON.parse(readFileSync(CATALOG_PATH, 'utf8'));

  it('has the seven resolution bank codes of the corridor catalog and four issuers', () => {
    expect(catalog.resolutionBankCodes).toEqual(['100004', '100033', '011', '058', '033', '090267', '110006']);
    expect(catalog.walletIssuers.map((i) => i.key)).toEqual(['issuer_a', 'issuer_b', 'issuer_c', 'issuer_d']);
  });

  it('maps phone numbers to countries by dialling code', () => {
    expect(countryOfPhone(catalog, '254712345678')).toBe('KE');
    expect(countryOfPhone(catalog, '27821234567')).toBe('ZA');
    expect(countryOfPhone(catalog, '2348031234567')).toBe('NG');
    expect(countryOfPhone(catalog, '15551234567')).toBeUndefined();
  });

  it('refuses dialling codes that are prefixes of each other, duplicate issuers and bank codes', () => {
    const bad = structuredClone(raw);
    bad.countries.KE.dialCode = '25';
    bad.walletIssuers.push(bad.walletIssuers[0]);
    bad.resolutionBankCodes.push('058');
    const messages = catalogSchema.safeParse(bad).error?.issues.map((i) => i.message).join('\n');
    expect(messages).toContain("dialCode 25 of KE is a prefix of UG's 256");
    expect(messages).toContain('wallet issuer issuer_a is listed twice');
    expect(messages).toContain('resolution bank code 058 is listed twice');
  });

  it('requires dialCode, resolutionBankCodes and walletIssuers', () => {
    const bad = structuredClone(raw);
    delete bad.countries.GH.dialCode;
    delete bad.walletIssuers;
    expect(catalogSchema.safeParse(bad).success).toBe(false);
  });
});

describe('listBanks', () => {
  it('serves NG and ZA only', async () => {
    expect(await listBanks(catalog, 'NG')).toMatchObject({ ok: true, value: expect.arrayContaining([{ bankCode: '011', bankName: 'First Bank of Nigeria' }]) });
    expect(await listBanks(catalog, 'KE')).toMatchObject({ ok: false, code: 'validation_error' });
  });

  it('a live directory\'s list when it answers, the catalog\'s when it cannot', async () => {
    // Only `banks` is asked for a list.
    const live = (answer: 'ok' | 'down') => ({
      banks: async () => (answer === 'ok' ? ok([{ bankCode: '044', bankName: 'Access Bank' }]) : err('upstream_unavailable' as const, 'down')),
    }) as unknown as LiveAccountDirectory;
    expect(await listBanks(catalog, 'NG', live('ok'))).toEqual(ok([{ bankCode: '044', bankName: 'Access Bank' }]));
    expect(await listBanks(catalog, 'NG', live('down'))).toEqual(ok(catalog.countries.NG!.banks));
  });
});

describe('resolveMomo', () => {
  const deps = { catalog, accounts };

  it('validates the number each type needs', async () => {
    for (const query of [
      { type: 'paybill' as const }, { type: 'till' as const, accountNumber: '1234567' },
      { type: 'momo' as const }, { type: 'momo' as const, phoneNumber: '0712345678' },
    ]) {
      expect(await resolveMomo(deps, query)).toMatchObject({ ok: false, code: 'validation_error' });
    }
  });

  it('fills every field, empty where not applicable', async () => {
    expect(await resolveMomo(deps, { type: 'momo', phoneNumber: '+255712345678', accountNumber: '123456' })).toEqual(ok({
      valid: true, type: 'momo', accountName: '', accountNumber: '', phoneNumber: '255712345678', operators: ['AIRTEL', 'TIGO'], message: expect.any(String),
    }));
  });

  it('passes a directory outage on as upstream_unavailable', async () => {
    const down = async () => err('upstream_unavailable' as const, 'down');
    const broken: AccountDirectory = { merchant: down, mobileWallet: down, bankAccount: down };
    expect(await resolveMomo({ catalog, accounts: broken }, { type: 'paybill', accountNumber: '123456' })).toMatchObject({ ok: false, code: 'upstream_unavailable' });
    // An unknown country code is decided before the directory is asked.
    expect(await resolveMomo({ catalog, accounts: broken }, { type: 'momo', phoneNumber: '15551234567' })).toMatchObject({ ok: true, value: { valid: false } });
  });
});

describe('resolveBankAccount', () => {
  const query = { accountNumber: '0123456789', currency: 'NGN' as const, paymentType: 'bank' as const, bankCode: '058' };

  it('checks the bank code against the catalog and the number length', async () => {
    expect(await resolveBankAccount({ catalog, accounts }, { ...query, bankCode: '632005' })).toMatchObject({ ok: false, code: 'validation_error' });
    expect(await resolveBankAccount({ catalog, accounts }, { ...query, accountNumber: '123456789' })).toMatchObject({ ok: false, code: 'validation_error' });
    expect(await resolveBankAccount({ catalog, accounts }, { ...query, accountNumber: '1234567890123456' })).toMatchObject({ ok: true });
    expect(await resolveBankAccount({ catalog, accounts }, { ...query, accountNumber: '12345678901234567' })).toMatchObject({ ok: false, code: 'validation_error' });
  });

  it('answers account_not_found for a number ending 0000', async () => {
    expect(await resolveBankAccount({ catalog, accounts }, { ...query, accountNumber: '0123450000' })).toMatchObject({ ok: false, code: 'account_not_found' });
  });
});

describe('resolveIdentifier', () => {
  const deps = { catalog, issuers, serviceName: 'PAYOUT' };
  const query = { username: 'jane.doe', issuer: 'issuer_c', wallet_network: 'Base' as const };

  it('combines the catalog issuer, the directory address and the service memo', async () => {
    const result = await resolveIdentifier(deps, query);
    expect(result).toEqual(ok({
      status: 'Successful', username: 'jane.doe', issuer: 'issuer_c', currency: 'ZAR', wallet_address: expect.stringMatching(BASE_ADDRESS),
      wallet_network: 'Base', country: 'South Africa', reference: 'PAYOUT-FIAT',
    }));
  });

  it('refuses unknown issuers and blank usernames; maps directory failures', async () => {
    expect(await resolveIdentifier(deps, { ...query, issuer: 'issuer_z' })).toMatchObject({ ok: false, code: 'validation_error' });
    expect(await resolveIdentifier(deps, { ...query, username: ' ' })).toMatchObject({ ok: false, code: 'validation_error' });
    const missing: IssuerDirectory = { walletAddress: async () => err('account_not_found' as const, 'no such user') };
    expect(await resolveIdentifier({ ...deps, issuers: missing }, query)).toMatchObject({ ok: false, code: 'account_not_found' });
    const down: IssuerDirectory = { walletAddress: async () => err('upstream_unavailable' as const, 'timeout') };
    expect(await resolveIdentifier({ ...deps, issuers: down }, query)).toMatchObject({ ok: false, code: 'upstream_unavailable' });
  });
});
