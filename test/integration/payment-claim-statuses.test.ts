import { MikroORM } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { PaymentQueueRepository } from '../../src/adapters/persistence/payment.repository';
import { usePersonalDataBox } from '../../src/adapters/persistence/schemas/sealed-text.type';
import { PersonalDataBox } from '../../src/adapters/providers/personal-data-box';
import { ulidGenerator } from '../../src/adapters/providers/system';
import { Payment, PAYMENT_STATUSES } from '../../src/core/payments/payment';
import { MOVABLE_STATUSES } from '../../src/core/payments/payment-state';

// The core's state table with one more move, from `failed`: the claim must follow the core's data
// (failed payments become claimable) rather than a list of its own.
jest.mock('../../src/core/payments/payment-state', () => {
  const actual = jest.requireActual('../../src/core/payments/payment-state');
  const moves = { ...actual.PAYMENT_MOVES, retry: { from: 'failed', to: 'initiated', event: 'payment.initiated' } };
  return { ...actual, PAYMENT_MOVES: moves, MOVABLE_STATUSES: actual.movableStatuses(moves) };
});

describe('payment queue: the statuses it claims come from the core state table', () => {
  let orm: MikroORM;
  const ids = ulidGenerator();
  beforeAll(async () => {
    orm = await MikroORM.init(ormOptions(process.env.TEST_DATABASE_URL!, 2));
    usePersonalDataBox(orm, new PersonalDataBox(Buffer.alloc(32, 7)));
  });
  afterAll(() => orm.close(true));

  it('claims a due payment exactly when its status is one the state table can still move', async () => {
    expect(MOVABLE_STATUSES).toEqual(['initiated', 'provider_accepted', 'failed']);
    const tenantId = `ten_${randomUUID()}`;
    const now = new Date();
    const due = new Date(now.getTime() - 1000);
    const payments = PAYMENT_STATUSES.map((status) => new Payment({
      id: ids.next('pay'), tenantId, status, paymentMethod: 'MOMO', sourceCurrency: 'USDC', destinationCurrency: 'KES',
      country: 'KE', blockchain: 'SOLANA', amountStablecoin: '1', fiatAmount: '100', exchangeRate: '100', payoutFee: '0',
      accountName: 'a', accountNumber: '254700000000', paymentCode: 'MPESA', businessNumber: null, reference: `r-${randomUUID()}`,
      refundAddress: 'x', optionalIssuerFee: 'NO', quoteId: null, providerRef: null, provider: null, submittedAt: null, failureReason: null,
      failureCode: status === 'failed' || status === 'refunded' ? 'unknown' : null,
      nextActionAt: due, attempts: 0, acceptedAt: null, createdAt: now, updatedAt: now,
    }));
    await orm.em.fork().insertMany('Payment', payments);
    const claimed = await new PaymentQueueRepository(orm.em).claimDue(now, 1000, new Date(now.getTime() + 60_000));
    const mine = claimed.filter((p) => p.tenantId === tenantId).map((p) => p.status).sort();
    expect(mine).toEqual([...MOVABLE_STATUSES].sort());
  });
});
