import path from 'node:path';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { validateMoneyOut, type MoneyOutCommand } from '../../src/core/payments/money-out-rules';

const catalog = loadCatalog(path.resolve(__dirname, '../../data/corridors.json'));

const SOLANA = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

const command = (o: Partial<MoneyOutCommand> = {}): MoneyOutCommand => ({
  fiatAmount: 1500, sourceCurrency: 'USDC', destinationCurrency: 'KES', country: 'KE', blockchain: 'SOLANA', paymentMethod: 'MOMO',
  accountName: 'Jane Wanjiku', accountNumber: '254712345678', paymentCode: 'MPESA', reference: 'order-1',
  refundAddress: SOLANA, optionalIssuerFee: 'NO', ...o,
});

/** 'ok', or `<code>` plus the failing field when the rule names one. */
const outcome = (o: Partial<MoneyOutCommand>) => {
  const r = validateMoneyOut(catalog, command(o));
  if (r.ok) return 'ok';
  const field = r.details?.field;
  return field ? `${r.code} ${String(field)}` : r.code;
};

const UG = { country: 'UG', destinationCurrency: 'UGX', paymentCode: 'MTN' } as const;
const PAYBILL = { paymentMethod: 'PAYBILL', accountNumber: '888880', businessNumber: '123456' } as const;

