import type { Clock } from '../shared/clock';
import { ok } from '../shared/result';
import type { UnitOfWork } from '../shared/unit-of-work';
import type { OnchainRefund } from './onchain-refund';
import { refundEvent } from './refund-events';
import type { ShortfallChange, WalletShortfallFindings } from './refund-funds';
import type { RefundFailureReason, RefundRefusal } from './refund-refusal';
import type { RefundAttempt, RefundSender, RefundShortfall, SignedRefund, TransactionLookup } from './refund-sender';
import { transition, type RefundMove } from './refund-states';

/** Ports of the refunds worker's pass: one chain, one hot wallet (the sender's). */
export interface SendRefundDeps {
  readonly uow: UnitOfWork;
  readonly sender: RefundSender;
  readonly clock: Clock;
  /** A new attempt id (`rfa_` + ULID). */
  readonly newAttemptId: () => string;
  /** A new outbox event id (uuid) for the refund webhooks. */
  readonly newEventId: () => string;
  /** The wallets' standing shortfall findings (docs/decisions.md § Refunds: funds and fees). */
  readonly findings: WalletShortfallFindings;
  /** Told when the wallet's finding is raised, changed or cleared (not when it is kept): logs and metrics. */
  readonly onShortfall?: (change: ShortfallChange) => void;
}

/**
 * What one pass did: `idle` (nothing owed), `broadcast` (an attempt was sent, first time or again
 * after a crash), `waiting` (an attempt is in flight or not yet final), `confirmed`, `failed` (its
 * transaction reverted, or the sender refused the oldest refund owed: nothing signed),
 * `dropped` (back to pending), `replaced` (a stuck transaction was re-signed with a higher fee),
 * `short` (the hot wallet lacks the token or gas for the oldest refund owed: nothing signed, it
 * stays pending, and the wallet's finding stands).
 */
export type RefundPassOutcome = 'idle' | 'broadcast' | 'waiting' | 'confirmed' | 'failed' | 'dropped' | 'replaced' | 'short';

/** Whether a pass that answered `outcome` changed something, so the next one should follow at once. Pure. */
export function madeProgress(outcome: RefundPassOutcome): boolean {
  return outcome !== 'idle' && outcome !== 'waiting' && outcome !== 'short';
}

/**
 * One pass of the refunds worker for the sender's hot wallet (docs/decisions.md § Refunds: never
 * twice). The wallet has at most one attempt in flight: while one is open it is settled first,
 * and nothing else is signed. A new refund is built and signed, its attempt (hash, raw transaction,
 * nonce or blockhash) stored and committed, and only then broadcast. After a crash at any point, the
 * stored attempt's hashes are looked up before anything is sent: found, it is followed to finality;
 * not found, the same stored transaction is broadcast again (the same hash, so at most one transfer),
 * or, once the chain says none of its hashes can land any more, the refund goes back to pending.
 * `confirmed` only at finality, with refund_pending → refunded in the same database transaction.
 * Before a new attempt is signed the sender says whether it can build it at all: a refund it
 * refuses (docs/decisions.md § Refunds: refusals) goes `pending` → `failed` with the refusal as
 * its reason and its `refund.failed` webhook, nothing signed, and the next pass goes on with the
 * refund after it. Then it says whether the wallet can pay it (token and gas):
 * when short, nothing is signed, the refund stays pending (refunds leave in order, so later ones
 * wait too) and the wallet's finding is raised once; it is cleared at the first pass that finds the
 * wallet able to send, or nothing owed. `refund.confirmed` and `refund.failed` are written to the
 * outbox with their move. Throws on infrastructure faults (an RPC down, a lost unique race): the next pass resumes from storage.
 */
export async function sendRefundsPass(deps: SendRefundDeps): Promise<RefundPassOutcome> {
  const { sender } = deps;
  const open = await read(deps, (tx) => tx.refunds.openAttempt(sender.chain, sender.wallet));
  return open ? settle(deps, open) : startNext(deps);
}

async function read<T>(deps: SendRefundDeps, work: (tx: Parameters<Parameters<UnitOfWork['transact']>[0]>[0]) => Promise<T>): Promise<T> {
  const result = await deps.uow.transact<T, never>(async (tx) => ok(await work(tx)));
  if (!result.ok) throw new Error('unreachable: a read returned an error');
  return result.value;
}

