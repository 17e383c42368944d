/**
 * One submission of a customer to a live KYC provider (docs/providers.md § Smile ID): the job
 * reference we gave it, whether it was accepted, and once the provider finished, its result code
 * and raw answer (kept for audit, sealed at rest: it carries the ID authority's personal data).
 * `attempt` counts from 1; a new attempt is a new job (e.g. after "ID authority unavailable").
 * `state`: `submitting` (written before the request, so an interrupted submission is looked up
 * before anything is sent again), `submitted` (the provider accepted it), `completed` (its final
 * answer is stored).
 */
export interface KycCheck {
  readonly customerId: string;
  /** The provider's name, e.g. `smile_id`. */
  readonly provider: string;
  readonly attempt: number;
  /** Our job reference at the provider (unique per customer and attempt). */
  readonly jobRef: string;
  readonly state: 'submitting' | 'submitted' | 'completed';
  /** The provider's result code once completed, else null. */
  readonly resultCode: string | null;
  /** The provider's final answer as received (JSON text), else null. */
  readonly rawAnswer: string | null;
  readonly submittedAt: Date;
  readonly completedAt: Date | null;
}

/**
 * Port: the KYC checks table. `begin` inserts attempt `attempt` unless one exists (the table's
 * unique key on customer, provider and attempt decides: `duplicate` means another process began it).
 */
export interface KycCheckStore {
  /** The customer's newest attempt with `provider`, or undefined. */
  latest(customerId: string, provider: string): Promise<KycCheck | undefined>;
  begin(check: KycCheck): Promise<'inserted' | 'duplicate'>;
  markSubmitted(customerId: string, provider: string, attempt: number): Promise<void>;
  complete(customerId: string, provider: string, attempt: number, resultCode: string, rawAnswer: string, at: Date): Promise<void>;
}
