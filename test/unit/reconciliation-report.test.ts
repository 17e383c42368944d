import { Payment } from '../../src/core/payments/payment';
import type { PayoutProvider, StatusOutcome } from '../../src/core/payments/payout-provider';
import {
  MAX_REPORT_DAYS, MAX_REPORT_PAYMENTS, reconciliationReport, recordsByStatus, type ProviderRecord, type ProviderRecords, type ReportDeps, type ReportWindow,
} from '../../src/core/reconciliation/reconciliation-report';
import { err } from '../../src/core/shared/result';
import { FixedClock } from '../support/fakes';

const FROM = new Date('2026-11-01T00:00:00Z');
const TO = new Date('2026-11-02T00:00:00Z');
const WINDOW: ReportWindow = { from: FROM, to: TO };
const GENERATED = '2026-11-03T10:00:00.000Z';

/** A payment of ours sent to `provider`: 1500 KES by default, created inside the window. */
function payment(n: number, overrides: Partial<Payment> = {}): Payment {
  return new Payment({
    id: `pay_${String(n).padStart(26, '0')}`, tenantId: 'ten_A', status: 'succeeded', paymentMethod: 'MOMO', sourceCurrency: 'USDC',
    destinationCurrency: 'KES', country: 'KE', blockchain: 'SOLANA', amountStablecoin: '12.115416', fiatAmount: '1500', exchangeRate: '129.25',
    payoutFee: '0.51', accountName: 'a', accountNumber: '254712345678', paymentCode: 'MPESA', businessNumber: null, reference: `ref-${n}`,
    refundAddress: 'x', optionalIssuerFee: 'NO', quoteId: null, providerRef: null, provider: 'paystack', submittedAt: null, failureReason: null,
    failureCode: null, nextActionAt: null, attempts: 0, acceptedAt: FROM, createdAt: new Date(FROM.getTime() + n * 1000), updatedAt: FROM, ...overrides,
  });
}

/** A provider record of `p`: paid as ours by default. */
const record = (p: Payment, overrides: Partial<ProviderRecord> = {}): ProviderRecord => ({
  paymentId: p.id, outcome: 'succeeded', providerStatus: 'success', amount: '1500.00', currency: 'KES', ...overrides,
});

/** The report's ports over `sent` (our payments) and what the provider lists; `known` are payments findById also finds. */
function deps(sent: Payment[], listed: ProviderRecord[] | Error, known: Payment[] = []) {
  const mismatches: string[] = [];
  const windows: ReportWindow[] = [];
  const reader: ProviderRecords = {
    provider: 'paystack',
    recordsFor: async (payments, window) => {
      windows.push(window);
      if (listed instanceof Error) throw listed;
      expect(payments).toEqual(sent.filter((p) => p.provider === 'paystack'));
      return listed;
    },
  };
  const all = [...sent, ...known];
  const ports: ReportDeps = {
    sent: { sentBetween: async (_window, limit) => sent.slice(0, limit) },
    payments: { findById: async (id) => all.find((p) => p.id === id) },
    providers: { providerOf: async (p) => (p.provider ? ({ name: p.provider } as PayoutProvider) : undefined) },
    records: [reader],
    clock: new FixedClock(GENERATED),
    onMismatch: (provider, kind) => mismatches.push(`${provider}:${kind}`),
  };
  return { ports, mismatches, windows };
}

