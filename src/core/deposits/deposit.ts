import type { Blockchain } from '../catalog/catalog';
import type { WebhookEventType } from '../events/outbox-event';
import type { Stablecoin } from '../shared/money';

/**
 * States of an onchain deposit (docs/decisions.md § Onchain deposits): `detected` when the watcher
 * first reads the transfer, `credited` once the chain made it final and the balance moved,
 * `dropped` when a reorganisation removed it before it was final (the balance never moved),
 * `held` when it is final but its sender is an OFAC-listed address (a compliance review decides;
 * not credited), `rejected` once the review rejected it (never credited: docs/decisions.md § Screening).
 */
export const DEPOSIT_STATUSES = ['detected', 'credited', 'dropped', 'held', 'rejected'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

/** Where a deposit came from: the chain watcher, or an operator's audited correction (POST /v1/admin/tenants/{id}/deposits). */
export const DEPOSIT_SOURCES = ['chain', 'operator'] as const;
export type DepositSource = (typeof DEPOSIT_SOURCES)[number];

/** Deposit event types, each a webhook (docs/decisions.md § Webhooks). */
export type DepositEventType = Extract<WebhookEventType, `deposit.${string}`>;

/**
 * The moves of a deposit, as data (docs/decisions.md § Onchain deposits): `credit` and `drop`
 * decide a detected deposit at finality; `reappear` brings a dropped deposit back when the chain
 * includes the same transfer again at another place (same key: transaction and index), since a
 * new row under that key could never be written; `hold` replaces `credit` for a final deposit from a
 * sanctioned sender and `reject` is the only decision on it. Each move's event is sent in its transaction.
 */
export const DEPOSIT_MOVES = {
  credit: { from: 'detected', to: 'credited', event: 'deposit.credited' },
  drop: { from: 'detected', to: 'dropped', event: 'deposit.dropped' },
  reappear: { from: 'dropped', to: 'detected', event: 'deposit.detected' },
  // At finality, instead of credit, when the sender is a listed address (docs/decisions.md § Screening: deposits).
  hold: { from: 'detected', to: 'held', event: 'deposit.held' },
  // An operator's compliance decision; the funds stay in our deposit address, uncredited.
  reject: { from: 'held', to: 'rejected', event: 'deposit.rejected' },
} as const satisfies Record<string, { from: DepositStatus; to: DepositStatus; event: DepositEventType }>;
export type DepositMove = keyof typeof DEPOSIT_MOVES;

/**
 * The status `move` leads to from `from`, or undefined when the move does not start there (it is
 * then ignored, never forced). Pure; the one place deposit states change (docs/decisions.md §
 * Onchain deposits).
 */
export function transition(from: DepositStatus, move: DepositMove): DepositStatus | undefined {
  const rule = DEPOSIT_MOVES[move];
  return rule.from === from ? rule.to : undefined;
}

/**
 * One deposit: a transfer of a watched stablecoin to a tenant's deposit address, or an operator's
 * correction. Unique per (blockchain, txHash, index) across all tenants: a rescan, a restart, two
 * watchers or a duplicate RPC answer meet the same row (docs/decisions.md § Onchain deposits).
 */
export interface Deposit {
  /** `dep_` + ULID. */
  readonly id: string;
  readonly tenantId: string;
  readonly blockchain: Blockchain;
  /** Canonical transaction hash (BSC) or signature (Solana), as `canonicalTxHash` gives it. */
  readonly txHash: string;
  /** Log index (BSC) or instruction position (Solana) in the transaction; 0 for a correction that names none. */
  readonly index: number;
  readonly currency: Stablecoin;
  /** What the ledger credits (or credited): a positive decimal string at scale 6 (docs/decisions.md § Onchain deposits: amounts). */
  readonly amount: string;
  /** Base units of the token below the ledger's 6 places, not credited (a non-negative integer as text); "0" for corrections. */
  readonly remainderUnits: string;
  /** Token contract (BSC, lower case) or mint (Solana); null for a correction. */
  readonly token: string | null;
  /** Sender as the chain reader names it; null for a correction. */
  readonly sender: string | null;
  /** Our deposit address the transfer paid (the owner address on Solana); null for a correction. */
  readonly address: string | null;
  /** Block (BSC) or slot (Solana) including it; null for a correction. */
  readonly height: bigint | null;
  /** Hash of that block (BSC) or the slot's blockhash (Solana); null for a correction. */
  readonly blockHash: string | null;
  readonly status: DepositStatus;
  readonly source: DepositSource;
  /** The ledger transaction that credited it (`ldg_…`); null unless credited. */
  readonly ledgerTransactionId: string | null;
  /** When it was first detected (a correction: when it was recorded). */
  readonly createdAt: Date;
  readonly creditedAt: Date | null;
  readonly droppedAt: Date | null;
}

/** A deposit as the API returns it (OpenAPI getDeposit; GraphQL `Deposit`). Times ISO 8601 UTC. */
export interface DepositView {
  id: string;
  blockchain: Blockchain;
  currency: Stablecoin;
  token: string | null;
  amount: string;
  remainderUnits: string;
  sender: string | null;
  depositAddress: string | null;
  txHash: string;
  index: number;
  /** Block or slot; null for a correction. */
  height: number | null;
  /** Blocks or slots from its own to the newest the watcher saw, its own counted (1 in the head); null when dropped or not from the chain. */
  confirmations: number | null;
  status: DepositStatus;
  source: DepositSource;
  ledgerTransactionId: string | null;
  createdAt: string;
  creditedAt: string | null;
  droppedAt: string | null;
}

/**
 * The API view of `deposit`, with its confirmations counted against `head` (the newest block or
 * slot the chain's watcher has seen; undefined when it has seen none). Pure.
 */
export function toDepositView(deposit: Deposit, head: bigint | undefined): DepositView {
  const confirmations = deposit.height === null || deposit.status === 'dropped' || head === undefined
    ? null
    : Number(head >= deposit.height ? head - deposit.height + 1n : 0n);
  return {
    id: deposit.id,
    blockchain: deposit.blockchain,
    currency: deposit.currency,
    token: deposit.token,
    amount: deposit.amount,
    remainderUnits: deposit.remainderUnits,
    sender: deposit.sender,
    depositAddress: deposit.address,
    txHash: deposit.txHash,
    index: deposit.index,
    height: deposit.height === null ? null : Number(deposit.height),
    confirmations,
    status: deposit.status,
    source: deposit.source,
    ledgerTransactionId: deposit.ledgerTransactionId,
    createdAt: deposit.createdAt.toISOString(),
    creditedAt: deposit.creditedAt?.toISOString() ?? null,
    droppedAt: deposit.droppedAt?.toISOString() ?? null,
  };
}

/**
 * The ledger transaction's external reference of a deposit, unique per tenant
 * (docs/decisions.md § Ledger): `<blockchain>:<hash>` for index 0, the form corrections always
 * had, else `<blockchain>:<hash>:<index>`. Pure.
 */
export function depositExternalRef(deposit: Pick<Deposit, 'blockchain' | 'txHash' | 'index'>): string {
  return deposit.index === 0 ? `${deposit.blockchain}:${deposit.txHash}` : `${deposit.blockchain}:${deposit.txHash}:${deposit.index}`;
}

/** Why a transfer to a deposit address was not made a deposit (docs/decisions.md § Onchain deposits). */
export const FINDING_KINDS = ['foreign_token', 'dust', 'oversized'] as const;
export type DepositFindingKind = (typeof FINDING_KINDS)[number];

/**
 * A transfer to one of our deposit addresses that is never credited, kept for operators: a token
 * we do not watch (`foreign_token`), an amount below the ledger's 6 places (`dust`), or one at or
 * above the largest amount the service takes (`oversized`). Unique per (blockchain, txHash, index).
 */
export interface DepositFinding {
  readonly id: string;
  readonly kind: DepositFindingKind;
  readonly tenantId: string;
  readonly blockchain: Blockchain;
  readonly txHash: string;
  readonly index: number;
  readonly token: string;
  readonly sender: string;
  readonly address: string;
  /** Base units as the chain gave them (a non-negative integer as text) and the decimals the reader reported. */
  readonly units: string;
  readonly decimals: number;
  readonly height: bigint;
  readonly blockHash: string;
  readonly createdAt: Date;
}

/** A finding as operators read it (GET /v1/admin/deposit-findings). */
export interface DepositFindingView {
  id: string;
  kind: DepositFindingKind;
  tenantId: string;
  blockchain: Blockchain;
  txHash: string;
  index: number;
  token: string;
  sender: string;
  depositAddress: string;
  units: string;
  decimals: number;
  height: number;
  createdAt: string;
}

/** The operator view of `finding`. Pure. */
export function toFindingView(finding: DepositFinding): DepositFindingView {
  return {
    id: finding.id, kind: finding.kind, tenantId: finding.tenantId, blockchain: finding.blockchain, txHash: finding.txHash,
    index: finding.index, token: finding.token, sender: finding.sender, depositAddress: finding.address, units: finding.units,
    decimals: finding.decimals, height: Number(finding.height), createdAt: finding.createdAt.toISOString(),
  };
}
