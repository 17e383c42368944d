import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { MONEY_OUT_COUNTRIES } from '../../src/core/catalog/catalog';

const SOURCE = path.resolve(__dirname, '../../data/corridors.json');
const original = (): any => JSON.parse(readFileSync(SOURCE, 'utf8'));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-test-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** Writes `data` (the shipped catalog after `edit`) to a fresh temp file and returns its path. */
const variant = (edit: (c: any) => void): string => {
  const data = original();
  edit(data);
  const file = path.join(dir, `catalog-${++n}.json`);
  writeFileSync(file, JSON.stringify(data));
  return file;
};

/** The message loadCatalog throws for `file` (fails the test if it does not throw). */
const failure = (file: string): string => {
  try {
    loadCatalog(file);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`loadCatalog(${file}) accepted an invalid catalog`);
};

describe('loadCatalog on data/corridors.json', () => {
  const catalog = loadCatalog(SOURCE);

  it('serves every money-out country plus ET', () => {
    expect(Object.keys(catalog.countries).sort()).toEqual([...MONEY_OUT_COUNTRIES, 'ET'].sort());
  });

  it('has the Kenya corridor', () => {
    expect(catalog.countries.KE).toMatchObject({ name: 'Kenya', currency: 'KES', dialCode: '254' });
    expect(catalog.countries.KE!.methods.MOMO).toEqual({ min: '10', max: '250000', codes: ['MPESA', 'AIRTEL'] });
    expect(catalog.countries.UG!.methods.MOMO!.codes).toEqual(['MTN', 'AIRTEL']);
    expect(catalog.countries.TZ!.methods.MOMO!.codes).toEqual(['AIRTEL', 'TIGO']);
    expect(catalog.countries.GH!.methods.MOMO!.codes).toEqual(['MTN']);
  });

  it('has a rate for both stablecoins for every country currency', () => {
    for (const country of Object.values(catalog.countries)) {
      expect({ currency: country!.currency, rates: Object.keys(catalog.rates[country!.currency] ?? {}).sort() })
        .toEqual({ currency: country!.currency, rates: ['USDC', 'USDT'] });
    }
  });

  it('lists the seven resolution bank codes and four wallet issuers in order', () => {
    expect(catalog.resolutionBankCodes).toEqual(['100004', '100033', '011', '058', '033', '090267', '110006']);
    expect(catalog.walletIssuers.map((i) => i.key)).toEqual(['issuer_a', 'issuer_b', 'issuer_c', 'issuer_d']);
    expect(catalog.defaultBlockchain).toBe('SOLANA');
  });

  it('has min <= max for every method offer', () => {
    for (const [code, country] of Object.entries(catalog.countries)) {
      for (const [method, offer] of Object.entries(country!.methods)) {
        expect({ code, method, ok: Number(offer!.min) <= Number(offer!.max) }).toEqual({ code, method, ok: true });
      }
    }
  });

  it('accepts an unchanged copy', () => {
    expect(loadCatalog(variant(() => undefined))).toEqual(catalog);
  });
});

