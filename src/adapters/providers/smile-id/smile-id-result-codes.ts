/**
 * What a Smile ID result code means for our KYC decision (docs/providers.md § Smile ID, "Result
 * codes"; source: https://docs.usesmileid.com/further-reading/result-codes and the sandbox test
 * data, https://docs.usesmileid.com/supported-id-types/for-individuals-kyc/backed-by-id-authority/test-data):
 * - `approved` / `rejected`: decided;
 * - `authority_unavailable`: the ID authority could not be asked; a new job is submitted after a
 *   backoff, and after the last attempt the customer is left pending with the reason;
 * - `held`: neither a decision nor worth resubmitting (our account lacks the product, an unknown
 *   error): the customer stays pending with the reason, for an operator.
 */
export type SmileIdDecision = 'approved' | 'rejected' | 'authority_unavailable' | 'held';

/** One row of the table: the decision and the reason shown as the customer's `kycReason` (none for approved). */
export interface SmileIdCodeMeaning {
  readonly decision: SmileIdDecision;
  /** Smile ID's result text, as its result-code page names it. */
  readonly smileIdText: string;
  readonly reason: string | null;
}

/**
 * The Enhanced KYC result codes Smile ID documents. 1014 ("Unsupported ID number format") is an
 * error to Smile ID, but the same number will never verify: it is a rejection that says to correct
 * the number. 1020 and 1021 are approved and 1022/1023 rejected as Smile ID categorises them.
 */
export const SMILE_ID_RESULT_CODES: Readonly<Record<string, SmileIdCodeMeaning>> = {
  1012: { decision: 'approved', smileIdText: 'Valid ID', reason: null },
  1020: { decision: 'approved', smileIdText: 'Exact Match', reason: null },
  1021: { decision: 'approved', smileIdText: 'Partial Match', reason: null },
  1013: { decision: 'rejected', smileIdText: 'Unable to Validate ID', reason: 'The ID number was not found at the ID authority' },
  1022: { decision: 'rejected', smileIdText: 'No Match', reason: 'The details given do not match the ID authority\'s record' },
  1023: { decision: 'rejected', smileIdText: 'Not Found', reason: 'No matching record was found at the ID authority' },
  1014: { decision: 'rejected', smileIdText: 'Unsupported ID number format', reason: 'The ID number is not in a valid format for this ID type' },
  1015: { decision: 'authority_unavailable', smileIdText: 'Queried Database Unavailable', reason: 'The ID authority is unavailable' },
  1016: { decision: 'held', smileIdText: 'Need to Activate Product', reason: 'Identity checks for this ID type are not enabled yet; an operator has been told' },
  '0001': { decision: 'held', smileIdText: 'Data Invalid (unknown error)', reason: 'The identity check failed at the provider; an operator has been told' },
};

/** The meaning of `code`; a code the table does not list is held (never approved by default). */
export function meaningOfResultCode(code: string): SmileIdCodeMeaning {
  // Own keys only: `constructor` and the like are not result codes.
  const known = Object.hasOwn(SMILE_ID_RESULT_CODES, code) ? SMILE_ID_RESULT_CODES[code] : undefined;
  return known ?? {
    decision: 'held', smileIdText: 'not in our table', reason: `The identity check ended with a result we do not map (${code.slice(0, 10)}); an operator has been told`,
  };
}
