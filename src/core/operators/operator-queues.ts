import type { Clock } from '../shared/clock';

/**
 * The queues that need a person, counted for the console's front page (docs/decisions.md §
 * Operators: the console). Counts are whole numbers of rows now.
 */
export interface QueueCounts {
  /** Onchain refunds owed and not sent yet. */
  readonly refundsPending: number;
  /** Onchain refunds that failed: an operator retries or records them. */
  readonly refundsFailed: number;
  /** Reconciliation mismatches on payments still open (initiated or provider_accepted). */
  readonly reconciliationFindings: number;
  /** Transfers to deposit addresses never credited (another token, dust, oversized); kept, never resolved. */
  readonly depositFindings: number;
  /** Payments held by sanctions screening, waiting for a decision. */
  readonly complianceReviewsPending: number;
  /** Payments at provider_accepted for longer than `stuckAfterMinutes`. */
  readonly stuckPayments: number;
  /** The threshold `stuckPayments` used, minutes. */
  readonly stuckAfterMinutes: number;
}

/** Port: the counts, in one read; `stuckBefore` is the acceptance time older than which a payment is stuck. */
export interface QueueCountReader {
  counts(stuckBefore: Date): Promise<Omit<QueueCounts, 'stuckAfterMinutes'>>;
}

/** Every queue's count now; a payment accepted more than `stuckAfterMinutes` ago and still not final is stuck. */
export async function queueCounts(deps: { readonly reader: QueueCountReader; readonly clock: Clock }, stuckAfterMinutes: number): Promise<QueueCounts> {
  const stuckBefore = new Date(deps.clock.now().getTime() - stuckAfterMinutes * 60_000);
  return { ...(await deps.reader.counts(stuckBefore)), stuckAfterMinutes };
}
