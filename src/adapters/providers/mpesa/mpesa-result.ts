import { z } from 'zod';

/** A code or value Daraja sends sometimes as a number, sometimes as a string: read as a string. */
const scalar = z.union([z.string(), z.number()]).transform(String);
const keyValue = z.object({ Key: z.string(), Value: scalar.optional() });
/** Daraja sends one entry as an object and several as an array (B2B failure sample): read both. */
const oneOrMany = z.union([z.array(keyValue), keyValue]).transform((v) => (Array.isArray(v) ? v : [v]));

/**
 * The result message Daraja POSTs to a ResultURL, for B2C (https://developer.safaricom.co.ke/apis/BusinessToCustomer),
 * B2B (…/BusinessPayBill, …/BusinessBuyGoods) and Transaction Status (…/TransactionStatus):
 * `{ Result: { ResultType, ResultCode, ResultDesc, OriginatorConversationID, ConversationID,
 * TransactionID, ResultParameters: { ResultParameter }, ReferenceData } }`. Unknown keys are ignored.
 */
export const darajaResultSchema = z.object({
  Result: z.object({
    ResultType: scalar.optional(),
    ResultCode: scalar,
    ResultDesc: z.string().optional(),
    OriginatorConversationID: z.string().min(1),
    ConversationID: z.string().min(1),
    TransactionID: z.string().optional(),
    ResultParameters: z.object({ ResultParameter: oneOrMany.optional() }).optional(),
  }),
});

/** One parsed Daraja result (see darajaResultSchema). */
export type DarajaResult = z.infer<typeof darajaResultSchema>['Result'];

/** The first value of `key` among the result's parameters (keys may repeat; values may be absent). */
export function resultParameter(result: DarajaResult, key: string): string | undefined {
  return result.ResultParameters?.ResultParameter?.find((p) => p.Key === key && p.Value !== undefined)?.Value;
}

/**
 * Result codes of a payment result (B2C "Result Codes" table; B2B pages give no table of their own,
 * so the same is assumed). 0 is success and, per Daraja, "any other code means failure", except
 * 15, "Duplicate Detected" (Account Balance page's error table,
 * https://developer.safaricom.co.ke/apis/AccountBalance): that result is about a repeated request
 * with an OriginatorConversationID already seen, not about the original payment, so it must never
 * fail the payment (docs/decisions.md § Payments: states and events).
 */
export const RESULT_SUCCESS = '0';
export const RESULT_DUPLICATE_DETECTED = '15';

/** Descriptions of the documented B2C result codes, for failure reasons (never personal data). */
export const RESULT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  1: 'The balance is insufficient for the transaction',
  2: 'Declined due to limit rule: less than the minimum transaction amount',
  3: 'Declined due to limit rule: greater than the maximum transaction amount',
  4: 'Declined due to limit rule: would exceed daily transfer limit',
  8: 'Declined due to limit rule: would exceed the maximum balance',
  11: 'The DebitParty is in an invalid state',
  21: 'The initiator is not allowed to initiate this request',
  2001: 'The initiator information is invalid',
  2006: 'Declined due to account rule: the account status does not allow this transaction',
  2028: 'The request is not permitted according to product assignment',
  2040: 'Credit Party customer type can\'t be supported by the service',
  8006: 'The security credential is locked',
  SFC_IC0003: 'The operator does not exist',
};

/**
 * The other result codes Daraja documents, in the error table of
 * https://developer.safaricom.co.ke/apis/AccountBalance (message type ApiResult): 17 internal
 * failure, 18 initiator credential check failure, 19 message sequencing failure, 20 unresolved
 * initiator, 22 initiator not active (21, a permission failure, is in the B2C table too). Each
 * fails the request it answers.
 */
export const API_RESULT_FAILURES: Readonly<Record<string, string>> = {
  17: 'Internal failure',
  18: 'Initiator credential check failure',
  19: 'Message sequencing failure',
  20: 'Unresolved initiator',
  22: 'The initiator is not currently active',
};

/** Whether Daraja documents `code` as a failure of the request it answers (B2C table or ApiResult table). */
export function isDocumentedFailure(code: string): boolean {
  return code !== RESULT_SUCCESS && code !== RESULT_DUPLICATE_DETECTED
    && (Object.hasOwn(RESULT_DESCRIPTIONS, code) || Object.hasOwn(API_RESULT_FAILURES, code));
}

/**
 * The `TransactionStatus` words of a Transaction Status result, from the Transaction Status FAQ
 * (https://developer.safaricom.co.ke/apis/TransactionStatus, "What are the different transaction
 * statuses?"): "Initiated - pending revalidation", "Authorized/Pending Authorized", and the final
 * statuses "Cancelled, Declined, Completed or Expired". Matched exactly, ignoring case. Only
 * `Completed` appears in a Daraja sample. A word not listed is not mapped: the payment waits and
 * an operator is shown it.
 */
export const STATUS_COMPLETED = 'completed';
export const STATUS_FAILED = new Set(['cancelled', 'declined', 'expired']);
export const STATUS_IN_PROGRESS = new Set(['initiated', 'authorized', 'pending authorized']);
