import type { Blockchain } from '../catalog/catalog';
import type { OutboxEvent } from '../events/outbox-event';
import { canonicalTxHash } from '../ledger/tx-hash';
import type { Clock, IdGenerator } from '../shared/clock';
import { err, ok, type Result } from '../shared/result';
import type { UnitOfWork } from '../shared/unit-of-work';
import { pendingReview } from '../screening/compliance-review';
import type { AddressHit, SanctionsScreen } from '../screening/sanctions-screen';
import type { ChainHeights, ChainReader, ChainTransfer, WatchedToken } from './chain-ports';
import {
  depositExternalRef, DEPOSIT_MOVES, toDepositView, transition,
  type Deposit, type DepositEventType, type DepositFinding, type DepositFindingKind, type DepositStatus,
} from './deposit';
import { CEILING_MICROS, creditedAmount } from './deposit-amount';
import type { DepositAddress, DepositAddressRegistry, DepositReader } from './deposit-ports';

/** What one watcher pass over one chain needs (docs/decisions.md § Onchain deposits: watchers). */
export interface ScanChainDeps {
  readonly uow: UnitOfWork;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly deposits: DepositReader;
  readonly addresses: Pick<DepositAddressRegistry, 'onChain'>;
  /** The tokens credited on this chain; a transfer of any other token is a finding. */
  readonly tokens: readonly WatchedToken[];
  /** The key whose addresses this watcher looks for. */
  readonly keyId: string;
  /** This watcher's lease holder id: the cursor is stored only while it holds the chain's lease. */
  readonly holder: string;
  /** Detected deposits asked about per round at finality (default 100). */
  readonly finalityBatch?: number;
  /**
   * A final, present deposit whose ledger posting was refused (its external reference already
   * posted for the tenant): left detected and reported, never credited twice.
   */
  readonly onLedgerRefused?: (deposit: Deposit) => void;
  /**
   * Screens a final deposit's sender against the listed digital currency addresses
   * (docs/decisions.md § Screening: deposits); absent: nothing is screened.
   */
  readonly screen?: Pick<SanctionsScreen, 'screenAddress'>;
  /** A final deposit held for its sender, with its hits (logged: entry ids, never the sender). */
  readonly onHeld?: (deposit: Deposit, hits: readonly AddressHit[]) => void;
}

/** What one pass did. */
export interface ScanReport {
  readonly chain: Blockchain;
  readonly heights: ChainHeights;
  /** Highest block or slot scanned so far (null while there was nothing to scan for). */
  readonly scannedTo: bigint | null;
  /** Everything up to the head is scanned: the next pass can wait for the interval. */
  readonly caughtUp: boolean;
  /** New deposits, and dropped ones the chain included again: each sent `deposit.detected`. */
  readonly detected: readonly Deposit[];
  /** Detected deposits the chain now includes at another block or slot. */
  readonly repositioned: number;
  readonly findings: readonly DepositFinding[];
  readonly credited: readonly Deposit[];
  readonly dropped: readonly Deposit[];
  /** Final deposits from a listed sender address: held for compliance review, not credited. */
  readonly held: readonly Deposit[];
}

/** Closed set of expected failures of a pass. */
export type ScanChainErrorCode = 'lease_lost';

/** An address or token as compared: BSC hex is case-insensitive (lower case), Solana base58 is not. Pure. */
export function chainKey(chain: Blockchain, value: string): string {
  return chain === 'BSC' ? value.toLowerCase() : value;
}

