import { authenticate, type ApiKeyReader, type Principal, type SecretHasher } from './auth/api-key';
import type { Catalog } from './catalog/catalog';
import { createMoneyOut, type MoneyOutDeps, type MoneyOutErrorCode, type MoneyOutOutcome } from './payments/create-money-out';
import { getPayment } from './payments/get-payment';
import type { MoneyOutCommand } from './payments/money-out-rules';
import type { PaymentReader } from './payments/payment-ports';
import type { PaymentView } from './payments/payment-view';
import { getFxQuote, type FxQuoteDeps, type FxQuoteErrorCode, type FxQuoteQuery } from './quotes/get-fx-quote';
import type { Quote } from './quotes/quote';
import type { Result } from './shared/result';
import {
  deleteWebhook, listWebhookEvents, listWebhooks, registerWebhook, retryWebhookEvent,
  type RegisteredWebhook, type WebhookDeps, type WebhookErrorCode,
} from './webhooks/manage-webhooks';
import type { WebhookEventEntry, WebhookView } from './webhooks/webhook';
import type { EventLogQuery } from './webhooks/webhook-ports';

/** Everything the use cases need from outside the core: ports and settings (DESIGN.md 1). */
export interface ApplicationDeps extends MoneyOutDeps, FxQuoteDeps, WebhookDeps {
  readonly catalog: Catalog;
  readonly payments: PaymentReader;
  readonly keys: ApiKeyReader;
  readonly hasher: SecretHasher;
}

/**
 * The use cases, bound to their ports: the one surface REST and GraphQL both call, so no rule is
 * written twice (DESIGN.md 1). Each method documents its errors at its use case.
 */
export interface Application {
  readonly catalog: Catalog;
  authenticate(apiKey: string): Promise<Result<Principal, 'unauthorized'>>;
  getFxQuote(tenantId: string, query: FxQuoteQuery): Promise<Result<Quote, FxQuoteErrorCode>>;
  createMoneyOut(tenantId: string, idempotencyKey: string | undefined, command: MoneyOutCommand): Promise<Result<MoneyOutOutcome, MoneyOutErrorCode>>;
  getPayment(tenantId: string, paymentId: string): Promise<Result<PaymentView, 'not_found'>>;
  registerWebhook(tenantId: string, input: { url: string; events?: string[] }): Promise<Result<RegisteredWebhook, WebhookErrorCode>>;
  listWebhooks(tenantId: string): Promise<WebhookView[]>;
  deleteWebhook(tenantId: string, webhookId: string): Promise<Result<void, WebhookErrorCode>>;
  listWebhookEvents(tenantId: string, query: EventLogQuery): Promise<Result<{ entries: WebhookEventEntry[]; nextCursor?: string }, WebhookErrorCode>>;
  retryWebhookEvent(tenantId: string, deliveryId: string): Promise<Result<WebhookEventEntry, WebhookErrorCode>>;
}

/** Binds the use cases to `deps`. */
export function createApplication(deps: ApplicationDeps): Application {
  return {
    catalog: deps.catalog,
    authenticate: (apiKey) => authenticate(deps, apiKey),
    getFxQuote: (tenantId, query) => getFxQuote(deps, tenantId, query),
    createMoneyOut: (tenantId, key, command) => createMoneyOut(deps, tenantId, key, command),
    getPayment: (tenantId, paymentId) => getPayment(deps.payments, tenantId, paymentId),
    registerWebhook: (tenantId, input) => registerWebhook(deps, tenantId, input),
    listWebhooks: (tenantId) => listWebhooks(deps, tenantId),
    deleteWebhook: (tenantId, webhookId) => deleteWebhook(deps, tenantId, webhookId),
    listWebhookEvents: (tenantId, query) => listWebhookEvents(deps, tenantId, query),
    retryWebhookEvent: (tenantId, deliveryId) => retryWebhookEvent(deps, tenantId, deliveryId),
  };
}
