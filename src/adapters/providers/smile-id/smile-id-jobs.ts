import { z } from 'zod';
import type { Customer } from '../../../core/customers/customer';
import type { SmileIdClient } from './smile-id-client';
import type { SmileIdConfig } from './smile-id-config';
import { signedNow, smileIdSignatureMatches } from './smile-id-signature';

/** Smile ID's job type for Enhanced KYC (the sandbox page's Enhanced KYC request sends `job_type: 5`). */
export const ENHANCED_KYC_JOB_TYPE = 5;

/** What submitting a job came to: accepted (2xx), refused by Smile ID (4xx, with its code when the body has one). */
export type SubmitResult =
  | { readonly kind: 'accepted' }
  | { readonly kind: 'refused'; readonly httpStatus: number; readonly code: string | null };

/** What a job status query came to: Smile ID does not know the job (4xx), has no final result yet, or its final result. */
export type JobStatus =
  | { readonly kind: 'unknown_job'; readonly httpStatus: number }
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'complete'; readonly resultCode: string; readonly rawAnswer: string };

const jobStatusAnswer = z.object({
  timestamp: z.string(),
  signature: z.string(),
  job_complete: z.boolean(),
  result: z.union([z.object({ ResultCode: z.string().regex(/^\d{4}$/) }).loose(), z.unknown()]).optional(),
});
const errorCode = z.object({ code: z.union([z.string(), z.number()]) }).loose();

/**
 * Enhanced KYC jobs and their status (docs/providers.md § Smile ID). Throws for what must be
 * retried later: a transport fault, a 5xx, or a job status answer that is not signed by Smile ID.
 */
export class SmileIdJobs {
  constructor(
    private readonly config: Pick<SmileIdConfig, 'partnerId' | 'apiKey' | 'callbackUrl'>,
    private readonly client: SmileIdClient,
    private readonly now: () => Date,
  ) {}

  /**
   * `POST /async_id_verification` (https://docs.usesmileid.com/products/for-individuals-kyc/identity-lookup):
   * the signed request with the customer's country, `id_type`, ID number, names and date of birth,
   * our callback URL, and `partner_params` naming the job (`job_id`, ours) and the customer (`user_id`).
   */
  async submit(customer: Customer, smileIdType: string, jobRef: string): Promise<SubmitResult> {
    const call = await this.client.post('/async_id_verification', {
      partner_id: this.config.partnerId,
      ...signedNow(this.config.apiKey, this.config.partnerId, this.now()),
      source_sdk: 'rest_api',
      source_sdk_version: '1.0.0',
      country: customer.country,
      id_type: smileIdType,
      id_number: customer.idNumber,
      first_name: customer.firstName,
      last_name: customer.lastName,
      dob: customer.dateOfBirth,
      callback_url: this.config.callbackUrl,
      partner_params: { job_id: jobRef, user_id: customer.id, job_type: ENHANCED_KYC_JOB_TYPE },
    });
    if (call.kind !== 'answer') throw new Error(`Smile ID submission ${call.kind}: ${call.reason}`);
    if (call.httpStatus >= 200 && call.httpStatus < 300) return { kind: 'accepted' };
    if (call.httpStatus >= 400 && call.httpStatus < 500) {
      const parsed = errorCode.safeParse(call.body);
      return { kind: 'refused', httpStatus: call.httpStatus, code: parsed.success ? String(parsed.data.code).slice(0, 10) : null };
    }
    throw new Error(`Smile ID submission answered HTTP ${call.httpStatus}`);
  }

  /**
   * `POST /job_status` (https://docs.usesmileid.com/further-reading/job-status): signed like every
   * request; the answer's `signature` over its `timestamp` is checked as the official SDKs do
   * before anything in it is believed. `job_complete` with a four-digit `result.ResultCode` is final.
   */
  async status(userId: string, jobRef: string): Promise<JobStatus> {
    const call = await this.client.post('/job_status', {
      partner_id: this.config.partnerId,
      ...signedNow(this.config.apiKey, this.config.partnerId, this.now()),
      user_id: userId,
      job_id: jobRef,
      image_links: false,
      history: false,
    });
    if (call.kind !== 'answer') throw new Error(`Smile ID job status ${call.kind}: ${call.reason}`);
    // Smile ID does not document its answer for a job it does not know; any 4xx is taken as that.
    if (call.httpStatus >= 400 && call.httpStatus < 500) return { kind: 'unknown_job', httpStatus: call.httpStatus };
    if (call.httpStatus < 200 || call.httpStatus >= 300) throw new Error(`Smile ID job status answered HTTP ${call.httpStatus}`);
    const answer = jobStatusAnswer.safeParse(call.body);
    if (!answer.success) throw new Error('Smile ID job status answer is not one we can read');
    if (!smileIdSignatureMatches(this.config.apiKey, this.config.partnerId, answer.data.timestamp, answer.data.signature)) {
      throw new Error('Smile ID job status answer is not signed with our API key');
    }
    const result = answer.data.result as { ResultCode?: unknown } | undefined;
    if (!answer.data.job_complete || typeof result?.ResultCode !== 'string' || !/^\d{4}$/.test(result.ResultCode)) return { kind: 'incomplete' };
    return { kind: 'complete', resultCode: result.ResultCode, rawAnswer: JSON.stringify(call.body) };
  }
}
