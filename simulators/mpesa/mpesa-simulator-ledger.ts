import { randomBytes, randomInt } from 'node:crypto';

/**
 * Fault modes of the M-Pesa simulator, chosen by the last two digits of PartyB (the M-Pesa number,
 * PayBill or till) or queued with `POST /__simulator/faults {"next": [...]}`:
 * `fail` (…11: result 2040 for B2C, 1 for B2B), `fail_unknown_operator` (…12: SFC_IC0003),
 * `delay` (…21: result after `callbackDelayMs`), `duplicate` (…22: result posted twice),
 * `missing` (…23: no result posted; Transaction Status still knows it), `error_5xx` (…31: 500
 * 500.003.1001, nothing recorded), `throttle` (…32: 500 500.003.02, nothing recorded), `hang` (…41:
 * recorded, response held until close), `reset` (…42: recorded, connection destroyed),
 * `queue_timeout` (…51: recorded as Expired, QueueTimeOutURL notified instead of ResultURL),
 * `unknown_result` (…13: result code 9999, documented nowhere, though Transaction Status says
 * Completed), `unknown_status_word` (…14: no result posted; Transaction Status reports the
 * undocumented word `OnHold`),
 * `ack_cached` (…33: HTTP 200 with ResponseCode 100000000 "Request was cached, waiting for
 * resending"; recorded, its result posted after `delayedCallbackMs`), `ack_refused` (…34: HTTP 200
 * with ResponseCode 100000005 "Invalid input value", nothing recorded). Any other ResponseCode is
 * queued with `POST /__simulator/faults {"responseCodes": [...]}`.
 * There is no reversal mode: Daraja reverses B2C payments only by hand in its portal.
 */
export const FAULT_MODES = [
  'none', 'fail', 'fail_unknown_operator', 'delay', 'duplicate', 'missing', 'error_5xx', 'throttle', 'hang', 'reset', 'queue_timeout',
  'ack_cached', 'ack_refused', 'unknown_result', 'unknown_status_word',
] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

const BY_DIGITS: Readonly<Record<string, FaultMode>> = {
  11: 'fail', 12: 'fail_unknown_operator', 13: 'unknown_result', 14: 'unknown_status_word', 21: 'delay', 22: 'duplicate', 23: 'missing',
  31: 'error_5xx', 32: 'throttle', 33: 'ack_cached', 34: 'ack_refused', 41: 'hang', 42: 'reset', 51: 'queue_timeout',
};

/** The ResponseCode a fault mode answers instead of 0, if any. */
export const FAULT_RESPONSE_CODES: Partial<Record<FaultMode, string>> = { ack_cached: '100000000', ack_refused: '100000005' };

/** ResponseCode "Request was cached, waiting for resending": the simulator records the request and processes it later. */
export const RESPONSE_CACHED = '100000000';

/**
 * Non-zero ResponseCodes of Daraja's synchronous answer and their descriptions: the error table of
 * https://developer.safaricom.co.ke/apis/AccountBalance (message type ApiResponse, and 17, which
 * "can occur in either the ApiResponse or ApiResult"). A code not listed is answered with a
 * description of the simulator's own.
 */
export const RESPONSE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  17: 'Internal Failure',
  24: 'Missing mandatory fields',
  25: 'InvalidRequestParameters',
  26: 'Traffic blocking condition in place',
  29: 'InvalidCommand',
  100000000: 'Request was cached, waiting for resending',
  100000001: 'The system is overload',
  100000002: 'Throttling error',
  100000004: 'Internal Server Error',
  100000005: 'Invalid input value:Amount',
  100000007: 'Service\'s status is abnormal.',
  100000009: 'API\'s status is abnormal',
  100000010: 'Insufficient permissions',
  100000011: 'Exceed the limitation of request rate',
};

/** The fault a request's PartyB selects by its last two digits. */
export function faultOfParty(partyB: string): FaultMode {
  return BY_DIGITS[partyB.slice(-2)] ?? 'none';
}

/** One disbursement the simulator holds (what `GET /__simulator/transfers` lists). */
export interface SimTransfer {
  readonly originatorConversationId: string;
  readonly conversationId: string;
  readonly api: 'b2c' | 'b2b';
  readonly commandId: string;
  readonly partyA: string;
  readonly partyB: string;
  readonly accountReference?: string;
  /** Whole KES, as sent. */
  readonly amount: string;
  readonly receipt: string;
  readonly resultCode: string;
  readonly resultDesc: string;
  /** The TransactionStatus word a Transaction Status query reports (`OnHold`: not a word Daraja documents). */
  readonly transactionStatus: 'Completed' | 'Declined' | 'Expired' | 'OnHold';
  readonly fault: FaultMode;
  readonly resultUrl: string;
  readonly queueTimeOutUrl: string;
  readonly createdAt: string;
}

