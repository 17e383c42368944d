import type { Customer, KycOutcome, KycProvider } from '../../../core/customers/customer';
import type { KycCheck, KycCheckStore } from '../../../core/customers/kyc-check';
import type { SmileIdConfig } from './smile-id-config';
import { idTypesIn, smileIdTypeFor } from './smile-id-id-types';
import type { SmileIdJobs } from './smile-id-jobs';
import { meaningOfResultCode } from './smile-id-result-codes';

/** The provider name in `kyc_checks` and `provider_events`. */
export const SMILE_ID = 'smile_id';

/** Our job reference for a customer's attempt: unique per attempt, so a retry is a new Smile ID job. */
export function jobRefOf(customerId: string, attempt: number): string {
  return `${customerId}-${attempt}`;
}

/**
 * Live KYC through Smile ID Enhanced KYC (docs/providers.md § Smile ID), one step per call of the
 * KYC worker:
 * - no attempt yet: writes attempt 1 (`submitting`), submits the job, marks it `submitted`; pending;
 * - an attempt in flight: asks Smile ID its job status (a callback only makes this happen sooner).
 *   A final answer is stored sealed and decides through the result-code table; no final answer yet
 *   waits `pollMs`. A `submitting` attempt Smile ID does not know (the request never arrived) is
 *   sent again under the same job reference;
 * - "ID authority unavailable" (1015): a new job after `authorityRetryMs`, doubling, up to
 *   `authorityAttempts` jobs; then pending with the reason, and one more job every `heldRecheckMs`;
 * - a result the table holds, or a submission Smile ID refuses (4xx): pending with the reason,
 *   looked at again after `heldRecheckMs`.
 * An ID type Smile ID cannot check in the customer's country is rejected with the accepted types.
 * Throws (the worker retries soon) on a transport fault or 5xx.
 */
export class SmileIdKycProvider implements KycProvider {
  constructor(
    private readonly config: Pick<SmileIdConfig, 'pollMs' | 'authorityAttempts' | 'authorityRetryMs' | 'heldRecheckMs'>,
    private readonly jobs: SmileIdJobs,
    private readonly checks: KycCheckStore,
    private readonly now: () => Date,
  ) {}

  async check(customer: Customer): Promise<KycOutcome> {
    const smileIdType = smileIdTypeFor(customer.country, customer.idType);
    if (!smileIdType) {
      const accepted = idTypesIn(customer.country);
      return {
        kind: 'rejected',
        reason: `${customer.idType} cannot be verified in ${customer.country}${accepted.length > 0 ? `; accepted: ${accepted.join(', ')}` : ''}`,
      };
    }
    const latest = await this.checks.latest(customer.id, SMILE_ID);
    if (!latest) return this.submit(customer, smileIdType, 1);
    if (latest.state === 'completed') return this.afterResult(customer, smileIdType, latest);
    const status = await this.jobs.status(customer.id, latest.jobRef);
    if (status.kind === 'unknown_job') {
      // Only an attempt whose submission may not have arrived is sent again; an accepted one Smile ID forgot is for an operator.
      if (latest.state === 'submitting') return this.send(customer, smileIdType, latest);
      throw new Error(`Smile ID does not know accepted job ${latest.jobRef} (HTTP ${status.httpStatus})`);
    }
    if (status.kind === 'incomplete') return { kind: 'pending', afterMs: this.config.pollMs };
    const at = this.now();
    await this.checks.complete(customer.id, SMILE_ID, latest.attempt, status.resultCode, status.rawAnswer, at);
    return this.afterResult(customer, smileIdType, { ...latest, state: 'completed', resultCode: status.resultCode, completedAt: at });
  }

  /** The outcome of a completed attempt: its decision, or the wait before (or the start of) the next attempt. */
  private async afterResult(customer: Customer, smileIdType: string, check: KycCheck): Promise<KycOutcome> {
    const meaning = meaningOfResultCode(check.resultCode ?? '');
    if (meaning.decision === 'approved') return { kind: 'approved' };
    if (meaning.decision === 'rejected') return { kind: 'rejected', reason: meaning.reason ?? 'Identity could not be verified' };
    if (meaning.decision === 'held') return { kind: 'pending', afterMs: this.config.heldRecheckMs, reason: meaning.reason ?? 'Held for review' };
    const exhausted = check.attempt >= this.config.authorityAttempts;
    const wait = exhausted ? this.config.heldRecheckMs : this.config.authorityRetryMs * 2 ** (check.attempt - 1);
    const reason = exhausted ? `The ID authority was unavailable (${check.attempt} attempt${check.attempt === 1 ? '' : 's'}); trying again later` : undefined;
    const remaining = (check.completedAt ?? check.submittedAt).getTime() + wait - this.now().getTime();
    if (remaining > 0) return { kind: 'pending', afterMs: remaining, ...(reason ? { reason } : {}) };
    return this.submit(customer, smileIdType, check.attempt + 1);
  }

  /** Begins attempt `attempt` (written before anything is sent) and sends it. */
  private async submit(customer: Customer, smileIdType: string, attempt: number): Promise<KycOutcome> {
    const check: KycCheck = {
      customerId: customer.id, provider: SMILE_ID, attempt, jobRef: jobRefOf(customer.id, attempt), state: 'submitting',
      resultCode: null, rawAnswer: null, submittedAt: this.now(), completedAt: null,
    };
    // Another process began this attempt: it submits; we look again later.
    if ((await this.checks.begin(check)) === 'duplicate') return { kind: 'pending', afterMs: this.config.pollMs };
    return this.send(customer, smileIdType, check);
  }

  private async send(customer: Customer, smileIdType: string, check: KycCheck): Promise<KycOutcome> {
    const sent = await this.jobs.submit(customer, smileIdType, check.jobRef);
    if (sent.kind === 'refused') {
      return {
        kind: 'pending', afterMs: this.config.heldRecheckMs,
        reason: `The identity provider refused the check (HTTP ${sent.httpStatus}${sent.code ? `, code ${sent.code}` : ''}); an operator has been told`,
      };
    }
    await this.checks.markSubmitted(customer.id, SMILE_ID, check.attempt);
    return { kind: 'pending', afterMs: this.config.pollMs };
  }
}