describe('validateMoneyOut', () => {
  it('accepts the interface example and returns the exact amount', () => {
    const r = validateMoneyOut(catalog, command({ fiatAmount: '1500.50' }));
    expect(r.ok && r.value.amount.toString()).toBe('1500.5');
    expect(r.ok && r.value.reference).toBe('order-1');
  });

  it.each([
    ['KES 1500.5', { fiatAmount: 1500.5 }, 'ok'],
    ['KES "1500.50"', { fiatAmount: '1500.50' }, 'ok'],
    ['KES 1500.505', { fiatAmount: 1500.505 }, 'validation_error fiatAmount'],
    ['KES "1500.505"', { fiatAmount: '1500.505' }, 'validation_error fiatAmount'],
    ['UGX 1000', { ...UG, fiatAmount: 1000 }, 'ok'],
    ['UGX 1000.5', { ...UG, fiatAmount: 1000.5 }, 'validation_error fiatAmount'],
    ['XOF 200', { country: 'CI', destinationCurrency: 'XOF', paymentCode: 'ORANGE', accountNumber: '2250700000001', fiatAmount: 200 }, 'ok'],
    ['XOF 200.5', { country: 'CI', destinationCurrency: 'XOF', paymentCode: 'ORANGE', accountNumber: '2250700000001', fiatAmount: 200.5 }, 'validation_error fiatAmount'],
  ] as [string, Partial<MoneyOutCommand>, string][])('amount scale: %s -> %s', (_name, o, expected) => {
    expect(outcome(o)).toBe(expected);
  });

  it.each([
    [9.99, 'validation_error fiatAmount'], ['9.99', 'validation_error fiatAmount'], [10, 'ok'], ['10.00', 'ok'],
    [250000, 'ok'], [250000.01, 'validation_error fiatAmount'], ['250000.01', 'validation_error fiatAmount'],
    [0, 'validation_error fiatAmount'], [-5, 'validation_error fiatAmount'],
  ] as [number | string, string][])('KE MOMO limits 10..250000: %p -> %s', (fiatAmount, expected) => {
    expect(outcome({ fiatAmount })).toBe(expected);
  });

  it.each([
    [{ paymentMethod: 'BANK', paymentCode: '01', accountNumber: '1234567890', fiatAmount: 99.99 }, 'validation_error fiatAmount'],
    [{ paymentMethod: 'BANK', paymentCode: '01', accountNumber: '1234567890', fiatAmount: 100 }, 'ok'],
    [{ ...UG, fiatAmount: 499 }, 'validation_error fiatAmount'],
    [{ ...UG, fiatAmount: 5000000 }, 'ok'],
    [{ ...UG, fiatAmount: 5000001 }, 'validation_error fiatAmount'],
  ] as [Partial<MoneyOutCommand>, string][])('other catalog limits: %j -> %s', (o, expected) => {
    expect(outcome(o)).toBe(expected);
  });

  it('names the limits in the message', () => {
    const r = validateMoneyOut(catalog, command({ fiatAmount: 9.99 }));
    expect(!r.ok && r.message).toBe('fiatAmount must be between 10 and 250000 KES for MOMO in KE');
  });

  it.each([
    [{ paymentCode: 'MPESA' }, 'ok'],
    [{ paymentCode: 'AIRTEL' }, 'ok'],
    [{ paymentCode: 'MTN' }, 'validation_error paymentCode'],
    [{ paymentCode: 'mpesa' }, 'validation_error paymentCode'],
    [{ ...UG, paymentCode: 'MPESA' }, 'validation_error paymentCode'],
    [{ ...UG, paymentCode: 'AIRTEL' }, 'ok'],
    [{ paymentMethod: 'BANK', paymentCode: 'MPESA', accountNumber: '1234567890' }, 'validation_error paymentCode'],
    [{ paymentMethod: 'BANK', paymentCode: '68', accountNumber: '1234567890' }, 'ok'],
  ] as [Partial<MoneyOutCommand>, string][])('paymentCode for country and method: %j -> %s', (o, expected) => {
    expect(outcome(o)).toBe(expected);
  });

  it.each([
    [{ destinationCurrency: 'NGN' }, 'unsupported_corridor'],
    [{ destinationCurrency: 'UGX', fiatAmount: 1500 }, 'unsupported_corridor'],
    [{ country: 'CI', destinationCurrency: 'XAF', paymentCode: 'ORANGE' }, 'unsupported_corridor'],
    [{ ...UG, paymentMethod: 'BANK' }, 'unsupported_corridor'],
    [{ country: 'GH', destinationCurrency: 'GHS', paymentMethod: 'PAYBILL', paymentCode: 'MTN', businessNumber: '123456' }, 'unsupported_corridor'],
    [{ country: 'NG', destinationCurrency: 'NGN', paymentMethod: 'MOMO' }, 'unsupported_corridor'],
    // method not offered wins over a paymentCode that would be wrong anyway
    [{ country: 'ZA', destinationCurrency: 'ZAR', paymentMethod: 'TILL', paymentCode: 'NOPE' }, 'unsupported_corridor'],
  ] as [Partial<MoneyOutCommand>, string][])('corridor: %j -> %s', (o, expected) => {
    expect(outcome(o)).toBe(expected);
  });

  it.each([
    [{ ...PAYBILL }, 'ok'],
    [{ ...PAYBILL, businessNumber: '12345' }, 'validation_error businessNumber'],
    [{ ...PAYBILL, businessNumber: '1234567' }, 'validation_error businessNumber'],
    [{ ...PAYBILL, businessNumber: '12345a' }, 'validation_error businessNumber'],
    [{ ...PAYBILL, businessNumber: ' 123456' }, 'validation_error businessNumber'],
    [{ ...PAYBILL, businessNumber: '' }, 'validation_error businessNumber'],
    [{ ...PAYBILL, businessNumber: undefined }, 'validation_error businessNumber'],
    [{ businessNumber: '123456' }, 'validation_error businessNumber'],
    [{ paymentMethod: 'TILL', accountNumber: '123456', businessNumber: '123456' }, 'validation_error businessNumber'],
    [{ paymentMethod: 'TILL', accountNumber: '123456' }, 'ok'],
    [{ paymentMethod: 'BANK', paymentCode: '01', accountNumber: '1234567890', businessNumber: '' }, 'validation_error businessNumber'],
  ] as [Partial<MoneyOutCommand>, string][])('businessNumber: %j -> %s', (o, expected) => {
    expect(outcome(o)).toBe(expected);
  });

  it.each([
    ['254712345678', 'ok'], ['+254712345678', 'ok'], ['2547123', 'ok'], ['254712345678901', 'ok'],
    ['254712', 'validation_error accountNumber'], ['2547123456789012', 'validation_error accountNumber'],
    ['0712345678', 'validation_error accountNumber'], ['254 712 345 678', 'validation_error accountNumber'],
    ['+', 'validation_error accountNumber'], ['not-a-phone', 'validation_error accountNumber'], ['25471234567a', 'validation_error accountNumber'],
  ])('MOMO phone number %p -> %s', (accountNumber, expected) => {
    expect(outcome({ accountNumber })).toBe(expected);
  });

  it('does not require a phone number for non-MOMO methods', () => {
    expect(outcome({ paymentMethod: 'BANK', paymentCode: '01', accountNumber: 'ACC-0001' })).toBe('ok');
  });

  it('leaves the refund address to checkRefundAddress (test/unit/refund-address.test.ts): a malformed one passes these rules', () => {
    expect(outcome({ blockchain: 'BSC', refundAddress: SOLANA })).toBe('ok');
  });

  it.each(['accountName', 'accountNumber', 'paymentCode', 'reference', 'refundAddress'] as const)('refuses a blank %s', (field) => {
    expect(outcome({ [field]: '' })).toBe(`validation_error ${field}`);
    expect(outcome({ [field]: '   ' })).toBe(`validation_error ${field}`);
    expect(outcome({ [field]: '\t\n' })).toBe(`validation_error ${field}`);
    const r = validateMoneyOut(catalog, command({ [field]: ' ' }));
    expect(!r.ok && r.message).toBe(`${field} must not be blank`);
  });
});