/** Signs the oldest pending refund, stores the attempt, then broadcasts it. */
async function startNext(deps: SendRefundDeps): Promise<RefundPassOutcome> {
  const { sender } = deps;
  const next = await read(deps, async (tx) => {
    const refund = await tx.refunds.nextPending(sender.chain);
    return refund ? { refund, lastNonce: await tx.refunds.lastNonce(sender.chain, sender.wallet) } : undefined;
  });
  if (!next) {
    await clearShortfall(deps);
    return 'idle';
  }
  const refused = sender.refusal(next.refund);
  if (refused) return refuse(deps, next.refund, refused);
  const lacks = await sender.shortfall(next.refund);
  if (lacks) return short(deps, next.refund, lacks);
  await clearShortfall(deps);
  const signed = await sender.sign(next.refund, { lastNonce: next.lastNonce });
  const at = deps.clock.now();
  const attempt: RefundAttempt = {
    id: deps.newAttemptId(), refundId: next.refund.id, blockchain: sender.chain, wallet: sender.wallet, txHashes: [signed.txHash],
    rawTransaction: signed.rawTransaction, nonce: signed.nonce, blockhash: signed.blockhash, lastValidHeight: signed.lastValidHeight,
    status: 'signed', attempts: 1, landedHash: null, landedHeight: null, createdAt: at, signedAt: at,
  };
  const stored = await read(deps, async (tx) => {
    // Locked again: another sender (a lease lost mid-pass) may have taken it since the read.
    const refund = await tx.refunds.nextPending(sender.chain);
    if (refund?.id !== next.refund.id) return false;
    await tx.refunds.createAttempt(attempt);
    return true;
  });
  if (!stored) return 'waiting';
  // Committed before it is sent: from here every path looks this hash up first.
  await sender.broadcast(signed.rawTransaction);
  await markBroadcast(deps, attempt, signed.txHash);
  return 'broadcast';
}

/** Follows the wallet's open attempt one step. */
async function settle(deps: SendRefundDeps, open: RefundAttempt): Promise<RefundPassOutcome> {
  const { sender } = deps;
  // Heights before lookups: a transaction found at or below this finalized height is final.
  const heights = await sender.heights();
  const found = await findAny(sender, open);
  if (found) {
    if (open.status === 'signed') await markBroadcast(deps, open, found.hash);
    if (found.lookup.height > heights.finalized) return 'waiting';
    return found.lookup.status === 'landed' ? confirm(deps, open, found.hash, found.lookup.height) : fail(deps, open, found.hash, found.lookup.height);
  }
  const current = open.txHashes.at(-1)!;
  if (open.status === 'signed') {
    // Stored but maybe never sent (a crash between the commit and the broadcast): the same bytes again.
    await sender.broadcast(open.rawTransaction);
    await markBroadcast(deps, open, current);
    return 'broadcast';
  }
  // Judged at finality, then looked up again: a transaction that landed while we asked is final by now and found.
  if (await sender.expired(open) && !(await findAny(sender, open))) return drop(deps, open);
  if (sender.stuck(open, deps.clock.now())) return replace(deps, open);
  // A mempool may have forgotten it: sending the same transaction again is harmless.
  await sender.broadcast(open.rawTransaction);
  return 'waiting';
}

async function findAny(sender: RefundSender, attempt: RefundAttempt): Promise<{ hash: string; lookup: Exclude<TransactionLookup, { status: 'not_found' }> } | undefined> {
  for (const hash of attempt.txHashes) {
    const lookup = await sender.lookup(hash);
    if (lookup.status !== 'not_found') return { hash, lookup };
  }
  return undefined;
}

/**
 * Fails a refund the sender refused, with its webhook, in one transaction: only while it is still
 * the oldest one owed (locked again: another sender may have taken it since the read).
 */
async function refuse(deps: SendRefundDeps, refund: OnchainRefund, refusal: RefundRefusal): Promise<RefundPassOutcome> {
  const failed = await read(deps, async (tx) => {
    const still = await tx.refunds.nextPending(deps.sender.chain);
    const to = still?.id === refund.id ? transition(still.status, 'fail') : undefined;
    if (!to) return false;
    const at = deps.clock.now();
    const moved = await tx.refunds.setStatus(refund.id, refund.status, to, null, null, refusal);
    const event = refundEvent(moved, deps.newEventId(), at);
    if (event) await tx.outbox.append(event);
    return true;
  });
  return failed ? 'failed' : 'waiting';
}

