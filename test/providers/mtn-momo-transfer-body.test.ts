import type { Payment } from '../../src/core/payments/payment';
import { momoPayment, startMomoHarness, type MomoHarness } from './support/mtn-momo-harness';

// What the adapter puts in `POST /disbursement/v1_0/transfer` (MoMoAPIs_Javascript_sdk
// docs/disbursements/transfer: payerMessage and payeeNote, 160 characters together at most, no
// apostrophe, MoMo common errors), and the payments it refuses before sending, each with its
// reason (docs/decisions.md § Money), seen through the MTN MoMo simulator over real HTTP.
describe('MTN MoMo transfer body', () => {
  let h: MomoHarness;
  beforeAll(async () => {
    h = await startMomoHarness();
  });
  afterAll(() => h.close());

  const held = (payment: Payment) => h.sim.transfers().filter((t) => t.externalId === payment.id);
  /** Submits `payment`, expects MTN to take it, and answers the transfer the simulator holds. */
  async function sent(payment: Payment) {
    expect(await h.provider.submit(payment)).toMatchObject({ kind: 'accepted' });
    const [transfer] = held(payment);
    expect(transfer).toBeDefined();
    return transfer!;
  }
  const noteOf = async (reference: string | null) => (await sent(momoPayment('00', { reference }))).payeeNote;

  it('the payer message names the payment; the payee note is its reference, or "Payout" when none is left', async () => {
    const payment = momoPayment('00', { reference: 'March rent' });
    expect(await sent(payment)).toMatchObject({ payerMessage: `Payout ${payment.id}`, payeeNote: 'March rent' });
    expect(await noteOf(null)).toBe('Payout');
    // Only characters MTN takes are kept; a reference of none of them leaves nothing.
    expect(await noteOf('\'"<>’')).toBe('Payout');
  });

  it('runs of spaces in the reference, present or left by removed characters, become one', async () => {
    expect(await noteOf('Invoice   42 \' / March')).toBe('Invoice 42 / March');
  });

  it('the note is cut to 100 characters and a space left at the cut is dropped', async () => {
    expect(await noteOf('C'.repeat(150))).toBe('C'.repeat(100));
    expect(await noteOf(`${'A'.repeat(99)} ${'B'.repeat(20)}`)).toBe('A'.repeat(99));
  });

  it('a longer payment id shortens the note so message and note stay within 160 characters', async () => {
    const payment = momoPayment('00', { id: `pay_${'X'.repeat(90)}`, reference: 'D'.repeat(150) });
    const transfer = await sent(payment);
    expect(transfer.payerMessage).toBe(`Payout ${payment.id}`);
    expect(transfer.payeeNote).toBe('D'.repeat(160 - transfer.payerMessage.length));
  });
});

describe('MTN MoMo payments refused before sending', () => {
  let h: MomoHarness;
  beforeAll(async () => {
    h = await startMomoHarness();
  });
  afterAll(() => h.close());

  /** The outcome of `payment`, after checking nothing reached the simulator. */
  async function refusedUnsent(payment: Payment) {
    const outcome = await h.provider.submit(payment);
    expect(h.sim.transfers().filter((t) => t.externalId === payment.id)).toHaveLength(0);
    return outcome;
  }
  const unsupported = (reason: string) => ({ kind: 'rejected', reason, code: 'unsupported_by_provider' });

  it('another payment method, even with paymentCode MTN', async () => {
    expect(await refusedUnsent(momoPayment('00', { paymentMethod: 'BANK' })))
      .toEqual(unsupported('MTN MoMo pays only MOMO with paymentCode MTN, not BANK MTN'));
  });

  it('a currency other than the market\'s', async () => {
    expect(await refusedUnsent(momoPayment('00', { destinationCurrency: 'GHS' }))).toEqual(unsupported('MTN MoMo pays UGX in UG, not GHS'));
  });

  it('a zero, negative, infinite or too precise amount', async () => {
    for (const fiatAmount of ['0', '-5', 'Infinity', '15000.5']) {
      expect(await refusedUnsent(momoPayment('00', { fiatAmount }))).toEqual(unsupported(
        `MTN MoMo cannot carry ${fiatAmount} EUR: it takes positive amounts with at most 0 decimal places in UGX`,
      ));
    }
  });

  it('a number that is not 7 to 15 digits from start to end, or outside the market\'s dial code', async () => {
    for (const accountNumber of ['+256abc1234567', '+2567712345678901', '256771234500x', '+233241234500']) {
      expect(await refusedUnsent(momoPayment('00', { accountNumber }))).toEqual(unsupported('MTN MoMo in UG pays numbers starting with +256'));
    }
  });
});