describe('reconciliationReport (docs/decisions.md § Reconciliation)', () => {
  it('refuses a window that is empty, inverted or longer than MAX_REPORT_DAYS, and an unknown provider', async () => {
    const { ports } = deps([], []);
    expect(await reconciliationReport(ports, 'paystack', { from: TO, to: TO })).toEqual(err('validation_error', 'Invalid request: from must be before to'));
    expect(await reconciliationReport(ports, 'paystack', { from: TO, to: FROM })).toEqual(err('validation_error', 'Invalid request: from must be before to'));
    const long = { from: FROM, to: new Date(FROM.getTime() + MAX_REPORT_DAYS * 86_400_000 + 1) };
    expect(await reconciliationReport(ports, 'paystack', long)).toEqual(err('validation_error', `Invalid request: a report covers at most ${MAX_REPORT_DAYS} days`));
    const exactly = { from: FROM, to: new Date(FROM.getTime() + MAX_REPORT_DAYS * 86_400_000) };
    expect((await reconciliationReport(ports, 'paystack', exactly)).ok).toBe(true);
    expect(await reconciliationReport(ports, 'mpesa', WINDOW)).toEqual(err('provider_unavailable', 'Provider mpesa is not configured here'));
  });

  it('refuses a window with more than MAX_REPORT_PAYMENTS payments rather than report part of it', async () => {
    const many = Array.from({ length: MAX_REPORT_PAYMENTS + 1 }, (_, i) => payment(i));
    expect(await reconciliationReport(deps(many, []).ports, 'paystack', WINDOW))
      .toEqual(err('validation_error', `Invalid request: more than ${MAX_REPORT_PAYMENTS} payments in the window; narrow it`));
    expect((await reconciliationReport(deps(many.slice(1), []).ports, 'paystack', WINDOW)).ok).toBe(true);
  });

  it('a provider that cannot be read refuses the report, never a partial one', async () => {
    const { ports } = deps([payment(1)], new Error('HTTP 500'));
    expect(await reconciliationReport(ports, 'paystack', WINDOW)).toEqual(err('provider_unavailable', "Could not read paystack's records: HTTP 500"));
  });

  it('a clean window reports nothing, counting only the payments this provider took', async () => {
    const ours = [payment(1), payment(2, { status: 'provider_accepted' }), payment(3, { status: 'failed' }), payment(4, { status: 'refunded' })];
    const elsewhere = [payment(5, { provider: 'mpesa' }), payment(6, { provider: null })];
    const { ports, mismatches, windows } = deps([...ours, ...elsewhere], [
      record(ours[0]!), record(ours[1]!, { outcome: 'pending', providerStatus: 'pending' }),
      record(ours[2]!, { outcome: 'failed', providerStatus: 'failed' }), record(ours[3]!, { outcome: 'refunded', providerStatus: 'reversed' }),
    ]);
    expect(await reconciliationReport(ports, 'paystack', WINDOW)).toEqual({
      ok: true,
      value: {
        provider: 'paystack', from: FROM.toISOString(), to: TO.toISOString(), generatedAt: GENERATED, compared: 4,
        missingAtProvider: [], statusMismatches: [], amountMismatches: [], atProviderOnly: [], unconfirmed: [],
      },
    });
    expect(windows).toEqual([WINDOW]);
    expect(mismatches).toEqual([]);
  });

  it('reports a payment missing at the provider, and a status that differs', async () => {
    const missing = payment(1, { status: 'provider_accepted', fiatAmount: '1500.5' });
    const differs = payment(2, { status: 'succeeded' });
    const initiated = payment(3, { status: 'initiated' });
    const { ports, mismatches } = deps([missing, differs, initiated], [
      record(differs, { outcome: 'failed', providerStatus: 'failed' }), record(initiated, { outcome: 'pending', providerStatus: 'pending' }),
    ]);
    const report = await reconciliationReport(ports, 'paystack', WINDOW);
    expect(report.ok && report.value.missingAtProvider).toEqual([{
      paymentId: missing.id, tenantId: 'ten_A', status: 'provider_accepted', fiatAmount: '1500.50', currency: 'KES', createdAt: missing.createdAt.toISOString(),
    }]);
    expect(report.ok && report.value.statusMismatches).toEqual([
      { paymentId: differs.id, tenantId: 'ten_A', ourStatus: 'succeeded', providerOutcome: 'failed', providerStatus: 'failed' },
      // No move has reached the provider's side of an initiated payment: any record of it differs.
      { paymentId: initiated.id, tenantId: 'ten_A', ourStatus: 'initiated', providerOutcome: 'pending', providerStatus: 'pending' },
    ]);
    expect(mismatches).toEqual(['paystack:missing_at_provider', 'paystack:status_mismatch', 'paystack:status_mismatch']);
  });

  it.each<[string, Partial<ProviderRecord>, string, string]>([
    ['another amount', { amount: '1499.99' }, '1499.99', 'KES'],
    ['another currency, the same figure', { currency: 'UGX' }, '1500.00', 'UGX'],
    ['another currency without an amount', { amount: undefined, currency: 'NGN' }, '', 'NGN'],
    ['an amount that is no decimal', { amount: 'fifteen hundred' }, 'fifteen hundred', 'KES'],
    ['an amount without a currency', { amount: '15', currency: undefined }, '15', ''],
  ])('reports a payment paid in %s', async (_name, overrides, providerAmount, providerCurrency) => {
    const p = payment(1);
    const { ports, mismatches } = deps([p], [record(p, overrides)]);
    const report = await reconciliationReport(ports, 'paystack', WINDOW);
    expect(report.ok && report.value.amountMismatches).toEqual([
      { paymentId: p.id, tenantId: 'ten_A', ourAmount: '1500.00', ourCurrency: 'KES', providerAmount, providerCurrency },
    ]);
    expect(report.ok && report.value.statusMismatches).toEqual([]);
    expect(mismatches).toEqual(['paystack:amount_mismatch']);
  });

  it.each<[string, Partial<ProviderRecord>]>([
    ['the same amount written otherwise', { amount: '1500' }],
    ['the currency in lower case', { currency: 'kes' }],
    ['neither amount nor currency (a status query)', { amount: undefined, currency: undefined }],
    ['an amount without a currency, equal to ours', { amount: '1500.000', currency: undefined }],
  ])('does not report %s', async (_name, overrides) => {
    const p = payment(1);
    const { ports, mismatches } = deps([p], [record(p, overrides)]);
    const report = await reconciliationReport(ports, 'paystack', WINDOW);
    expect(report.ok && report.value.amountMismatches).toEqual([]);
    expect(mismatches).toEqual([]);
  });

  it('lists unconfirmed records apart, comparing nothing in them', async () => {
    const p = payment(1, { status: 'provider_accepted' });
    const { ports, mismatches } = deps([p], [record(p, { outcome: 'unconfirmed', providerStatus: 'asked', amount: '1', currency: 'XOF' })]);
    const report = await reconciliationReport(ports, 'paystack', WINDOW);
    expect(report.ok && [report.value.unconfirmed, report.value.statusMismatches, report.value.amountMismatches])
      .toEqual([[{ paymentId: p.id, tenantId: 'ten_A', ourStatus: 'provider_accepted' }], [], []]);
    expect(mismatches).toEqual([]);
  });

  it('lists provider records of ours not counted as sent in the window, but not those of payments created outside it', async () => {
    const counted = payment(1);
    const neverSent = payment(2, { status: 'initiated', provider: null });
    const before = payment(3, { createdAt: new Date(FROM.getTime() - 1) });
    const atTheEnd = payment(4, { createdAt: TO });
    const { ports } = deps([counted], [
      record(counted), record(neverSent, { outcome: 'pending', providerStatus: 'pending' }), record(before), record(atTheEnd),
      { paymentId: 'pay_UNKNOWN', outcome: 'failed', providerStatus: 'failed' },
    ], [neverSent, before, atTheEnd]);
    const report = await reconciliationReport(ports, 'paystack', WINDOW);
    expect(report.ok && report.value.atProviderOnly).toEqual([
      { paymentId: neverSent.id, ourStatus: 'initiated', providerOutcome: 'pending', providerStatus: 'pending' },
      { paymentId: 'pay_UNKNOWN', ourStatus: null, providerOutcome: 'failed', providerStatus: 'failed' },
    ]);
  });
});

