import type { Catalog } from '../catalog/catalog';
import type { Clock, IdGenerator } from '../shared/clock';
import { Decimal, formatAmount, parseAmount } from '../shared/money';
import { err, ok, type Result } from '../shared/result';
import {
  MERCHANT_CATEGORY_CODES, TRANSFER_LIMITS, TransferRequest, toTransferLinkView, toTransferRequestView,
  type TerminalType, type TransferCurrency, type TransferLinkTokens, type TransferLinkView, type TransferRequestStore, type TransferRequestView,
} from './transfer-request';

/** A transfer request after transport parsing (OpenAPI createTransferRequest; `paymentProcessor`, `terminalType` and `currency` are our names for three fields the interface leaves unnamed). */
export interface TransferRequestCommand {
  readonly recipient: string;
  /** Total in ZAR (or `currency`), at least 0.01 and a multiple of 0.01. */
  readonly amount: number | string;
  readonly acquirerMerchantName: string;
  readonly reference: string;
  readonly merchantID: string;
  readonly description?: string;
  readonly successUrl?: string;
  readonly failedUrl?: string;
  readonly webhookUrl?: string;
  readonly customReference?: string;
  readonly merchantCategoryCode?: string;
  readonly paymentProcessor?: string;
  readonly terminalType?: TerminalType;
  readonly currency?: TransferCurrency;
}

export type TransferErrorCode = 'validation_error' | 'duplicate_reference' | 'not_found';

/** Expected failures of resolving a deeplink token: unknown (or malformed), or past its expiry. */
export type TransferLinkErrorCode = 'not_found' | 'link_expired';

export interface TransferDeps {
  readonly catalog: Catalog;
  readonly transfers: TransferRequestStore;
  readonly linkTokens: TransferLinkTokens;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** How long a deeplink stays valid, in seconds. */
  readonly transferLinkTtlSeconds: number;
}

const MIN_AMOUNT = new Decimal('0.01');

function checkUrl(field: string, value: string | undefined): Result<void, 'validation_error'> {
  if (value === undefined) return ok(undefined);
  if (value.length > TRANSFER_LIMITS.url) return err('validation_error', `${field} must be at most ${TRANSFER_LIMITS.url} characters`, { field });
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
  } catch {
    return err('validation_error', `${field} must be an http(s) URL`, { field });
  }
  return ok(undefined);
}

/**
 * Creates and stores a transfer request and its acquirer deeplink (OpenAPI createTransferRequest):
 * the acquirer's template from the catalog with an opaque token, stored with the request, that
 * the acquirer resolves server-side (resolveTransferLink) until the request expires.
 * Errors: `validation_error` (amount under 0.01 or not a multiple of 0.01, lengths, URLs, unknown
 * acquirer or processor, merchantCategoryCode), `duplicate_reference`.
 */
