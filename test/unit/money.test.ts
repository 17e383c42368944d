import {
  Decimal, formatAmount, formatDecimal, parseAmount, roundUp, scaleOf, type Currency,
} from '../../src/core/shared/money';

/** The parsed value as a plain string, or the error code and message. */
const parsed = (input: number | string, maxScale: number) => {
  const r = parseAmount(input, 'fiatAmount', maxScale);
  return r.ok ? r.value.toString() : `${r.code}: ${r.message}`;
};
const PLAIN = /^-?\d+(\.\d+)?$/;

describe('scaleOf (ISO 4217 for fiat, 6 for stablecoins)', () => {
  it.each([
    ['UGX', 0], ['XAF', 0], ['XOF', 0], ['KES', 2], ['NGN', 2], ['GHS', 2], ['TZS', 2], ['ZAR', 2], ['ZMW', 2], ['ETB', 2], ['USDC', 6], ['USDT', 6],
  ] as [Currency, number][])('%s has scale %i', (currency, scale) => {
    expect(scaleOf(currency)).toBe(scale);
  });
});

describe('parseAmount', () => {
  it.each([
    [1500, 2, '1500'],
    [1500.5, 2, '1500.5'],
    [0.01, 2, '0.01'],
    [0.1, 6, '0.1'],
    [1e3, 2, '1000'], // a number literal written in exponent form is just 1000
    [0.000001, 6, '0.000001'],
    [250000, 0, '250000'],
    [999999999999999, 0, '999999999999999'],
  ])('accepts the JSON number %p at scale %i as %s', (input, scale, expected) => {
    expect(parsed(input, scale)).toBe(expected);
  });

  it.each([
    ['1500', 2, '1500'],
    ['1500.50', 2, '1500.5'],
    ['12.123456', 6, '12.123456'],
    [' 42.10 ', 2, '42.1'],
    ['010', 2, '10'],
    ['1000.0', 0, '1000'], // trailing zeros are not extra precision
    ['999999999999999.99', 2, '999999999999999.99'],
  ])('accepts the decimal string %p at scale %i as %s', (input, scale, expected) => {
    expect(parsed(input, scale)).toBe(expected);
  });

  it.each([['1000000000000000'], [1e15], ['1000000000000000.00'], [Number.MAX_SAFE_INTEGER], [`1${'0'.repeat(33)}`]])(
    'refuses %p: amounts must be below 10^15 so no column can overflow',
    (input) => {
      expect(parsed(input, 2)).toBe('validation_error: fiatAmount must be less than 1000000000000000');
    },
  );

  it('keeps a decimal string exact where a float could not', () => {
    const r = parseAmount('0.30', 'x', 2);
    expect(r.ok && r.value.equals(new Decimal('0.1').plus('0.2'))).toBe(true);
  });

  it.each([[-5], ['-5'], [-0.01], ['-0.01']])('refuses the negative amount %p', (input) => {
    expect(parsed(input, 2)).toBe('validation_error: fiatAmount must be a positive decimal number');
  });

  it.each([[0], ['0'], ['0.00'], [-0], ['000']])('refuses the zero amount %p', (input) => {
    expect(parsed(input, 2)).toBe('validation_error: fiatAmount must be greater than 0');
  });

  it.each([['1e3'], ['1E3'], ['1e-2'], ['1.5e2'], [1e21], [1e-7]])('refuses the exponent form %p', (input) => {
    const r = parseAmount(input, 'fiatAmount', 8);
    expect(r).toEqual({ ok: false, code: 'validation_error', message: expect.stringContaining('fiatAmount'), details: { field: 'fiatAmount' } });
  });

  it.each([
    [''], [' '], ['abc'], ['1,000'], ['1.'], ['.5'], ['+5'], ['0x10'], ['1_000'], ['١٢٣'], ['12 34'], ['Infinity'], ['NaN'],
    [Number.NaN], [Number.POSITIVE_INFINITY], [Number.NEGATIVE_INFINITY],
  ])('refuses the non-decimal %p', (input) => {
    expect(parsed(input, 2)).toBe('validation_error: fiatAmount must be a positive decimal number');
  });

  describe('decimals allowed per currency scale', () => {
    it.each([
      ['UGX', 1000, true], ['UGX', 1000.5, false], ['UGX', '1000.1', false],
      ['KES', 1500.5, true], ['KES', '1500.50', true], ['KES', 0.01, true], ['KES', '1500.505', false], ['KES', 1500.505, false], ['KES', 0.001, false],
      ['USDC', '0.000001', true], ['USDC', '12.123456', true], ['USDC', '0.0000001', false], ['USDC', '1.1234567', false],
      ['KES', 0.1 + 0.2, false], // 0.30000000000000004: 17 decimals
      ['KES', 1.005, false],
    ] as [Currency, number | string, boolean][])('%s %p -> %p', (currency, input, accepted) => {
      const r = parseAmount(input, 'fiatAmount', scaleOf(currency));
      if (accepted) expect(r.ok).toBe(true);
      else expect(r).toEqual({ ok: false, code: 'validation_error', message: `fiatAmount allows at most ${scaleOf(currency)} decimal places`, details: { field: 'fiatAmount' } });
    });
  });
});