/**
 * One watcher pass over `reader`'s chain (docs/decisions.md § Onchain deposits: watchers):
 * 1. reads the heights, then our addresses (in that order: an address handed out after the heights
 *    were read can only be paid in a later block, which a later pass scans);
 * 2. scans from the stored cursor up to the head; a transfer of a watched token to a tenant's
 *    address becomes a `detected` deposit (keyed by chain, hash and index: an already known key
 *    writes nothing) with its `deposit.detected` event; another token, dust or an oversized
 *    amount becomes a finding, never credited; the new cursor is stored in the same transaction,
 *    only while `holder` holds the chain's lease (else `lease_lost`, and nothing is written);
 * 3. asks the reader, for every detected deposit at or below the finalized height, whether the
 *    transfer is still there: present → credited (funding → available, one ledger transaction
 *    naming the deposit, `deposit.credited`), absent → dropped (`deposit.dropped`, the balance
 *    never moved). Each in its own transaction, guarded by the deposit's status and position, so
 *    a rescan, two watchers or a repeated answer credit once. A present deposit whose sender is an
 *    OFAC-listed address (exact match) is held instead (`deposit.held`, a compliance review of kind
 *    `deposit` in the same transaction), never credited (docs/decisions.md § Screening: deposits).
 * Reader faults throw (the worker retries the pass from the stored cursor).
 */
export async function scanChain(deps: ScanChainDeps, reader: ChainReader): Promise<Result<ScanReport, ScanChainErrorCode>> {
  const chain = reader.chain;
  const heights = await reader.heights();
  const previous = await deps.deposits.cursorOf(chain);
  const owners = new Map((await deps.addresses.onChain(chain, deps.keyId)).map((a) => [chainKey(chain, a.address), a]));
  // Nothing to look for yet: the scan waits for the first address (it starts where the reader is configured to).
  const scan = owners.size > 0
    ? await reader.scan([...owners.values()].map((a) => a.address), previous?.cursor ?? undefined, heights.head)
    : undefined;
  const now = deps.clock.now();
  const plan = await planDetections(deps, chain, owners, scan?.transfers ?? [], now);
  const scannedTo = scan?.scannedTo ?? previous?.scannedTo ?? null;
  const caughtUp = !scan || scan.scannedTo >= heights.head;
  const event = eventOf(deps, heights.head);

  const written = await deps.uow.transact<{ detected: Deposit[]; findings: DepositFinding[] }, ScanChainErrorCode>(async (tx) => {
    const detected: Deposit[] = [];
    for (const deposit of plan.fresh) {
      if ((await tx.deposits.insert(deposit)) !== 'inserted') continue;
      await tx.outbox.append(event('deposit.detected', deposit, now));
      detected.push(deposit);
    }
    for (const { deposit, to } of plan.repositioned) await tx.deposits.move(deposit.id, 'detected', to);
    for (const { deposit, to, status } of plan.reappearing) {
      const back = await tx.deposits.move(deposit.id, deposit.status, { ...to, status, droppedAt: null });
      if (!back) continue;
      await tx.outbox.append(event(DEPOSIT_MOVES.reappear.event, back, now));
      detected.push(back);
    }
    const findings: DepositFinding[] = [];
    for (const finding of plan.findings) if ((await tx.deposits.recordFinding(finding)) === 'inserted') findings.push(finding);
    const saved = await tx.deposits.saveCursor({
      chain, cursor: scan?.cursor ?? previous?.cursor ?? null, scannedTo, head: heights.head, finalized: heights.finalized,
      heightsAt: now, caughtUpAt: caughtUp ? now : previous?.caughtUpAt ?? null,
    }, deps.holder);
    if (saved === 'lease_lost') return err('lease_lost', `${chain} watcher lease is held by another watcher`);
    return ok({ detected, findings });
  });
  if (!written.ok) return written;
  const settled = await settleFinal(deps, reader, heights);
  return ok({
    chain, heights, scannedTo, caughtUp, detected: written.value.detected, repositioned: plan.repositioned.length,
    findings: written.value.findings, credited: settled.credited, dropped: settled.dropped, held: settled.held,
  });
}

interface Position {
  readonly height: bigint;
  readonly blockHash: string;
}

interface DetectionPlan {
  readonly fresh: Deposit[];
  readonly repositioned: Array<{ deposit: Deposit; to: Position }>;
  readonly reappearing: Array<{ deposit: Deposit; to: Position; status: DepositStatus }>;
  readonly findings: DepositFinding[];
}