describe('recordsByStatus', () => {
  const answering = (answers: Record<string, StatusOutcome | Error>): PayoutProvider => ({
    name: 'mtn_momo',
    submit: async () => ({ kind: 'retry', afterMs: 1 }),
    status: async (p) => {
      const answer = answers[p.id]!;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  });

  it('one status query per payment: a final or pending answer is a record without an amount, not_found none', async () => {
    const [a, b, c] = [payment(1), payment(2), payment(3)];
    const reader = recordsByStatus(answering({
      [a.id]: { kind: 'succeeded', providerRef: 'r' }, [b.id]: { kind: 'not_found' }, [c.id]: { kind: 'failed', reason: 'x', code: 'declined' },
    }));
    expect(reader.provider).toBe('mtn_momo');
    const records = await reader.recordsFor([a, b, c], WINDOW);
    expect([...records].sort((x, y) => x.paymentId.localeCompare(y.paymentId))).toEqual([
      { paymentId: a.id, outcome: 'succeeded', providerStatus: 'succeeded' },
      { paymentId: c.id, outcome: 'failed', providerStatus: 'failed' },
    ]);
  });

  it('answersLater: every payment is asked and listed unconfirmed; a query that throws fails the whole read', async () => {
    const [a, b] = [payment(1), payment(2)];
    const asked = recordsByStatus(answering({ [a.id]: { kind: 'pending', afterMs: 1 }, [b.id]: { kind: 'not_found' } }), { answersLater: true });
    expect(await asked.recordsFor([a, b], WINDOW)).toEqual(expect.arrayContaining([
      { paymentId: a.id, outcome: 'unconfirmed', providerStatus: 'asked' }, { paymentId: b.id, outcome: 'unconfirmed', providerStatus: 'asked' },
    ]));
    await expect(recordsByStatus(answering({ [a.id]: new Error('down') })).recordsFor([a], WINDOW)).rejects.toThrow('down');
  });
});

