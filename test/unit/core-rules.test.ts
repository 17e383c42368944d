import path from 'node:path';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { validateMoneyOut, type MoneyOutCommand } from '../../src/core/payments/money-out-rules';
import { PAYMENT_STATUSES } from '../../src/core/payments/payment';
import { PAYMENT_MOVES, transition, type PaymentMove } from '../../src/core/payments/payment-state';
import { price } from '../../src/core/quotes/pricing';
import { Decimal, formatAmount, parseAmount, roundUp } from '../../src/core/shared/money';

const catalog = loadCatalog(path.resolve(__dirname, '../../data/corridors.json'));

describe('transition()', () => {
  const allowed: Record<string, string> = {
    'initiated:accept': 'provider_accepted', 'initiated:reject': 'failed',
    'provider_accepted:complete': 'succeeded', 'provider_accepted:fail': 'failed', 'provider_accepted:refund': 'refunded',
  };
  for (const from of PAYMENT_STATUSES) {
    for (const move of Object.keys(PAYMENT_MOVES) as PaymentMove[]) {
      const to = allowed[`${from}:${move}`];
      it(`${from} --${move}--> ${to ?? 'refused'}`, () => {
        const result = transition(from, move);
        if (to) expect(result).toEqual({ ok: true, value: expect.objectContaining({ from, to }) });
        else expect(result).toMatchObject({ ok: false, code: 'invalid_transition' });
      });
    }
  }
  it('emits the DESIGN 5 events', () => {
    expect(Object.fromEntries(Object.entries(PAYMENT_MOVES).map(([m, r]) => [m, r.event]))).toEqual({
      accept: 'payment.processing', reject: 'payment.failed', complete: 'payment.succeeded', fail: 'payment.failed', refund: 'payment.refunded',
    });
  });
});

describe('money', () => {
  it.each([
    [1500, 2, '1500'], ['1500.50', 2, '1500.5'], [0.1, 6, '0.1'], ['12.123456', 6, '12.123456'],
  ])('parses %p at scale %i', (input, scale, expected) => {
    const r = parseAmount(input, 'x', scale);
    expect(r.ok && r.value.toString()).toBe(expected);
  });
  it.each([[0, 2], [-5, 2], ['1e3', 2], ['abc', 2], [1.005, 2], ['1000.5', 0], [Number.NaN, 2], [Infinity, 2]])('refuses %p at scale %i', (input, scale) => {
    expect(parseAmount(input as number, 'x', scale)).toMatchObject({ ok: false, code: 'validation_error' });
  });
  it('rounds stablecoin amounts up at 6 places and formats without exponents', () => {
    expect(roundUp(new Decimal('1.0000001'), 'USDC').toString()).toBe('1.000001');
    expect(roundUp(new Decimal('1.000001'), 'USDC').toString()).toBe('1.000001');
    expect(formatAmount('1500', 'KES')).toBe('1500.00');
    expect(formatAmount('1500', 'UGX')).toBe('1500');
    expect(formatAmount('0.0000001', 'USDT')).toBe('0.000000');
    expect(formatAmount('123456789012345678901234.5', 'NGN')).toBe('123456789012345678901234.50');
  });
});

describe('price()', () => {
  const base = { fiatCurrency: 'KES', stablecoin: 'USDC', paymentMethod: 'MOMO', country: 'KE', blockchain: 'SOLANA', optionalIssuerFee: 'NO', exchangeRate: '129.25' } as const;
  it('adds method, network and issuer fees and rounds the total up', () => {
    expect(price(catalog, { ...base, fiatAmount: new Decimal(1500) })).toEqual({ exchangeRate: '129.25', payoutFee: '0.510000', amountStablecoin: '12.115416' });
    // 1500 / 129.25 = 11.605415860735...: rounded up, never down.
    expect(price(catalog, { ...base, fiatAmount: new Decimal(1500), optionalIssuerFee: 'YES' }).amountStablecoin).toBe('12.365416');
    expect(price(catalog, { ...base, fiatAmount: new Decimal(1500), blockchain: 'BSC', paymentMethod: 'BANK' })).toMatchObject({ payoutFee: '1.100000', amountStablecoin: '12.705416' });
  });
});

describe('validateMoneyOut()', () => {
  const command = (o: Partial<MoneyOutCommand> = {}): MoneyOutCommand => ({
    fiatAmount: 1500, sourceCurrency: 'USDC', destinationCurrency: 'KES', country: 'KE', blockchain: 'SOLANA', paymentMethod: 'MOMO',
    accountName: 'Jane', accountNumber: '254712345678', paymentCode: 'MPESA', reference: 'r1',
    refundAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', optionalIssuerFee: 'NO', ...o,
  });
  const code = (o: Partial<MoneyOutCommand>) => {
    const r = validateMoneyOut(catalog, command(o));
    return r.ok ? 'ok' : r.code;
  };
  it.each([
    [{ fiatAmount: 9.99 }, 'validation_error'], [{ fiatAmount: 10 }, 'ok'], [{ fiatAmount: 250000 }, 'ok'], [{ fiatAmount: 250000.01 }, 'validation_error'],
    [{ fiatAmount: 1500.5 }, 'ok'], [{ fiatAmount: '1500.505' }, 'validation_error'],
    [{ country: 'UG', destinationCurrency: 'UGX', paymentCode: 'MTN', fiatAmount: 1000 }, 'ok'],
    [{ country: 'UG', destinationCurrency: 'UGX', paymentCode: 'MTN', fiatAmount: 1000.5 }, 'validation_error'],
    [{ paymentCode: 'MTN' }, 'validation_error'], [{ destinationCurrency: 'NGN' }, 'unsupported_corridor'],
    [{ country: 'NG', destinationCurrency: 'NGN' }, 'unsupported_corridor'],
    [{ paymentMethod: 'PAYBILL', businessNumber: '123456' }, 'ok'], [{ paymentMethod: 'PAYBILL', businessNumber: '12345' }, 'validation_error'],
    [{ paymentMethod: 'PAYBILL', businessNumber: '1234567' }, 'validation_error'], [{ paymentMethod: 'PAYBILL' }, 'validation_error'],
    [{ businessNumber: '123456' }, 'validation_error'], [{ accountNumber: 'not-a-phone' }, 'validation_error'],
    [{ blockchain: 'BSC' }, 'validation_error'], [{ blockchain: 'BSC', refundAddress: `0x${'a'.repeat(40)}` }, 'ok'],
    [{ accountName: '   ' }, 'validation_error'],
  ] as [Partial<MoneyOutCommand>, string][])('%j -> %s', (overrides, expected) => {
    expect(code(overrides)).toBe(expected);
  });
});
