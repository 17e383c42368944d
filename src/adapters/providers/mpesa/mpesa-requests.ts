import { Decimal } from 'decimal.js';
import type { Payment } from '../../../core/payments/payment';
import { mpesaCallbackUrl } from './mpesa-callbacks';
import type { MpesaConfig } from './mpesa-config';

/** Daraja paths (https://developer.safaricom.co.ke/apis/BusinessToCustomer, …/BusinessPayBill, …/TransactionStatus). */
export const B2C_PATH = '/mpesa/b2c/v3/paymentrequest';
export const B2B_PATH = '/mpesa/b2b/v1/paymentrequest';
export const STATUS_PATH = '/mpesa/transactionstatus/v1/query';

/** B2C limits per transaction, in KES (B2C FAQ: minimum 10, maximum 250,000). */
const B2C_MIN = new Decimal(10);
const B2C_MAX = new Decimal(250_000);
const KENYAN_MSISDN = /^254\d{9}$/;
const SHORTCODE = /^\d{5,7}$/;
/** B2B AccountReference: "Up to 13 characters". */
const ACCOUNT_REFERENCE_MAX = 13;

/** Settings a request needs: the config and the SecurityCredential computed from it once. */
export type RequestSettings = Pick<
  MpesaConfig,
  'shortcode' | 'b2bShortcode' | 'initiatorName' | 'b2cCommandId' | 'callbackBaseUrl' | 'callbackPathSecret'
> & { readonly securityCredential: string };

/** A Daraja request for one payment, or why M-Pesa cannot carry it. */
export type PayoutRequest =
  | { readonly ok: true; readonly api: 'b2c' | 'b2b'; readonly path: string; readonly body: Record<string, string> }
  | { readonly ok: false; readonly reason: string };

/**
 * Our B2C OriginatorConversationID: the payment id itself, so a repeated submit of a payment is the
 * same request to Daraja, which refuses an OriginatorConversationID it has seen ("to avoid double
 * disbursement", B2C page). B2B requests have no such field; Daraja assigns one.
 */
export function originatorConversationIdOf(payment: Pick<Payment, 'id'>): string {
  return payment.id;
}

/** True when M-Pesa pays this payment by B2C (MOMO to an M-Pesa number); PAYBILL and TILL go by B2B. */
export function isB2c(payment: Pick<Payment, 'paymentMethod'>): boolean {
  return payment.paymentMethod === 'MOMO';
}

/**
 * Maps a payment to its Daraja request (B2C for MOMO with paymentCode MPESA; B2B BusinessPayBill
 * for PAYBILL, BusinessBuyGoods for TILL), or refuses it with a reason when M-Pesa cannot carry it:
 * not KES in KE, another operator, a malformed number, an amount with cents (Daraja's samples and
 * tables show whole shillings only and document no decimals: refused rather than rounded,
 * docs/decisions.md § Money), or outside the B2C limits.
 */
export function payoutRequestOf(payment: Payment, settings: RequestSettings): PayoutRequest {
  if (payment.country !== 'KE' || payment.destinationCurrency !== 'KES') return refuse('M-Pesa pays out only KES in KE');
  const amount = new Decimal(payment.fiatAmount);
  if (!amount.isInteger()) return refuse(`M-Pesa carries whole shillings only; ${payment.fiatAmount} KES has cents`);
  const common = {
    SecurityCredential: settings.securityCredential,
    Amount: amount.toFixed(0),
    Remarks: `Payout ${payment.id}`,
    QueueTimeOutURL: mpesaCallbackUrl(settings, 'timeout', payment.id),
    ResultURL: mpesaCallbackUrl(settings, 'result', payment.id),
  };
  switch (payment.paymentMethod) {
    case 'MOMO': {
      if (payment.paymentCode !== 'MPESA') return refuse(`M-Pesa does not pay ${payment.paymentCode} wallets`);
      const msisdn = payment.accountNumber.replace(/^\+/, '');
      if (!KENYAN_MSISDN.test(msisdn)) return refuse('accountNumber is not a Kenyan M-Pesa number (254 and 9 digits)');
      if (amount.lt(B2C_MIN) || amount.gt(B2C_MAX)) return refuse('M-Pesa B2C carries 10 to 250,000 KES per payment');
      return {
        ok: true, api: 'b2c', path: B2C_PATH, body: {
          OriginatorConversationID: originatorConversationIdOf(payment), InitiatorName: settings.initiatorName,
          CommandID: settings.b2cCommandId, PartyA: settings.shortcode, PartyB: msisdn, ...common,
        },
      };
    }
    case 'PAYBILL': {
      const paybill = payment.businessNumber ?? '';
      if (!SHORTCODE.test(paybill)) return refuse('businessNumber is not an M-Pesa PayBill number');
      if (payment.accountNumber.length > ACCOUNT_REFERENCE_MAX) return refuse(`M-Pesa PayBill account references have at most ${ACCOUNT_REFERENCE_MAX} characters`);
      return b2b(settings, 'BusinessPayBill', paybill, payment.accountNumber, common);
    }
    case 'TILL': {
      if (!SHORTCODE.test(payment.accountNumber)) return refuse('accountNumber is not an M-Pesa till number');
      // BusinessBuyGoods lists AccountReference without marking it optional and a till has no account:
      // send the end of our payment id (13 characters), which shows on M-Pesa statements.
      return b2b(settings, 'BusinessBuyGoods', payment.accountNumber, payment.id.slice(-ACCOUNT_REFERENCE_MAX), common);
    }
    default:
      return refuse(`M-Pesa does not pay ${payment.paymentMethod} payouts`);
  }
}

/**
 * The Transaction Status query of a payment (https://developer.safaricom.co.ke/apis/TransactionStatus)
 * by OriginalConversationID; its result comes to the payment's `status` callback. TransactionID is
 * left out: the FAQ asks for "TransactionID or OriginalConversationID".
 */
export function statusQueryOf(payment: Payment, originatorConversationId: string, settings: RequestSettings): Record<string, string> {
  return {
    Initiator: settings.initiatorName,
    SecurityCredential: settings.securityCredential,
    CommandID: 'TransactionStatusQuery',
    OriginalConversationID: originatorConversationId,
    PartyA: isB2c(payment) ? settings.shortcode : settings.b2bShortcode,
    IdentifierType: '4',
    ResultURL: mpesaCallbackUrl(settings, 'status', payment.id),
    QueueTimeOutURL: mpesaCallbackUrl(settings, 'status-timeout', payment.id),
    Remarks: `Status ${payment.id}`,
  };
}

function b2b(
  settings: RequestSettings, commandId: 'BusinessPayBill' | 'BusinessBuyGoods', partyB: string,
  accountReference: string, common: Record<string, string>,
): PayoutRequest {
  return {
    ok: true, api: 'b2b', path: B2B_PATH, body: {
      // Field names as Daraja spells them, "RecieverIdentifierType" included; 4 = organisation shortcode.
      Initiator: settings.initiatorName, CommandID: commandId, SenderIdentifierType: '4', RecieverIdentifierType: '4',
      PartyA: settings.b2bShortcode, PartyB: partyB, AccountReference: accountReference, ...common,
    },
  };
}

function refuse(reason: string): PayoutRequest {
  return { ok: false, reason };
}
