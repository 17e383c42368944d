import { formatAmount } from '../shared/money';

/** Terminal types of a transfer request (interface 4.2). */
export const TERMINAL_TYPES = ['APP', 'WEB'] as const;
export type TerminalType = (typeof TERMINAL_TYPES)[number];

/** Currencies a transfer request may be expressed in (interface 4.2; default USDC). */
export const TRANSFER_CURRENCIES = ['USDC', 'USDT', 'ZAR'] as const;
export type TransferCurrency = (typeof TRANSFER_CURRENCIES)[number];

/** Merchant category codes (interface 4.2): 01 tangible goods, 02 virtual goods. */
export const MERCHANT_CATEGORY_CODES = ['01', '02'] as const;

/** Limits of interface part 8. */
export const TRANSFER_LIMITS = { description: 100, customReference: 100, url: 256, merchantCategoryCode: 10, reference: 128, recipient: 128, merchantID: 100 } as const;

/** States of a transfer request: `pending` until its link expires (the acquirer's outcome is not modelled yet). */
export type TransferRequestStatus = 'pending' | 'expired';

/**
 * A fiat-denominated transfer request that an acquirer carries out through a deeplink
 * (interface 4.2, 2.3). `trq_<ULID>`; `reference` is unique per tenant; `amount` a decimal string
 * with 2 places in `currency`.
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

/** Port: stored transfer requests, tenant-scoped. */
export interface TransferRequestStore {
  /** Errors: `duplicate_reference` when the tenant already used the reference. */
  insert(request: TransferRequest): Promise<'inserted' | 'duplicate_reference'>;
  findByReference(tenantId: string, reference: string): Promise<TransferRequest | undefined>;
}

/** Port: signs the token a deeplink carries, so the acquirer can check it came from us. */
export interface LinkSigner {
  /** An opaque URL-safe token over `claims`. */
  sign(claims: Record<string, string | number>): string;
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