/**
 * Sorts a scan's transfers: new deposits, known detected deposits the chain now includes elsewhere
 * (their row follows), dropped ones included again elsewhere (they come back), findings. A key
 * answered twice counts once; a transfer to an address that is not ours is ignored.
 */
async function planDetections(
  deps: ScanChainDeps, chain: Blockchain, owners: ReadonlyMap<string, DepositAddress>, transfers: readonly ChainTransfer[], now: Date,
): Promise<DetectionPlan> {
  const candidates = new Map<string, Deposit>();
  const findings = new Map<string, DepositFinding>();
  for (const transfer of transfers) {
    const key = `${transfer.txHash}#${transfer.index}`;
    const owner = owners.get(chainKey(chain, transfer.to));
    if (transfer.chain !== chain || !owner || candidates.has(key) || findings.has(key)) continue;
    const txHash = canonicalTxHash(chain, transfer.txHash);
    if (!txHash.ok || txHash.value !== transfer.txHash) throw new Error(`${chain} reader answered a transaction hash that is not canonical: ${transfer.txHash}`);
    const token = deps.tokens.find((t) => t.chain === chain && chainKey(chain, t.token) === chainKey(chain, transfer.token));
    const credit = token ? creditedAmount(transfer.units, token.decimals) : undefined;
    const kind: DepositFindingKind | undefined = !token || !credit ? 'foreign_token' : credit.micros === 0n ? 'dust' : credit.micros >= CEILING_MICROS ? 'oversized' : undefined;
    if (kind || !token || !credit) {
      findings.set(key, findingOf(deps, kind ?? 'foreign_token', owner, transfer, now));
      continue;
    }
    candidates.set(key, {
      id: deps.ids.next('dep'), tenantId: owner.tenantId, blockchain: chain, txHash: transfer.txHash, index: transfer.index, currency: token.currency,
      amount: credit.amount, remainderUnits: credit.remainderUnits.toString(), token: chainKey(chain, transfer.token), sender: transfer.from,
      address: owner.address, height: transfer.height, blockHash: transfer.blockHash, status: 'detected', source: 'chain',
      ledgerTransactionId: null, createdAt: now, creditedAt: null, droppedAt: null,
    });
  }
  const known = new Map((await deps.deposits.findByKeys(chain, [...candidates.values()].map((d) => ({ txHash: d.txHash, index: d.index }))))
    .map((d) => [`${d.txHash}#${d.index}`, d]));
  const plan: DetectionPlan = { fresh: [], repositioned: [], reappearing: [], findings: [...findings.values()] };
  for (const [key, candidate] of candidates) {
    const stored = known.get(key);
    const to = { height: candidate.height!, blockHash: candidate.blockHash! };
    if (!stored) {
      plan.fresh.push(candidate);
      continue;
    }
    // Seen again where it already is: nothing changes. A dropped deposit seen where it was dropped
    // is a stale answer about a replaced block.
    if (stored.height === to.height && stored.blockHash === to.blockHash) continue;
    const back = transition(stored.status, 'reappear');
    if (stored.status === 'detected') plan.repositioned.push({ deposit: stored, to });
    else if (back) plan.reappearing.push({ deposit: stored, to, status: back });
  }
  return plan;
}

function findingOf(deps: ScanChainDeps, kind: DepositFindingKind, owner: DepositAddress, transfer: ChainTransfer, now: Date): DepositFinding {
  return {
    id: deps.ids.uuid(), kind, tenantId: owner.tenantId, blockchain: transfer.chain, txHash: transfer.txHash, index: transfer.index,
    token: chainKey(transfer.chain, transfer.token), sender: transfer.from, address: owner.address, units: transfer.units.toString(),
    decimals: transfer.decimals, height: transfer.height, blockHash: transfer.blockHash, createdAt: now,
  };
}

