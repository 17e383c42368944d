/** A request body with its scalar fields as text. */
export type Fields = Record<string, string | undefined>;

type Rule = (value: string | undefined) => boolean;
const required: Rule = (v) => v !== undefined && v.trim() !== '';
const optional = (rule: Rule): Rule => (v) => v === undefined || rule(v);
const length = (min: number, max: number): Rule => (v) => v !== undefined && v.length >= min && v.length <= max;
const matches = (pattern: RegExp): Rule => (v) => v !== undefined && pattern.test(v);
const oneOf = (...values: string[]): Rule => (v) => v !== undefined && values.includes(v);
const url: Rule = (v) => {
  try {
    return v !== undefined && /^https?:$/.test(new URL(v).protocol);
  } catch {
    return false;
  }
};
/** Whole shillings: Daraja's samples and tables show no decimals (the simulator's reading). */
const amount = matches(/^[1-9]\d*$/);
const shortcode = matches(/^\d{5,7}$/);

/** The first field that breaks its rule, or undefined. */
function firstInvalid(fields: Fields, rules: Record<string, Rule>): string | undefined {
  return Object.entries(rules).find(([name, rule]) => !rule(fields[name]))?.[0];
}

/** B2C v3 payment request (https://developer.safaricom.co.ke/apis/BusinessToCustomer). */
export function validateB2c(f: Fields, shortcodes: readonly string[]): string | undefined {
  return firstInvalid(f, {
    OriginatorConversationID: length(1, 100),
    InitiatorName: required,
    SecurityCredential: required,
    CommandID: oneOf('SalaryPayment', 'BusinessPayment', 'PromotionPayment'),
    Amount: amount,
    PartyA: oneOf(...shortcodes),
    PartyB: matches(/^254\d{9}$/),
    Remarks: length(2, 100),
    QueueTimeOutURL: url,
    ResultURL: url,
    Occassion: optional(length(1, 100)),
  });
}

/** B2B payment request: BusinessPayBill and BusinessBuyGoods (https://developer.safaricom.co.ke/apis/BusinessPayBill). */
export function validateB2b(f: Fields, shortcodes: readonly string[]): string | undefined {
  return firstInvalid(f, {
    Initiator: required,
    SecurityCredential: required,
    CommandID: oneOf('BusinessPayBill', 'BusinessBuyGoods'),
    SenderIdentifierType: oneOf('4'),
    RecieverIdentifierType: oneOf('4'),
    Amount: amount,
    PartyA: oneOf(...shortcodes),
    PartyB: shortcode,
    AccountReference: length(1, 13),
    Requester: optional(matches(/^254\d{9}$/)),
    Remarks: length(1, 100),
    QueueTimeOutURL: url,
    ResultURL: url,
  });
}

/** Transaction Status query (https://developer.safaricom.co.ke/apis/TransactionStatus): a receipt or an OriginalConversationID. */
export function validateStatus(f: Fields, shortcodes: readonly string[]): string | undefined {
  if (!required(f.TransactionID) && !required(f.OriginalConversationID)) return 'TransactionID';
  return firstInvalid(f, {
    Initiator: required,
    SecurityCredential: required,
    CommandID: oneOf('TransactionStatusQuery'),
    PartyA: oneOf(...shortcodes),
    IdentifierType: oneOf('4'),
    ResultURL: url,
    QueueTimeOutURL: url,
    Remarks: length(1, 100),
  });
}
