/**
 * The refunds worker's pass (docs/decisions.md § Refunds: never twice) over the real Solana sender
 * on litesvm, with the core's use case on in-memory storage: a blockhash that expires before its
 * transaction lands, and a crash between the stored attempt and its broadcast; one transfer each.
 */
import { randomUUID } from 'node:crypto';
import type { SolanaRefundSender } from '../../src/adapters/chains/solana/solana-refund-sender';
import { applyMove } from '../../src/core/payments/advance-payment';
import { createMoneyOut } from '../../src/core/payments/create-money-out';
import type { OnchainRefund } from '../../src/core/refunds/onchain-refund';
import { sendRefundsPass, type SendRefundDeps } from '../../src/core/refunds/send-refund';
import type { LiteSvmRpc } from '../support/chains/litesvm-rpc-server';
import { recipient, SolanaRefundChain } from '../support/chains/solana-refund-fixture';
import { command, fakeWorld, TENANT } from '../support/fake-world';
import { MemoryShortfallFindings } from '../support/memory-shortfall-findings';

const DEPTH = 8;

let chain: SolanaRefundChain;
let rpc: LiteSvmRpc;
const newSender = (...args: Parameters<SolanaRefundChain['newSender']>) => chain.newSender(...args);
const tokenBalance = (owner: string) => chain.tokenBalance(owner);
const transfersTo = (owner: string) => chain.transfersTo(owner);

beforeAll(async () => {
  chain = await SolanaRefundChain.start(DEPTH);
  ({ rpc } = chain);
});
afterAll(async () => {
  await chain?.close();
});
afterEach(() => {
  rpc.ledger.losing = false;
});

/** A pending refund of a failed live payment to a fresh recipient, in a fake world, and the pass's ports with the real sender. */
async function owedRefund(): Promise<{ deps: SendRefundDeps; sender: SolanaRefundSender; refund: OnchainRefund; to: string; world: ReturnType<typeof fakeWorld> }> {
  const world = fakeWorld();
  world.store.fund(TENANT, 'USDC', '100');
  const to = (await recipient()).address;
  world.routing.add(TENANT, 'sandbox');
  const created = await createMoneyOut(world.moneyOut, TENANT, randomUUID(), command({ reference: `order-${randomUUID()}`, refundAddress: to }));
  if (!created.ok) throw new Error(created.message);
  const paymentId = created.value.payment.id;
  expect((await applyMove(world.advance, paymentId, 'accept', { providerRef: 'prov-1' })).ok).toBe(true);
  world.routing.add(TENANT, 'live');
  expect((await applyMove(world.advance, paymentId, 'fail', { failure: { reason: 'gone', code: 'declined' } })).ok).toBe(true);
  const refund = [...world.store.refunds.values()].find((r) => r.paymentId === paymentId)!;
  const sender = await newSender({ units: 100_000_000n });
  let n = 0;
  const deps: SendRefundDeps = {
    uow: world.store, sender, clock: world.clock, newAttemptId: () => `rfa_${++n}`, newEventId: () => `evt-${++n}`, findings: new MemoryShortfallFindings(),
  };
  return { deps, sender, refund, to, world };
}

describe('a blockhash that expires before its transaction lands', () => {
  it('the pass drops the attempt at finality, signs a new one on a fresh blockhash, and only one transfer arrives', async () => {
    const { deps, sender, refund, to, world } = await owedRefund();
    const attempts = () => [...world.store.refundAttempts.values()].filter((a) => a.refundId === refund.id);

    rpc.ledger.losing = true;
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    const [first] = attempts();
    expect(first).toMatchObject({ status: 'broadcast', nonce: null, blockhash: expect.any(String), lastValidHeight: expect.any(BigInt) });
    // Not found and not expired: the same transaction is sent again (still lost).
    expect(await sendRefundsPass(deps)).toBe('waiting');
    rpc.ledger.advance(151 + DEPTH);
    rpc.ledger.losing = false;
    expect(await sendRefundsPass(deps)).toBe('dropped');
    expect(world.store.refunds.get(refund.id)!.status).toBe('pending');
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    const second = attempts().find((a) => a.id !== first!.id)!;
    expect(second.blockhash).not.toBe(first!.blockhash);
    // The old transaction sent again now cannot land.
    await sender.broadcast(first!.rawTransaction);
    rpc.ledger.finalizeAll();
    expect(await sendRefundsPass(deps)).toBe('confirmed');
    expect(world.store.refunds.get(refund.id)).toMatchObject({ status: 'confirmed', txHash: second.txHashes[0] });
    expect(attempts().map((a) => a.status).sort()).toEqual(['dropped', 'landed']);
    expect(transfersTo(to)).toEqual([second.txHashes[0]]);
    expect(tokenBalance(to)).toBe(BigInt(refund.amount.replace('.', '')));
  });

  it('killed between the stored attempt and its broadcast, back after its blockhash expired: sent as stored (refused), dropped at finality, signed again; one transfer', async () => {
    const { deps, sender, refund, to, world } = await owedRefund();
    const attempts = () => [...world.store.refundAttempts.values()].filter((a) => a.refundId === refund.id);
    const broadcast = sender.broadcast.bind(sender);
    sender.broadcast = () => Promise.reject(new Error('killed'));
    await expect(sendRefundsPass(deps)).rejects.toThrow('killed');
    sender.broadcast = broadcast;
    const [stored] = attempts();
    expect(stored).toMatchObject({ status: 'signed' });
    rpc.ledger.advance(151 + DEPTH);
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    expect(rpc.ledger.transactions.has(stored!.txHashes[0]!)).toBe(false);
    expect(await sendRefundsPass(deps)).toBe('dropped');
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    rpc.ledger.finalizeAll();
    expect(await sendRefundsPass(deps)).toBe('confirmed');
    const landed = attempts().find((a) => a.status === 'landed')!;
    expect(attempts().map((a) => a.status).sort()).toEqual(['dropped', 'landed']);
    expect(transfersTo(to)).toEqual([landed.txHashes[0]]);
    expect(tokenBalance(to)).toBe(BigInt(refund.amount.replace('.', '')));
  });
});
