import { gatherLegs, LEDGER_SLOTS, spread } from '../../src/adapters/persistence/ledger-post.statement';
import { ledgerPostStatement } from '../../src/adapters/persistence/ledger.repository';
import { SequentialIds } from '../support/fakes';
import { Decimal } from '../../src/core/shared/money';

const sum = (legs: { amount: string }[]) => legs.reduce((s, l) => s.plus(l.amount), new Decimal(0)).toFixed(6);

describe('balance slots (docs/decisions.md § Ledger)', () => {
  it('spreads a deposit over every slot exactly, the remainder on the first slots', () => {
    const legs = spread('100.000005', LEDGER_SLOTS);
    expect(legs).toHaveLength(LEDGER_SLOTS);
    expect(sum(legs)).toBe('100.000005');
    expect(legs[0]!.amount).toBe('6.250001');
    expect(legs[5]!.amount).toBe('6.250000');
  });

  it('leaves out empty shares of a deposit smaller than one micro-unit per slot', () => {
    expect(spread('0.000003', 16)).toEqual([{ slot: 0, amount: '0.000001' }, { slot: 1, amount: '0.000001' }, { slot: 2, amount: '0.000001' }]);
  });

  it('gathers a hold from its own slot first, then the fullest others, to the exact amount', () => {
    const legs = gatherLegs('10', 2, [
      { slot: 0, balance: '3' }, { slot: 1, balance: '5' }, { slot: 2, balance: '4' }, { slot: 3, balance: '1' },
    ]);
    expect(legs).toEqual([{ slot: 2, amount: '4.000000' }, { slot: 1, amount: '5.000000' }, { slot: 0, amount: '1.000000' }]);
  });

  it('refuses only when all slots together do not cover the hold', () => {
    const balances = [{ slot: 0, balance: '4.000001' }, { slot: 1, balance: '5.999999' }];
    expect(gatherLegs('10.000001', 0, balances)).toBeUndefined();
    expect(sum(gatherLegs('10', 0, balances)!)).toBe('10.000000');
  });

  it('over many more holds than slots, every hold takes a slot in range, each slot in turn', () => {
    const ids = new SequentialIds();
    const hold = { tenantId: 'ten_A', currency: 'USDC', from: 'available', to: 'held', kind: 'hold', amount: '1.000000', requireFunds: true, at: new Date() } as const;
    const holds = LEDGER_SLOTS * 6 + 5;
    const slots = Array.from({ length: holds }, (_, i) => ledgerPostStatement({ ...hold, paymentId: `pay_${i}` }, ids).holdSlot);
    expect(slots.filter((slot) => !Number.isInteger(slot) || slot < 0 || slot >= LEDGER_SLOTS)).toEqual([]);
    // Round robin: consecutive holds take consecutive slots, so every slot is used 6 or 7 times.
    slots.slice(1).forEach((slot, i) => expect([i, slot]).toEqual([i, (slots[i]! + 1) % LEDGER_SLOTS]));
    const uses = Array.from({ length: LEDGER_SLOTS }, (_, slot) => slots.filter((s) => s === slot).length);
    expect(Math.min(...uses)).toBe(6);
    expect(Math.max(...uses)).toBe(7);
    // A transfer that is not a hold never draws a slot of its own.
    const release = { ...hold, from: 'held', to: 'available', kind: 'release', requireFunds: false, paymentId: 'pay_x' } as const;
    expect(ledgerPostStatement(release, ids).holdSlot).toBe(0);
  });
});