describe('roundUp (never under-collect)', () => {
  it.each([
    ['1.0000001', 'USDC', '1.000001'],
    ['1.000001', 'USDC', '1.000001'],
    ['1.0000000000000000001', 'USDT', '1.000001'],
    ['0.3333333333', 'USDC', '0.333334'],
    ['2', 'USDC', '2'],
    ['0.001', 'KES', '0.01'],
    ['1500.501', 'KES', '1500.51'],
    ['1000.01', 'UGX', '1001'],
    ['1000', 'UGX', '1000'],
    ['-1.0000001', 'USDC', '-1.000001'], // away from zero
  ] as [string, Currency, string][])('%s %s -> %s', (input, currency, expected) => {
    expect(roundUp(new Decimal(input), currency).toString()).toBe(expected);
  });

  it.each([['0.1234564'], ['7.0000000001'], ['99.9999991'], ['123456.654321'], ['0.0000001']])(
    'rounds %s to at most one unit of scale 6 above, never below', (input) => {
      const value = new Decimal(input);
      const rounded = roundUp(value, 'USDC');
      expect(rounded.gte(value)).toBe(true);
      expect(rounded.minus(value).lt('0.000001')).toBe(true);
      expect(rounded.decimalPlaces()).toBeLessThanOrEqual(6);
    },
  );
});

describe('formatAmount', () => {
  it.each([
    [1500, 'KES', '1500.00'],
    ['1500.5', 'KES', '1500.50'],
    ['11.5', 'USDC', '11.500000'],
    [0, 'KES', '0.00'],
    [0, 'USDT', '0.000000'],
    [1500, 'UGX', '1500'],
    [0, 'XOF', '0'],
    ['1500.4', 'UGX', '1500'],
    ['1500.5', 'UGX', '1500'], // half-even
    ['1501.5', 'UGX', '1502'],
    ['0.125', 'KES', '0.12'],
    ['0.135', 'KES', '0.14'],
    ['-1.5', 'KES', '-1.50'],
  ] as [number | string, Currency, string][])('%p %s -> %s', (input, currency, expected) => {
    expect(formatAmount(input, currency)).toBe(expected);
  });

  it('formats a string exactly as the Decimal path does, with or without rounding (random strings, fixed seed)', () => {
    let seed = 20261123;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const digits = (n: number) => Array.from({ length: n }, () => String(random(10))).join('');
    const viaDecimal = (value: string, scale: number) => {
      const [whole, fraction = ''] = new Decimal(value).toDecimalPlaces(scale, Decimal.ROUND_HALF_EVEN).toString().split('.');
      return scale === 0 ? whole : `${whole}.${fraction.padEnd(scale, '0')}`;
    };
    const currencies: Currency[] = ['USDC', 'KES', 'UGX'];
    for (let i = 0; i < 3000; i++) {
      const whole = random(4) === 0 ? '0' : `${1 + random(9)}${digits(random(8))}`;
      // Stored amounts carry trailing zeros to scale 6; some values here need rounding, some are not canonical.
      const fraction = random(3) === 0 ? '' : random(2) === 0 ? `${digits(random(3))}${'0'.repeat(random(5))}` : digits(1 + random(8));
      const value = `${random(20) === 0 ? '-' : ''}${random(20) === 0 ? '0' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
      for (const currency of currencies) expect([value, currency, formatAmount(value, currency)]).toEqual([value, currency, viaDecimal(value, scaleOf(currency))]);
    }
  });

  it('pads to the scale and never drops a trailing zero', () => {
    expect(formatAmount(new Decimal('10.10'), 'NGN')).toBe('10.10');
    expect(formatAmount(new Decimal('10'), 'USDC')).toBe('10.000000');
  });

  it.each([
    [1e21, 'UGX', '1000000000000000000000'],
    ['1e30', 'USDC', `1${'0'.repeat(30)}.000000`],
    ['123456789012345678901234567890.5', 'NGN', '123456789012345678901234567890.50'],
    [Number.MAX_SAFE_INTEGER * 1000, 'KES', '9007199254740991000.00'],
    ['0.0000001', 'USDC', '0.000000'],
    [1e-7, 'USDT', '0.000000'],
    ['1e-20', 'USDC', '0.000000'],
    ['0.0000015', 'USDC', '0.000002'],
    ['0.000001', 'USDC', '0.000001'],
    ['1e-9', 'KES', '0.00'],
  ] as [number | string, Currency, string][])('writes %p %s plainly as %s, never in exponent notation', (input, currency, expected) => {
    const text = formatAmount(input, currency);
    expect(text).toBe(expected);
    expect(text).toMatch(PLAIN);
  });

  it('formatDecimal writes rates plainly at the requested scale', () => {
    expect(formatDecimal('129.25', 4)).toBe('129.2500');
    expect(formatDecimal('1e-8', 8)).toBe('0.00000001');
    expect(formatDecimal(new Decimal('3678'), 0)).toBe('3678');
  });
});