describe('loadCatalog rejects bad reference data with a readable message', () => {
  it('min greater than max', () => {
    const file = variant((c) => {
      c.countries.KE.methods.MOMO.min = '300000';
    });
    const message = failure(file);
    expect(message).toContain(`Invalid corridor catalog ${file}`);
    expect(message).toContain('min must not exceed max');
    expect(message).toContain('countries.KE.methods.MOMO');
  });

  it('min greater than max compared as numbers, not strings ("9" vs "10")', () => {
    const ok = variant((c) => {
      c.countries.KE.methods.MOMO.min = '9';
      c.countries.KE.methods.MOMO.max = '10';
    });
    expect(loadCatalog(ok).countries.KE!.methods.MOMO).toMatchObject({ min: '9', max: '10' });
    const bad = variant((c) => {
      c.countries.KE.methods.MOMO.min = '10';
      c.countries.KE.methods.MOMO.max = '9';
    });
    expect(failure(bad)).toContain('min must not exceed max');
  });

  it('an unknown currency on a country', () => {
    const file = variant((c) => {
      c.countries.KE.currency = 'EUR';
    });
    const message = failure(file);
    expect(message).toContain(`Invalid corridor catalog ${file}`);
    expect(message).toContain('countries.KE.currency');
    expect(message).toContain('KES');
  });

  it('an unknown currency among the rates', () => {
    const file = variant((c) => {
      c.rates.EUR = { USDC: '0.92', USDT: '0.92' };
    });
    expect(failure(file)).toMatch(/rates/);
  });

  it('a country whose currency has no rate', () => {
    const file = variant((c) => {
      delete c.rates.UGX;
    });
    const message = failure(file);
    expect(message).toContain(`Invalid corridor catalog ${file}`);
    expect(message).toContain('country UG pays in UGX, which has no rate');
  });

  it.each([
    ['a zero maximum', (c: any) => { c.countries.KE.methods.MOMO.max = '0'; }, 'must be greater than 0'],
    ['a negative fee', (c: any) => { c.fees.issuerFee = '-0.25'; }, 'fees.issuerFee'],
    ['an exponent-form rate', (c: any) => { c.rates.KES.USDC = '1.2925e2'; }, 'rates.KES.USDC'],
    ['an unknown top-level key', (c: any) => { c.surprise = true; }, 'surprise'],
    ['an unknown payment method', (c: any) => { c.countries.KE.methods.CARD = { min: '1', max: '2', codes: ['X'] }; }, 'countries.KE.methods'],
    ['an empty code list', (c: any) => { c.countries.KE.methods.MOMO.codes = []; }, 'countries.KE.methods.MOMO.codes'],
    ['a dial code that prefixes another', (c: any) => { c.countries.KE.dialCode = '25'; }, 'dialCode 25 of KE is a prefix of'],
    ['a wallet issuer listed twice', (c: any) => { c.walletIssuers.push(c.walletIssuers[0]); }, 'wallet issuer issuer_a is listed twice'],
  ])('%s', (_name, edit, expected) => {
    const file = variant(edit);
    const message = failure(file);
    expect(message).toContain(`Invalid corridor catalog ${file}`);
    expect(message).toContain(expected);
  });

  it('a missing file names the path', () => {
    expect(() => loadCatalog(path.join(dir, 'absent.json'))).toThrow(path.join(dir, 'absent.json'));
  });
});

describe('the payout routing table', () => {
  it('ships a route for each real provider', () => {
    const routes = loadCatalog(SOURCE).payoutRoutes;
    expect(new Set(routes.flatMap((r) => r.providers))).toEqual(new Set(['mpesa', 'mtn_momo', 'paystack', 'flutterwave', 'pawapay']));
  });

  it('refuses a route for a method the country does not offer, a code it does not list, or a provider named twice', () => {
    expect(failure(variant((c) => c.payoutRoutes.push({ country: 'NG', method: 'MOMO', providers: ['mpesa'] })))).toMatch(/NG offers no MOMO/);
    expect(failure(variant((c) => c.payoutRoutes.push({ country: 'KE', method: 'MOMO', codes: ['MTN'], providers: ['mpesa'] })))).toMatch(/MTN is not a MOMO code of KE/);
    expect(failure(variant((c) => c.payoutRoutes.push({ country: 'KE', method: 'BANK', providers: ['paystack', 'paystack'] })))).toMatch(/listed twice/);
  });

  it('takes a strategy per row, ordered or success_rate, and refuses any other', () => {
    expect(failure(variant((c) => c.payoutRoutes.push({ country: 'KE', method: 'BANK', providers: ['paystack'], strategy: 'cheapest' })))).toMatch(/strategy/);
    expect(() => variant((c) => c.payoutRoutes.push({ country: 'KE', method: 'BANK', providers: ['paystack'], strategy: 'ordered' }))).not.toThrow();
  });
});