/** Builds a deposit's outbox event: the deposit as GET /v1/deposits/{id} answers it, confirmations counted against `head`. */
function eventOf(deps: Pick<ScanChainDeps, 'ids'>, head: bigint) {
  return (type: DepositEventType, deposit: Deposit, at: Date): OutboxEvent => ({
    id: deps.ids.uuid(), tenantId: deposit.tenantId, type, entityId: deposit.id, payload: { ...toDepositView(deposit, head) }, createdAt: at,
  });
}

/** Step 3 of a pass: every detected deposit whose height is final is credited or dropped, by the reader's answer. */
async function settleFinal(deps: ScanChainDeps, reader: ChainReader, heights: ChainHeights): Promise<{ credited: Deposit[]; dropped: Deposit[]; held: Deposit[] }> {
  const batch = deps.finalityBatch ?? 100;
  const credited: Deposit[] = [];
  const dropped: Deposit[] = [];
  const held: Deposit[] = [];
  const event = eventOf(deps, heights.head);
  let after: { height: bigint; id: string } | undefined;
  for (;;) {
    const due = await deps.deposits.detectedUpTo(reader.chain, heights.finalized, batch, after);
    for (const deposit of due) {
      if (deposit.height === null || deposit.blockHash === null) continue;
      const at = { height: deposit.height, blockHash: deposit.blockHash };
      const present = (await reader.presence({ txHash: deposit.txHash, index: deposit.index, ...at })) === 'present';
      // Screened at finality, with the lists loaded now: the funds are final, and nothing is credited before this point.
      const hits = present && deposit.sender !== null ? deps.screen?.screenAddress(deposit.sender) ?? [] : [];
      const move = !present ? 'drop' : hits.length > 0 ? 'hold' : 'credit';
      const status = transition(deposit.status, move);
      if (!status) continue;
      const decided = await deps.uow.transact<Deposit, 'moved_concurrently' | 'ledger_refused'>(async (tx) => {
        const now = deps.clock.now();
        if (move === 'drop' || move === 'hold') {
          const moved = await tx.deposits.move(deposit.id, deposit.status, move === 'drop' ? { status, droppedAt: now } : { status }, at);
          if (!moved) return err('moved_concurrently', `deposit ${deposit.id} is no longer detected at ${at.height}`);
          // Held: its review commits with it, so a held deposit always has one.
          if (move === 'hold') await tx.reviews.create(pendingReview('deposit', moved.id, moved.tenantId, hits, now));
          await tx.outbox.append(event(DEPOSIT_MOVES[move].event, moved, now));
          return ok(moved);
        }
        const ledgerTransactionId = deps.ids.next('ldg');
        const done = await tx.deposits.move(deposit.id, deposit.status, { status, creditedAt: now, ledgerTransactionId }, at);
        if (!done) return err('moved_concurrently', `deposit ${deposit.id} is no longer detected at ${at.height}`);
        await tx.outbox.append(event(DEPOSIT_MOVES.credit.event, done, now));
        // Posted last: it locks the tenant's balance rows until commit.
        const posted = await tx.ledger.post({
          tenantId: done.tenantId, currency: done.currency, from: 'funding', to: 'available', kind: 'deposit', amount: done.amount,
          externalRef: depositExternalRef(done), transactionId: ledgerTransactionId, at: now,
        });
        return posted === 'posted' ? ok(done) : err('ledger_refused', `deposit ${done.id} could not be posted: ${posted}`);
      });
      if (decided.ok && decided.value.status === 'held') deps.onHeld?.(decided.value, hits);
      if (decided.ok) (move === 'credit' ? credited : move === 'hold' ? held : dropped).push(decided.value);
      else if (decided.code === 'ledger_refused') deps.onLedgerRefused?.(deposit);
    }
    if (due.length < batch) break;
    const last = due[due.length - 1]!;
    after = { height: last.height!, id: last.id };
  }
  return { credited, dropped, held };
}