/** Applies `move` to the attempt's refund and stores `attempt` in one transaction; posts the ledger when confirming. */
async function move(
  deps: SendRefundDeps, attempt: RefundAttempt, refundMove: RefundMove, txHash: string | null, failureReason: RefundFailureReason | null = null,
): Promise<OnchainRefund | undefined> {
  return read(deps, async (tx) => {
    const refund = await tx.refunds.lockById(attempt.refundId);
    if (!refund) throw new Error(`refund ${attempt.refundId} of attempt ${attempt.id} is gone`);
    const to = transition(refund.status, refundMove);
    await tx.refunds.updateAttempt(attempt);
    if (!to) return undefined;
    const at = deps.clock.now();
    const moved = await tx.refunds.setStatus(refund.id, refund.status, to, txHash, to === 'confirmed' ? at : null, to === 'failed' ? failureReason : null);
    // Its webhook commits with the move (docs/decisions.md § Refunds); a drop back to pending sends none.
    const event = refundMove === 'confirm' || refundMove === 'fail' ? refundEvent(moved, deps.newEventId(), at) : undefined;
    if (event) await tx.outbox.append(event);
    if (to === 'confirmed') {
      // Posted last: it locks the tenant's balance rows until commit.
      const posted = await tx.ledger.post({
        tenantId: refund.tenantId, currency: refund.currency, amount: refund.amount, from: 'refund_pending', to: 'refunded', kind: 'refund_sent',
        paymentId: refund.paymentId, at,
      });
      if (posted !== 'posted') throw new Error(`ledger refused the refund of ${refund.paymentId}: ${posted}`);
    }
    return moved;
  });
}

/** Raises (or keeps) the wallet's finding; nothing is signed. */
async function short(deps: SendRefundDeps, refund: OnchainRefund, lacks: RefundShortfall): Promise<RefundPassOutcome> {
  const { sender } = deps;
  const finding = {
    chain: sender.chain, wallet: sender.wallet, lacks, refundId: refund.id, currency: refund.currency, amount: refund.amount, since: deps.clock.now(),
  };
  const change = await deps.findings.raise(finding);
  if (change !== 'kept') deps.onShortfall?.({ change, finding });
  return 'short';
}

async function clearShortfall(deps: SendRefundDeps): Promise<void> {
  const cleared = await deps.findings.clear(deps.sender.chain, deps.sender.wallet);
  if (cleared) deps.onShortfall?.({ change: 'cleared', finding: cleared });
}

async function markBroadcast(deps: SendRefundDeps, attempt: RefundAttempt, txHash: string): Promise<void> {
  await move(deps, { ...attempt, status: 'broadcast' }, 'broadcast', txHash);
}

async function confirm(deps: SendRefundDeps, open: RefundAttempt, hash: string, height: bigint): Promise<RefundPassOutcome> {
  await move(deps, { ...open, status: 'landed', landedHash: hash, landedHeight: height }, 'confirm', hash);
  return 'confirmed';
}

async function fail(deps: SendRefundDeps, open: RefundAttempt, hash: string, height: bigint): Promise<RefundPassOutcome> {
  await move(deps, { ...open, status: 'reverted', landedHash: hash, landedHeight: height }, 'fail', hash, 'reverted');
  return 'failed';
}

async function drop(deps: SendRefundDeps, open: RefundAttempt): Promise<RefundPassOutcome> {
  await move(deps, { ...open, status: 'dropped' }, 'drop', null);
  return 'dropped';
}

/** Re-signs a stuck BSC transaction under the same nonce with a higher fee: stored with every earlier hash, then broadcast. */
async function replace(deps: SendRefundDeps, open: RefundAttempt): Promise<RefundPassOutcome> {
  const refund = await read(deps, (tx) => tx.refunds.lockById(open.refundId));
  if (!refund) throw new Error(`refund ${open.refundId} of attempt ${open.id} is gone`);
  const signed: SignedRefund = await deps.sender.sign(refund, { lastNonce: open.nonce, replacing: open });
  if (signed.nonce !== open.nonce) throw new Error(`a replacement of attempt ${open.id} must keep nonce ${open.nonce}, got ${signed.nonce}`);
  const replaced: RefundAttempt = {
    ...open, txHashes: [...open.txHashes, signed.txHash], rawTransaction: signed.rawTransaction, attempts: open.attempts + 1, signedAt: deps.clock.now(),
  };
  await read(deps, (tx) => tx.refunds.updateAttempt(replaced));
  await deps.sender.broadcast(signed.rawTransaction);
  await read(deps, (tx) => tx.refunds.setStatus(refund.id, refund.status, refund.status, signed.txHash, null));
  return 'replaced';
}
