import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { catalogSchema, loadCatalog } from '../../src/adapters/providers/catalog-file';

/**
 * The corridor catalog's rules between fields (docs/decisions.md § Corridor catalog) at their
 * edges: what is accepted exactly at a bound, and each refusal's whole message.
 */
const SOURCE = path.resolve(__dirname, '../../data/corridors.json');
const shipped = (): any => JSON.parse(readFileSync(SOURCE, 'utf8'));

/** The messages the schema refuses `data` with (none when it is accepted). */
function problems(edit: (c: any) => void): string[] {
  const data = shipped();
  edit(data);
  const parsed = catalogSchema.safeParse(data);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('corridor catalog rules at their edges', () => {
  it('a rate of 6 decimal places is accepted, 7 refused (rates are stored with 6)', () => {
    expect(problems((c) => { c.rates.KES.USDC = '129.123456'; })).toEqual([]);
    expect(problems((c) => { c.rates.KES.USDC = '129.1234567'; })).toEqual(['rates.KES.USDC: at most 6 decimal places']);
  });

  it('an offer whose minimum equals its maximum is accepted; a positive amount must be above 0', () => {
    expect(problems((c) => { c.countries.KE.methods.MOMO.min = '500'; c.countries.KE.methods.MOMO.max = '500'; })).toEqual([]);
    expect(problems((c) => { c.countries.KE.methods.MOMO.min = '0.01'; })).toEqual([]);
    expect(problems((c) => { c.countries.KE.methods.MOMO.min = '0.00'; })).toEqual(['countries.KE.methods.MOMO.min: must be greater than 0']);
    expect(problems((c) => { c.countries.KE.methods.MOMO.min = '501'; c.countries.KE.methods.MOMO.max = '500'; }))
      .toEqual(['countries.KE.methods.MOMO: min must not exceed max']);
  });

  it('a resolution bank code listed twice is refused, naming it', () => {
    expect(problems((c) => { c.resolutionBankCodes.push('058'); })).toEqual([': resolution bank code 058 is listed twice']);
  });

  it('a dial code prefixing others names the first country it clashes with, and both codes', () => {
    expect(problems((c) => { c.countries.KE.dialCode = '25'; })).toEqual([': dialCode 25 of KE is a prefix of UG\'s 256']);
  });

  it('routes: listed codes of an offered method pass; each refusal names the route', () => {
    expect(problems((c) => { c.payoutRoutes.push({ country: 'KE', method: 'MOMO', codes: ['MPESA', 'AIRTEL'], providers: ['mpesa', 'other'] }); })).toEqual([]);
    expect(problems((c) => { c.payoutRoutes.push({ country: 'NG', method: 'MOMO', providers: ['mpesa'] }); }))
      .toEqual([': payoutRoutes: NG offers no MOMO']);
    // A route for a country the catalog does not serve at all is refused the same way, never a throw.
    expect(problems((c) => { delete c.countries.KE; })).toEqual([
      ': payoutRoutes: KE offers no MOMO', ': payoutRoutes: KE offers no PAYBILL', ': payoutRoutes: KE offers no TILL', ': payoutRoutes: KE offers no BANK',
    ]);
    expect(problems((c) => { c.payoutRoutes.push({ country: 'KE', method: 'MOMO', codes: ['MPESA', 'MTN', 'X'], providers: ['mpesa'] }); }))
      .toEqual([': payoutRoutes: MTN is not a MOMO code of KE', ': payoutRoutes: X is not a MOMO code of KE']);
    expect(problems((c) => { c.payoutRoutes.push({ country: 'KE', method: 'MOMO', providers: ['a_b', 'a_c', 'a_b'] }); }))
      .toEqual([`payoutRoutes.${shipped().payoutRoutes.length}.providers: a provider is listed twice`]);
  });

  it('a file that is not JSON throws; a valid one loads its routes with the default of none', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-rules-'));
    try {
      const broken = path.join(dir, 'broken.json');
      writeFileSync(broken, '{');
      expect(() => loadCatalog(broken)).toThrow(SyntaxError);
      const noRoutes = path.join(dir, 'no-routes.json');
      const data = shipped();
      delete data.payoutRoutes;
      writeFileSync(noRoutes, JSON.stringify(data));
      expect(loadCatalog(noRoutes).payoutRoutes).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