/** Daraja-style ids: ConversationID `AG_<date>_<hex>`, receipt of 10 capitals and digits, B2B OriginatorConversationID `n-n-1`. */
export function conversationId(): string {
  return `AG_${new Date().toISOString().slice(0, 10).replace(/-/g, '')}_${randomBytes(10).toString('hex')}`;
}
export function receipt(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return `S${Array.from({ length: 9 }, () => alphabet[randomInt(alphabet.length)]).join('')}`;
}
export function darajaOriginatorId(): string {
  return `${randomInt(1000, 9999)}-${randomInt(100_000_000, 999_999_999)}-1`;
}

/** The outcome a transfer gets from its fault and whether its initiator was authenticated. */
export function outcomeOf(api: 'b2c' | 'b2b', fault: FaultMode, initiatorOk: boolean): Pick<SimTransfer, 'resultCode' | 'resultDesc' | 'transactionStatus'> {
  if (!initiatorOk) return { resultCode: '2001', resultDesc: 'The initiator information is invalid.', transactionStatus: 'Declined' };
  if (fault === 'fail') {
    return api === 'b2c'
      ? { resultCode: '2040', resultDesc: 'Credit Party customer type (Unregistered or Registered Customer) can\'t be supported by the service.', transactionStatus: 'Declined' }
      : { resultCode: '1', resultDesc: 'The balance is insufficient for the transaction.', transactionStatus: 'Declined' };
  }
  if (fault === 'fail_unknown_operator') return { resultCode: 'SFC_IC0003', resultDesc: 'The operator does not exist.', transactionStatus: 'Declined' };
  if (fault === 'queue_timeout') return { resultCode: '', resultDesc: 'Queue timeout', transactionStatus: 'Expired' };
  if (fault === 'unknown_result') return { resultCode: '9999', resultDesc: 'Undocumented result (simulator).', transactionStatus: 'Completed' };
  if (fault === 'unknown_status_word') return { resultCode: '0', resultDesc: 'The service request is processed successfully.', transactionStatus: 'OnHold' };
  return { resultCode: '0', resultDesc: 'The service request is processed successfully.', transactionStatus: 'Completed' };
}

/** The result message POSTed to a payment's ResultURL, shaped as Daraja's B2C and B2B samples. */
export function paymentResultBody(t: SimTransfer): object {
  const success = t.resultCode === '0';
  const parameters = t.api === 'b2c'
    ? [
        { Key: 'TransactionAmount', Value: Number(t.amount) },
        { Key: 'TransactionReceipt', Value: t.receipt },
        { Key: 'ReceiverPartyPublicName', Value: `${t.partyB} - SIMULATED RECIPIENT` },
        { Key: 'TransactionCompletedDateTime', Value: '01.01.2026 00:00:00' },
        { Key: 'B2CRecipientIsRegisteredCustomer', Value: 'Y' },
      ]
    : [{ Key: 'Amount', Value: `${t.amount}.00` }, { Key: 'Currency', Value: 'KES' }, { Key: 'TransCompletedTime', Value: '20260101000000' }];
  return {
    Result: {
      ResultType: 0, ResultCode: /^\d+$/.test(t.resultCode) ? Number(t.resultCode) : t.resultCode, ResultDesc: t.resultDesc,
      OriginatorConversationID: t.originatorConversationId, ConversationID: t.conversationId,
      // "A generic value is passed for certain failure scenarios" (B2B page).
      TransactionID: success ? t.receipt : 'OAK0000000',
      // One object, not an array, on failure: as Daraja's B2B failure sample.
      ResultParameters: { ResultParameter: success ? parameters : { Key: 'BOCompletedTime', Value: 20260101000000 } },
      ReferenceData: { ReferenceItem: { Key: 'QueueTimeoutURL', Value: t.queueTimeOutUrl } },
    },
  };
}

/**
 * The result of a Transaction Status query, shaped as Daraja's sample: the query's own ids at the
 * top, the queried transaction in ResultParameter. Daraja documents no answer for an id it does not
 * know; the simulator answers a ResultCode of its own, `SIM_NO_SUCH_TRANSACTION`.
 */
export function statusResultBody(query: { ocid: string; conversationId: string }, t: SimTransfer | undefined): object {
  const head = { ResultType: 0, OriginatorConversationID: query.ocid, ConversationID: query.conversationId, TransactionID: 'OAK0000000' };
  if (!t) return { Result: { ...head, ResultCode: 'SIM_NO_SUCH_TRANSACTION', ResultDesc: 'No transaction has this id (simulator).' } };
  return {
    Result: {
      ...head, ResultCode: 0, ResultDesc: 'The service request is processed successfully.',
      ResultParameters: {
        ResultParameter: [
          { Key: 'DebitPartyName', Value: `${t.partyA} - Simulated Org` },
          { Key: 'OriginatorConversationID', Value: t.originatorConversationId },
          { Key: 'TransactionReason' },
          { Key: 'TransactionStatus', Value: t.transactionStatus },
          { Key: 'Amount', Value: t.amount },
          { Key: 'ConversationID', Value: t.conversationId },
          { Key: 'ReceiptNo', Value: t.receipt },
        ],
      },
      ReferenceData: { ReferenceItem: { Key: 'Occasion' } },
    },
  };
}