export async function createTransferRequest(
  deps: TransferDeps,
  tenantId: string,
  command: TransferRequestCommand,
): Promise<Result<{ link: string }, TransferErrorCode>> {
  const amount = parseAmount(command.amount, 'amount', 2);
  if (!amount.ok) return err('validation_error', amount.message.replace('at most 2 decimal places', 'a multiple of 0.01'), { field: 'amount' });
  if (amount.value.lt(MIN_AMOUNT)) return err('validation_error', 'amount must be at least 0.01', { field: 'amount' });
  for (const field of ['recipient', 'reference', 'merchantID'] as const) {
    if (command[field].trim() === '') return err('validation_error', `${field} must not be blank`, { field });
  }
  if ((command.description?.length ?? 0) > TRANSFER_LIMITS.description) return err('validation_error', 'description must be at most 100 characters', { field: 'description' });
  if ((command.customReference?.length ?? 0) > TRANSFER_LIMITS.customReference) return err('validation_error', 'customReference must be at most 100 characters', { field: 'customReference' });
  for (const field of ['successUrl', 'failedUrl', 'webhookUrl'] as const) {
    const checked = checkUrl(field, command[field]);
    if (!checked.ok) return checked;
  }
  if (command.merchantCategoryCode !== undefined && !(MERCHANT_CATEGORY_CODES as readonly string[]).includes(command.merchantCategoryCode)) {
    return err('validation_error', 'merchantCategoryCode must be 01 (tangible goods) or 02 (virtual goods)', { field: 'merchantCategoryCode' });
  }
  const acquirer = deps.catalog.acquirers.find((a) => a.key === command.acquirerMerchantName);
  if (!acquirer) return err('validation_error', `acquirerMerchantName must be one of ${deps.catalog.acquirers.map((a) => a.key).join(', ')}`, { field: 'acquirerMerchantName' });
  const paymentProcessor = command.paymentProcessor ?? deps.catalog.paymentProcessors[0]!;
  if (!deps.catalog.paymentProcessors.includes(paymentProcessor)) {
    return err('validation_error', `paymentProcessor must be ${deps.catalog.paymentProcessors.join(', ')}`, { field: 'paymentProcessor' });
  }

  const now = deps.clock.now();
  const id = deps.ids.next('trq');
  const currency = command.currency ?? 'USDC';
  // Amounts are fiat-style 2-place figures whatever the currency (OpenAPI createTransferRequest: a multiple of 0.01).
  const formatted = formatAmount(amount.value, 'ZAR');
  const expiresAt = new Date(now.getTime() + deps.transferLinkTtlSeconds * 1000);
  // Opaque, not signed claims: a link passes through browsers, apps and logs, and must not show the
  // tenant or the recipient (docs/decisions.md § Personal data and secrets).
  const token = deps.linkTokens.next();
  const request = new TransferRequest({
    id, tenantId, reference: command.reference, recipient: command.recipient, amount: formatted, currency,
    acquirer: acquirer.key, merchantId: command.merchantID, description: command.description ?? null,
    successUrl: command.successUrl ?? null, failedUrl: command.failedUrl ?? null, webhookUrl: command.webhookUrl ?? null,
    customReference: command.customReference ?? null, merchantCategoryCode: command.merchantCategoryCode ?? null,
    paymentProcessor, terminalType: command.terminalType ?? 'APP', token,
    link: acquirer.deeplinkTemplate.replace('{token}', encodeURIComponent(token)), expiresAt, createdAt: now,
  });
  if ((await deps.transfers.insert(request)) === 'duplicate_reference') {
    return err('duplicate_reference', `A transfer request with reference ${command.reference} already exists`);
  }
  return ok({ link: request.link });
}

/** Reads a transfer request by the tenant's reference. Errors: `not_found` (also for another tenant's). */
export async function getTransferRequest(
  deps: Pick<TransferDeps, 'transfers' | 'clock'>,
  tenantId: string,
  reference: string,
): Promise<Result<TransferRequestView, TransferErrorCode>> {
  const request = await deps.transfers.findByReference(tenantId, reference);
  return request ? ok(toTransferRequestView(request, deps.clock.now())) : err('not_found', `Transfer request ${reference} not found`);
}

/**
 * What the acquirer that opened a deeplink reads by its token (operationId resolveTransferLink):
 * the transfer to carry out, without the tenant. The token alone authorises the read, so it is
 * unguessable and lives only as long as the request. Errors: `not_found` (unknown or malformed
 * token), `link_expired` (the request's expiry has passed).
 */
export async function resolveTransferLink(
  deps: Pick<TransferDeps, 'transfers' | 'clock' | 'linkTokens'>,
  token: string,
): Promise<Result<TransferLinkView, TransferLinkErrorCode>> {
  const request = deps.linkTokens.looksValid(token) ? await deps.transfers.findByToken(token) : undefined;
  if (!request) return err('not_found', 'No transfer request has this link');
  if (deps.clock.now().getTime() >= request.expiresAt.getTime()) return err('link_expired', 'This transfer link has expired');
  return ok(toTransferLinkView(request));
}
