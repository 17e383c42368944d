import path from 'node:path';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import type { Catalog } from '../../src/core/catalog/catalog';
import { price, type PricingInput } from '../../src/core/quotes/pricing';
import { Decimal } from '../../src/core/shared/money';

const catalog = loadCatalog(path.resolve(__dirname, '../../data/corridors.json'));

/** A catalog with distinct, easy fees so each component of the sum is visible. */
const feeCatalog = (overrides: Partial<Catalog> = {}): Catalog => ({
  ...catalog,
  fees: {
    methods: { MOMO: '0.30', BANK: '1.25', PAYBILL: '0.40', TILL: '0.45' },
    networks: { SOLANA: '0.02', BSC: '0.15' },
    issuerFee: '0.05',
  },
  ...overrides,
});

/** A catalog whose every fee is zero, so the total is the principal alone. */
const freeCatalog: Catalog = {
  ...catalog,
  fees: { methods: { MOMO: '0', BANK: '0', PAYBILL: '0', TILL: '0' }, networks: { SOLANA: '0', BSC: '0' }, issuerFee: '0' },
};

const input = (o: Partial<PricingInput> = {}): PricingInput => ({
  fiatCurrency: 'KES', stablecoin: 'USDC', fiatAmount: new Decimal(100), paymentMethod: 'MOMO', country: 'KE',
  blockchain: 'SOLANA', optionalIssuerFee: 'NO', exchangeRate: '100', ...o,
});

describe('price(): fee composition', () => {
  it.each([
    ['MOMO', 'SOLANA', 'NO', '0.320000'],
    ['MOMO', 'SOLANA', 'YES', '0.370000'],
    ['MOMO', 'BSC', 'NO', '0.450000'],
    ['BANK', 'SOLANA', 'NO', '1.270000'],
    ['BANK', 'BSC', 'YES', '1.450000'],
    ['PAYBILL', 'SOLANA', 'YES', '0.470000'],
    ['TILL', 'BSC', 'NO', '0.600000'],
  ] as const)('%s on %s, issuer fee %s: payoutFee %s, added to the principal', (paymentMethod, blockchain, optionalIssuerFee, fee) => {
    // 100 KES at 100 KES/USDC is exactly 1 USDC of principal
    const result = price(feeCatalog(), input({ paymentMethod, blockchain, optionalIssuerFee }));
    expect(result.payoutFee).toBe(fee);
    expect(result.amountStablecoin).toBe(new Decimal(fee).plus(1).toFixed(6));
  });

  it('uses a country fee override for that country and method only', () => {
    const overridden = feeCatalog({
      countries: { ...catalog.countries, KE: { ...catalog.countries.KE!, methods: { ...catalog.countries.KE!.methods, MOMO: { ...catalog.countries.KE!.methods.MOMO!, fee: '0.20' } } } },
    });
    expect(price(overridden, input()).payoutFee).toBe('0.220000'); // 0.20 override + 0.02 network
    expect(price(overridden, input({ optionalIssuerFee: 'YES', blockchain: 'BSC' })).payoutFee).toBe('0.400000');
    expect(price(overridden, input({ country: undefined })).payoutFee).toBe('0.320000'); // no country: default
    expect(price(overridden, input({ country: 'UG', fiatCurrency: 'UGX' })).payoutFee).toBe('0.320000'); // other country
    expect(price(overridden, input({ paymentMethod: 'BANK' })).payoutFee).toBe('1.270000'); // other method
  });

  it('applies a country override of zero instead of falling back to the default', () => {
    const zero = feeCatalog({
      countries: { ...catalog.countries, KE: { ...catalog.countries.KE!, methods: { ...catalog.countries.KE!.methods, MOMO: { ...catalog.countries.KE!.methods.MOMO!, fee: '0' } } } },
    });
    expect(price(zero, input())).toMatchObject({ payoutFee: '0.020000', amountStablecoin: '1.020000' });
  });

  it('rounds a fee finer than scale 6 up', () => {
    const fine = feeCatalog({ fees: { ...feeCatalog().fees, issuerFee: '0.0000001' } });
    expect(price(fine, input({ optionalIssuerFee: 'YES' })).payoutFee).toBe('0.320001');
  });
});

