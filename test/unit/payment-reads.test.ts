import { analyticsSummary, type AnalyticsGroup, type AnalyticsRow } from '../../src/core/analytics/analytics';
import { getPayment } from '../../src/core/payments/get-payment';
import { listPayments, type PaymentListQuery } from '../../src/core/payments/list-payments';
import { createMoneyOut } from '../../src/core/payments/create-money-out';
import { toPaymentView } from '../../src/core/payments/payment-view';
import { err, ok } from '../../src/core/shared/result';
import { command, fakeWorld, OTHER_TENANT, TENANT } from '../support/fake-world';

const DAY = 86_400_000;

/** Reads of payments and their analytics on in-memory ports. */
describe('getPayment and listPayments', () => {
  const setup = async () => {
    const world = fakeWorld();
    world.store.fund(TENANT, 'USDC', '100');
    const r = await createMoneyOut(world.moneyOut, TENANT, '0f8fad5b-d9cb-469f-a165-70867728950e', command());
    if (!r.ok) throw new Error(r.message);
    return { world, id: r.value.payment.id, view: r.value.payment };
  };

  it('reads the tenant\'s own payment; another tenant\'s is not found', async () => {
    const { world, id, view } = await setup();
    expect(await getPayment(world.store.reader, TENANT, id)).toEqual(ok(view));
    expect(await getPayment(world.store.reader, OTHER_TENANT, id)).toEqual(err('not_found', `Payment ${id} not found`));
  });

  it('pages views newest first with each row\'s cursor, and the last one as endCursor', async () => {
    const { world, id } = await setup();
    const payment = world.store.payments.get(id)!;
    const asked: PaymentListQuery[] = [];
    const lister = {
      listForTenant: async (_tenant: string, query: PaymentListQuery) => {
        asked.push(query);
        return query.after === 'forged' ? 'bad_cursor' as const : query.after === 'end' ? { entries: [], hasNextPage: false, hasPreviousPage: false } : { entries: [{ payment, cursor: 'c1' }, { payment, cursor: 'c2' }], hasNextPage: true, hasPreviousPage: false };
      },
    };
    const query = { first: 2, filter: { status: ['initiated' as const], reference: 'r'.repeat(128), createdFrom: new Date(0), createdTo: new Date(1) } };
    expect(await listPayments({ paymentList: lister }, TENANT, query)).toEqual(ok({
      entries: [{ node: toPaymentView(payment), cursor: 'c1' }, { node: toPaymentView(payment), cursor: 'c2' }], hasNextPage: true, hasPreviousPage: false, endCursor: 'c2',
    }));
    expect(asked).toEqual([query]);
    expect(await listPayments({ paymentList: lister }, TENANT, { first: 100, after: 'end' })).toEqual(ok({ entries: [], hasNextPage: false, hasPreviousPage: false }));
    expect(await listPayments({ paymentList: lister }, TENANT, { first: 1, after: 'forged' })).toEqual(err('validation_error', 'after is not a valid cursor', { field: 'after' }));
  });

  it.each([
    ['first 0', { first: 0 }, 'first must be an integer from 1 to 100', 'first'],
    ['first 101', { first: 101 }, 'first must be an integer from 1 to 100', 'first'],
    ['first 1.5', { first: 1.5 }, 'first must be an integer from 1 to 100', 'first'],
    ['a reference of 129', { first: 1, filter: { reference: 'r'.repeat(129) } }, 'reference must be at most 128 characters', 'reference'],
    ['an empty range', { first: 1, filter: { createdFrom: new Date(5), createdTo: new Date(5) } }, 'createdFrom must be before createdTo', 'createdFrom'],
  ] as [string, PaymentListQuery, string, string][])('refuses %s without asking the store', async (_name, query, message, field) => {
    let asked = 0;
    const lister = { listForTenant: async () => (asked++, { entries: [], hasNextPage: false, hasPreviousPage: false }) };
    expect(await listPayments({ paymentList: lister }, TENANT, query)).toEqual(err('validation_error', message, { field }));
    expect(asked).toBe(0);
  });

  it('accepts an open-ended range', async () => {
    const lister = { listForTenant: async () => ({ entries: [], hasNextPage: false, hasPreviousPage: false }) };
    expect((await listPayments({ paymentList: lister }, TENANT, { first: 1, filter: { createdFrom: new Date(5) } })).ok).toBe(true);
    expect((await listPayments({ paymentList: lister }, TENANT, { first: 1, filter: { createdTo: new Date(5) } })).ok).toBe(true);
  });
});

describe('analyticsSummary', () => {
  const row = (o: Partial<AnalyticsRow> = {}): AnalyticsRow => ({
    key: 'KES', count: 3, succeeded: 2, final: 3, medianSecondsToSuccess: 4.5, fiatVolume: { KES: '3000.5' }, stablecoinVolume: { USDC: '24.2308' }, ...o,
  });
  const from = new Date('2026-01-01T00:00:00.000Z');

  it('formats volumes at each currency\'s scale and the success rate to 4 places', async () => {
    const asked: unknown[] = [];
    const store = { summary: async (...args: unknown[]) => (asked.push(args), [row(), row({ key: 'UGX', succeeded: 0, final: 0, medianSecondsToSuccess: null, fiatVolume: { UGX: '1000' }, stablecoinVolume: {} })]) };
    const to = new Date(from.getTime() + DAY);
    expect(await analyticsSummary(store, TENANT, { from, to, groupBy: 'currency' })).toEqual(ok([
      { key: 'KES', count: 3, fiatVolume: { KES: '3000.50' }, stablecoinVolume: { USDC: '24.230800' }, successRate: '0.6667', medianSecondsToSuccess: 4.5 },
      { key: 'UGX', count: 3, fiatVolume: { UGX: '1000' }, stablecoinVolume: {}, successRate: null, medianSecondsToSuccess: null },
    ]));
    expect(asked).toEqual([[TENANT, from, to, 'currency']]);
  });

  it.each([[1, 1, '1'], [0, 4, '0'], [1, 8, '0.125'], [1, 3, '0.3333']])('success rate %i of %i final is %s', async (succeeded, final, rate) => {
    const store = { summary: async () => [row({ succeeded, final })] };
    const r = await analyticsSummary(store, TENANT, { from, to: new Date(from.getTime() + 1), groupBy: 'status' as AnalyticsGroup });
    expect(r.ok && r.value[0]!.successRate).toBe(rate);
  });

  it('refuses an empty or reversed range, and one over 366 days; 366 exactly is accepted', async () => {
    const store = { summary: async () => [] };
    expect(await analyticsSummary(store, TENANT, { from, to: from, groupBy: 'day' })).toEqual(err('validation_error', 'from must be before to', { field: 'from' }));
    expect(await analyticsSummary(store, TENANT, { from, to: new Date(from.getTime() - 1), groupBy: 'day' })).toEqual(err('validation_error', 'from must be before to', { field: 'from' }));
    expect(await analyticsSummary(store, TENANT, { from, to: new Date(from.getTime() + 366 * DAY + 1), groupBy: 'day' }))
      .toEqual(err('validation_error', 'the range may span at most 366 days', { field: 'to' }));
    expect(await analyticsSummary(store, TENANT, { from, to: new Date(from.getTime() + 366 * DAY), groupBy: 'day' })).toEqual(ok([]));
  });
});
