import { formatAmount } from '../shared/money';

/** Terminal types of a transfer request (OpenAPI createTransferRequest). */
export const TERMINAL_TYPES = ['APP', 'WEB'] as const;
export type TerminalType = (typeof TERMINAL_TYPES)[number];

/** Currencies a transfer request may be expressed in (OpenAPI createTransferRequest; default USDC). */
export const TRANSFER_CURRENCIES = ['USDC', 'USDT', 'ZAR'] as const;
export type TransferCurrency = (typeof TRANSFER_CURRENCIES)[number];

/** Merchant category codes (OpenAPI createTransferRequest): 01 tangible goods, 02 virtual goods. */
export const MERCHANT_CATEGORY_CODES = ['01', '02'] as const;

/** Field limits of OpenAPI createTransferRequest. */
export const TRANSFER_LIMITS = { description: 100, customReference: 100, url: 256, merchantCategoryCode: 10, reference: 128, recipient: 128, merchantID: 100 } as const;

/** States of a transfer request: `pending` until its link expires (the acquirer's outcome is not modelled yet). */
export type TransferRequestStatus = 'pending' | 'expired';

/**
 * A fiat-denominated transfer request that an acquirer carries out through a deeplink
 * (OpenAPI createTransferRequest). `trq_<ULID>`; `reference` is unique per tenant; `amount` a decimal string
 * with 2 places in `currency`. `token` is the opaque token its deeplink carries (unique; null only
 * for requests made before tokens were opaque, whose links cannot be resolved).
 */
export class TransferRequest {
  id!: string;
  tenantId!: string;
  reference!: string;
  recipient!: string;
  amount!: string;
  currency!: TransferCurrency;
  acquirer!: string;
  merchantId!: string;
  description!: string | null;
  successUrl!: string | null;
  failedUrl!: string | null;
  webhookUrl!: string | null;
  customReference!: string | null;
  merchantCategoryCode!: string | null;
  paymentProcessor!: string;
  terminalType!: TerminalType;
  token!: string | null;
  link!: string;
  expiresAt!: Date;
  createdAt!: Date;

  constructor(props: { [K in keyof TransferRequest]: TransferRequest[K] }) {
    Object.assign(this, props);
  }
}

/** The transfer request as GET /tx/transferRequests/{reference} returns it. */
export interface TransferRequestView {
  reference: string;
  status: TransferRequestStatus;
  link: string;
  amount: string;
  currency: TransferCurrency;
  acquirerMerchantName: string;
  recipient: string;
  createdAt: string;
  expiresAt: string;
}

/**
 * A transfer request as the acquirer that opened its deeplink reads it (operationId
 * resolveTransferLink): what it needs to carry the transfer out, and neither the tenant nor the
 * tenant's own reference. Amount a decimal string with 2 places in `currency`; times ISO 8601 UTC.
 */
export interface TransferLinkView {
  id: string;
  acquirerMerchantName: string;
  merchantID: string;
  recipient: string;
  amount: string;
  currency: TransferCurrency;
  description: string | null;
  customReference: string | null;
  merchantCategoryCode: string | null;
  paymentProcessor: string;
  terminalType: TerminalType;
  successUrl: string | null;
  failedUrl: string | null;
  webhookUrl: string | null;
  expiresAt: string;
}

/** Port: stored transfer requests, tenant-scoped except by deeplink token. */
export interface TransferRequestStore {
  /** Errors: `duplicate_reference` when the tenant already used the reference. */
  insert(request: TransferRequest): Promise<'inserted' | 'duplicate_reference'>;
  findByReference(tenantId: string, reference: string): Promise<TransferRequest | undefined>;
  /** The request whose deeplink carries `token` (any tenant's: the token is the capability). */
  findByToken(token: string): Promise<TransferRequest | undefined>;
}

/**
 * Port: the tokens deeplinks carry (docs/decisions.md § Personal data and secrets). Opaque:
 * random, URL-safe, at least 128 bits, revealing nothing; the request is found by it server-side.
 */
export interface TransferLinkTokens {
  /** A new token. */
  next(): string;
  /** Whether `text` has a token's shape (so a malformed one costs no lookup). */
  looksValid(text: string): boolean;
}

/** Maps a request to what the acquirer reads through its deeplink token. Pure. */
export function toTransferLinkView(request: TransferRequest): TransferLinkView {
  return {
    id: request.id,
    acquirerMerchantName: request.acquirer,
    merchantID: request.merchantId,
    recipient: request.recipient,
    amount: formatAmount(request.amount, 'ZAR'),
    currency: request.currency,
    description: request.description,
    customReference: request.customReference,
    merchantCategoryCode: request.merchantCategoryCode,
    paymentProcessor: request.paymentProcessor,
    terminalType: request.terminalType,
    successUrl: request.successUrl,
    failedUrl: request.failedUrl,
    webhookUrl: request.webhookUrl,
    expiresAt: request.expiresAt.toISOString(),
  };
}

/** Maps a request to its view at instant `now`. Pure. */
export function toTransferRequestView(request: TransferRequest, now: Date): TransferRequestView {
  return {
    reference: request.reference,
    status: now.getTime() >= request.expiresAt.getTime() ? 'expired' : 'pending',
    link: request.link,
    amount: formatAmount(request.amount, 'ZAR'),
    currency: request.currency,
    acquirerMerchantName: request.acquirer,
    recipient: request.recipient,
    createdAt: request.createdAt.toISOString(),
    expiresAt: request.expiresAt.toISOString(),
  };
}