describe('price(): rounding up at scale 6', () => {
  it.each([
    // fiat, rate, exact quotient, expected (ROUND_UP, not half-up)
    ['1', '3', '0.333333333...', '0.333334'],
    ['1', '7', '0.142857142857...', '0.142858'],
    ['10', '129.25', '0.077369439071...', '0.077370'],
    ['1000000', '3', '333333.333333333...', '333333.333334'],
    ['2', '3', '0.666666666...', '0.666667'],
  ])('%s / %s = %s is charged %s', (fiat, rate, _exact, expected) => {
    const result = price(freeCatalog, input({ fiatAmount: new Decimal(fiat), exchangeRate: rate }));
    expect(result.amountStablecoin).toBe(expected);
    // never under-collect: the charged amount covers the exact quotient
    expect(new Decimal(result.amountStablecoin).times(rate).gte(fiat)).toBe(true);
  });

  it.each([['1', '8', '0.125000'], ['3', '3', '1.000000'], ['1785', '17.85', '100.000000'], ['0.01', '100', '0.000100']])(
    'does not round an exact quotient %s / %s up (%s)', (fiat, rate, expected) => {
      expect(price(freeCatalog, input({ fiatAmount: new Decimal(fiat), exchangeRate: rate })).amountStablecoin).toBe(expected);
    },
  );
});

describe('price(): figures computed by hand for data/corridors.json', () => {
  it('reads the fee table and rates the figures below rely on', () => {
    expect(catalog.fees).toEqual({
      methods: { MOMO: '0.50', BANK: '1.00', PAYBILL: '0.50', TILL: '0.50' }, networks: { SOLANA: '0.01', BSC: '0.10' }, issuerFee: '0.25',
    });
    expect(catalog.rates.KES).toEqual({ USDC: '129.25', USDT: '129.20' });
  });

  it.each([
    // 1500 / 129.25 = 11.6054158607...; + 0.50 + 0.01
    ['KE', 'KES', 'USDC', '1500', 'MOMO', 'SOLANA', 'NO', '0.510000', '12.115416'],
    // 250000 / 129.25 = 1934.2359767891...; + 0.51
    ['KE', 'KES', 'USDC', '250000', 'TILL', 'SOLANA', 'NO', '0.510000', '1934.745977'],
    // 100000 / 3678 = 27.1886895051...; + 0.50 + 0.01 + 0.25
    ['UG', 'UGX', 'USDT', '100000', 'MOMO', 'SOLANA', 'YES', '0.760000', '27.948690'],
    // 50000 / 1535.50 = 32.5626831650...; + 1.00 + 0.10
    ['NG', 'NGN', 'USDC', '50000', 'BANK', 'BSC', 'NO', '1.100000', '33.662684'],
    // 10000000 / 1535.50 = 6512.5366330185...; + 1.00 + 0.01
    ['NG', 'NGN', 'USDC', '10000000', 'BANK', 'SOLANA', 'NO', '1.010000', '6513.546634'],
    // 1785 / 17.85 = 100 exactly; + 1.00 + 0.01
    ['ZA', 'ZAR', 'USDC', '1785', 'BANK', 'SOLANA', 'NO', '1.010000', '101.010000'],
    // 200 / 601.50 = 0.3325020781...; + 0.50 + 0.10 + 0.25
    ['CI', 'XOF', 'USDT', '200', 'MOMO', 'BSC', 'YES', '0.850000', '1.182503'],
    // 5000000 / 2588 = 1931.9938176197...; + 0.51
    ['TZ', 'TZS', 'USDT', '5000000', 'MOMO', 'SOLANA', 'NO', '0.510000', '1932.503818'],
  ] as const)('%s %s->%s %s by %s on %s (issuer fee %s): fee %s, total %s', (country, fiat, coin, amount, method, chain, issuer, fee, total) => {
    const rate = catalog.rates[fiat]![coin]!;
    const result = price(catalog, {
      fiatCurrency: fiat, stablecoin: coin, fiatAmount: new Decimal(amount), paymentMethod: method, country,
      blockchain: chain, optionalIssuerFee: issuer, exchangeRate: rate,
    });
    expect(result.payoutFee).toBe(fee);
    expect(result.amountStablecoin).toBe(total);
    expect(new Decimal(result.exchangeRate).equals(rate)).toBe(true);
    expect(result.exchangeRate).toMatch(/^\d+(\.\d+)?$/);
  });

  it('passes the rate through as a plain decimal', () => {
    expect(price(catalog, input({ exchangeRate: '129.25' })).exchangeRate).toBe('129.25');
    expect(price(catalog, input({ exchangeRate: '3678' })).exchangeRate).toBe('3678');
    expect(price(catalog, input({ exchangeRate: '0.00000001' })).exchangeRate).toBe('0.00000001');
  });
});
