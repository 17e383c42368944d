import type { Catalog } from '../catalog/catalog';
import { canonicalJson, UUID_PATTERN } from '../idempotency/idempotency';
import type { Quote } from '../quotes/quote';
import { payoutRoute, type PayoutCorridor, type PayoutRouted, type RoutingDeps } from '../routing/provider-routing';
import type { RateContext, RateSource } from '../quotes/rate-source';
import type { RateBasis } from '../quotes/pricing-record';
import { Decimal } from '../shared/money';
import type { Clock, IdGenerator } from '../shared/clock';
import { err, ok, type Result } from '../shared/result';
import type { TransactionContext, UnitOfWork } from '../shared/unit-of-work';
import { validateMoneyOut, type MoneyOutCommand, type ValidMoneyOut } from './money-out-rules';
import { checkRefundAddress, type RefundAddressDeps, type RefundAddressErrorCode } from './refund-address';
import type { Payment } from './payment';
import type { OneTripPaymentWriter } from './payment-ports';
import type { PaymentView } from './payment-view';
import { MONEY_OUT_OPERATION, newPaymentWrite } from './new-payment';
import type { ScreeningHit } from '../screening/sanctions-screen';
import { screenMoneyOut, type SubjectScreening, type ScreeningVerdict } from '../screening/screening-rules';
import { pendingReview } from '../screening/compliance-review';

/** Closed set of expected failures of a money-out (docs/decisions.md § Idempotency and § Errors: shapes per route family). */
export type MoneyOutErrorCode =
  | 'validation_error'
  | 'unsupported_corridor'
  | 'quote_expired'
  | 'quote_already_used'
  | 'duplicate_reference'
  | 'idempotency_key_in_use'
  | 'idempotency_key_reused'
  | 'provider_unavailable'
  | 'rate_unavailable'
  | 'corridor_not_available'
  | 'insufficient_balance'
  | 'screening_unavailable'
  | RefundAddressErrorCode;

/**
 * A created or replayed money-out: the payment as first answered, and whether this is a replay
 * (false: created now). Each transport words that its own way (REST: 201 either way, with
 * `Idempotent-Replayed: true` on a replay; GraphQL: the `replayed` field).
 */
export interface MoneyOutOutcome {
  readonly payment: PaymentView;
  readonly replayed: boolean;
}

/** The name validation errors give the idempotency key (`details.field`, and the message's first word). */
export const IDEMPOTENCY_KEY_FIELD = 'idempotencyKey';

/** Ports and settings of the money-out use case; routing decides whether any provider serves the tenant. */
export interface MoneyOutDeps extends RoutingDeps {
  readonly catalog: Catalog;
  readonly rates: RateSource;
  readonly uow: UnitOfWork;
  /** Writes a new payment in one round trip when nothing stands in its way (docs/decisions.md § Performance). */
  readonly oneTrip: OneTripPaymentWriter;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** How long an idempotency key is remembered, in hours (IDEMPOTENCY_TTL_HOURS, default 24). */
  readonly idempotencyTtlHours: number;
  /**
   * Digest of a request's canonical JSON, stored and compared instead of it: the request holds the
   * recipient's account number and name, which must not sit in clear in the idempotency store
   * (docs/decisions.md § Personal data and secrets). Deterministic; HMAC-SHA256 in the service.
   */
  readonly fingerprintOf: (canonicalRequest: string) => string;
  /** The refund address's checks: EIP-55, our deposit addresses, the hot wallets (docs/decisions.md § Refunds: refund addresses). */
  readonly refundAddresses: RefundAddressDeps;
  /**
   * Called after a new payment commits, with its corridor (catalog values, so a bounded set), e.g.
   * to wake the payout worker and count it (README "Metrics and health").
   */
  readonly onPaymentCreated?: (paymentId: string, corridor: Pick<PayoutCorridor, 'country' | 'paymentMethod'>) => void;
  /** Sanctions screening of the recipient and refund address (docs/decisions.md § Screening); absent: nothing is screened. */
  readonly screening?: MoneyOutScreening;
}

/** The screen a money-out asks, its policy, and what is logged (entry ids and scores only, never a name). */
export type MoneyOutScreening = SubjectScreening;


/**
 * Creates a money-out (OpenAPI createMoneyOut; docs/decisions.md § Payments: states and events and § Idempotency): validates it, and in one transaction takes
 * the idempotency lock, prices it (at the quote's locked rate when `quoteId` is given, consuming
 * the quote), inserts the payment in `initiated` with its outbox event, stores the response under
 * the key, and last holds `amountStablecoin` on the tenant's balance (docs/decisions.md § Ledger). A refusal
 * rolls all of it back, the quote's use included. A new money-out without a quote is first tried
 * as one round trip (`deps.oneTrip`), which writes the same rows only when no replay, key in flight
 * or multi-slot hold stands in its way, and otherwise leaves the decision to the transaction.
 * The same key with the same command returns the stored response (`replayed: true`), even once
 * its quote is used (docs/decisions.md § FX quotes and the quote lock).
 * Errors: `validation_error` (key not a UUID, any field rule, unknown quote, or a quote for another
 * amount, pair or method; field `quoteId`), `unsupported_corridor`, `quote_expired`,
 * `quote_already_used` (another money-out used the quote), `duplicate_reference`,
 * `idempotency_key_in_use` (first request still in flight), `idempotency_key_reused` (same key,
 * other command), `corridor_not_available` (no payout provider is configured for the corridor in
 * this deployment for the tenant's environment: permanent until the configuration changes;
 * nothing is written), `provider_unavailable` (the corridor's providers all refuse calls for now:
 * `details.retryAfterS`, seconds, says how soon to ask again; nothing is written),
 * `rate_unavailable` (no trustworthy live rate for the pair now, docs/decisions.md § FX quotes: live
 * rates; `details.retryAfterS`; nothing is written), `insufficient_balance` (the available balance does not cover the amount),
 * `refund_address_invalid`, `refund_address_bad_checksum`, `refund_address_is_ours` (checkRefundAddress; nothing is written).
 * Sanctions screening (docs/decisions.md § Screening): a recipient name or refund address that
 * hits a loaded list is created as usual but held (no next look, with its compliance review, in the
 * same transaction), never sent until cleared; a live tenant's money-out while no list is loaded
 * and screening is required is `screening_unavailable` (`details.retryAfterS`: seconds until the
 * replicas look for a new list again), nothing written.
 */
export async function createMoneyOut(
  deps: MoneyOutDeps,
  tenantId: string,
  idempotencyKey: string | undefined,
  command: MoneyOutCommand,
): Promise<Result<MoneyOutOutcome, MoneyOutErrorCode>> {
  if (idempotencyKey === undefined || !UUID_PATTERN.test(idempotencyKey)) {
    // Named after this parameter; each transport renames it after its own field (REST: the Idempotency-Key header).
    return err('validation_error', `${IDEMPOTENCY_KEY_FIELD} is required and must be a UUID`, { field: IDEMPOTENCY_KEY_FIELD });
  }
  const valid = validateMoneyOut(deps.catalog, command);
  if (!valid.ok) return valid;
  const refundAddress = await checkRefundAddress(deps.refundAddresses, valid.value.blockchain, valid.value.refundAddress);
  if (!refundAddress.ok) return refundAddress;
  const key = idempotencyKey.toLowerCase();
  const fingerprint = deps.fingerprintOf(canonicalJson({ operation: MONEY_OUT_OPERATION, ...command, fiatAmount: valid.value.amount.toString() }));
  const corridor = { country: valid.value.country, paymentMethod: valid.value.paymentMethod };
  // Looked up before the transaction, which must not wait for a second pooled connection.
  const route = await payoutRoute(deps, tenantId, { ...corridor, paymentCode: valid.value.paymentCode });
  // In memory (no database trip unless no list is loaded), before any write.
  const verdict = await screeningVerdict(deps, tenantId, valid.value);

  // A new payment without a quote usually needs one round trip; anything else takes the transactional path below.
  // A payment screening holds or refuses takes the transactional path too: it writes a review, or nothing.
  if (command.quoteId === undefined && route.kind === 'providers' && verdict.kind === 'pass') {
    const created = await createInOneTrip(deps, tenantId, key, fingerprint, valid.value);
    if (created?.ok) deps.onPaymentCreated?.(created.value.payment.id, corridor);
    if (created) return created;
  }
  const outcome = await deps.uow.transact<MoneyOutOutcome, MoneyOutErrorCode>(async (tx) => {
    const lock = await tx.idempotency.lock(tenantId, key);
    if (lock.kind === 'busy') {
      return err('idempotency_key_in_use', 'A request with this idempotency key is still being processed');
    }
    if (lock.record) {
      return lock.record.fingerprint === fingerprint
        ? ok({ payment: lock.record.responseBody as PaymentView, replayed: true })
        : err('idempotency_key_reused', 'This idempotency key was used with a different request');
    }
    // Never simulated for a tenant the sandbox does not serve: refused before any write or hold
    // (docs/decisions.md § Sandbox values); a replay above still answers what was stored.
    if (route.kind !== 'providers') return unrouted(route);
    // A live tenant's money-out is never created unscreened (docs/decisions.md § Screening): nothing is written.
    if (verdict.kind === 'unavailable') {
      return err('screening_unavailable', `Sanctions screening is unavailable (${verdict.reason}); live money-outs are refused until an operator loads the lists`, { retryAfterS: verdict.retryAfterS });
    }
    return insertPayment(deps, tx, tenantId, key, fingerprint, valid.value, verdict.kind === 'hold' ? verdict.hits : undefined);
  });
  if (outcome.ok && !outcome.value.replayed) {
    if (verdict.kind === 'hold') deps.screening?.onHeld?.(outcome.value.payment.id, verdict.hits);
    deps.onPaymentCreated?.(outcome.value.payment.id, corridor);
  }
  return outcome;
}

/** Screens the recipient's name and refund address in memory (docs/decisions.md § Screening); the tenant's environment is read only when no list is loaded. */
async function screeningVerdict(deps: MoneyOutDeps, tenantId: string, command: ValidMoneyOut): Promise<ScreeningVerdict> {
  const screening = deps.screening;
  if (!screening) return { kind: 'pass' };
  const environment = screening.screen.loaded().length === 0 ? await deps.environments.environmentOf(tenantId) : undefined;
  return screenMoneyOut(screening.screen, screening.policy, environment, command, screening.onNearMiss);
}

async function insertPayment(
  deps: MoneyOutDeps,
  tx: TransactionContext,
  tenantId: string,
  key: string,
  fingerprint: string,
  command: ValidMoneyOut,
  hits?: readonly ScreeningHit[],
): Promise<Result<MoneyOutOutcome, MoneyOutErrorCode>> {
  const now = deps.clock.now();
  const paymentId = deps.ids.next('pay');
  const rate = await lockedOrCurrentRate(deps, tx, tenantId, command, now, paymentId);
  if (!rate.ok) return rate;
  const { write, view } = newPaymentWrite(deps, { tenantId, key, fingerprint, command, ...rate.value, now, paymentId, held: hits !== undefined });
  const written = await tx.payments.create(write);
  if (written === 'duplicate_reference') return duplicateReference(write.payment);
  if (written === 'insufficient_funds') {
    return err('insufficient_balance', `Available ${write.payment.sourceCurrency} balance does not cover ${write.payment.amountStablecoin}`);
  }
  // Held: its review commits with it, so a held payment always has one (docs/decisions.md § Screening).
  if (hits) {
    await tx.reviews.create(pendingReview('payment', paymentId, tenantId, hits, now));
  }
  return ok({ payment: view, replayed: false });
}

/**
 * The one-round-trip money-out (docs/decisions.md § Performance: a money-out in one round trip):
 * for a command without a quote, priced at the current rate before any lock, written by
 * `deps.oneTrip` only when its key is free and unrecorded and its hold's slot covers it.
 * Undefined when that writer left it undecided (nothing written) or no rate could be had: the
 * caller then takes the transactional path, which answers replays, keys in flight, refusals and
 * rate failures as it always did.
 */
async function createInOneTrip(
  deps: MoneyOutDeps, tenantId: string, key: string, fingerprint: string, command: ValidMoneyOut,
): Promise<Result<MoneyOutOutcome, MoneyOutErrorCode> | undefined> {
  const rate = await deps.rates.rate(command.destinationCurrency, command.sourceCurrency, rateContext(tenantId, command));
  if (!rate.ok) return undefined;
  const { write, view } = newPaymentWrite(deps, {
    tenantId, key, fingerprint, command, rate: rate.value.rate, basis: rate.value.basis, now: deps.clock.now(), paymentId: deps.ids.next('pay'),
  });
  const written = await deps.oneTrip.createIfFirst(write);
  if (written === 'undecided') return undefined;
  return written === 'duplicate_reference' ? duplicateReference(write.payment) : ok({ payment: view, replayed: false });
}

/**
 * The refusal of a money-out no provider can take (docs/decisions.md § Payout providers: routing
 * and failover): a corridor no provider serves is permanent; providers that refuse calls now are
 * temporary, with how long to wait in whole seconds (`details.retryAfterS`) when routing knows.
 */
function unrouted(route: Exclude<PayoutRouted, { kind: 'providers' }>): Result<never, 'corridor_not_available' | 'provider_unavailable'> {
  if (route.kind === 'not_served') return err('corridor_not_available', `No payout provider serves this corridor: ${route.reason}`);
  const retryAfterS = route.retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(route.retryAfterMs / 1000));
  return err('provider_unavailable', `No payout provider is available for this tenant: ${route.reason}`, retryAfterS === undefined ? undefined : { retryAfterS });
}

function duplicateReference(payment: Payment): Result<never, 'duplicate_reference'> {
  return err('duplicate_reference', `A payment with reference ${payment.reference} already exists`);
}

async function lockedOrCurrentRate(
  deps: MoneyOutDeps,
  tx: TransactionContext,
  tenantId: string,
  command: ValidMoneyOut,
  now: Date,
  paymentId: string,
): Promise<Result<{ rate: string; basis: RateBasis | null }, MoneyOutErrorCode>> {
  if (command.quoteId === undefined) {
    const rate = await deps.rates.rate(command.destinationCurrency, command.sourceCurrency, rateContext(tenantId, command));
    if (rate.ok) return rate;
    return rate.code === 'unsupported_pair'
      ? err('unsupported_corridor', rate.message)
      : err('rate_unavailable', `No live exchange rate for ${command.destinationCurrency}/${command.sourceCurrency} now; retry later`, retryOnly(rate.details));
  }
  const quote = await tx.quotes.findForTenant(tenantId, command.quoteId);
  if (!quote) return err('validation_error', 'quoteId does not match a quote of yours', { field: 'quoteId' });
  const mismatch = quoteMismatch(quote, command);
  if (mismatch) return err('validation_error', `quoteId was issued for ${mismatch}`, { field: 'quoteId' });
  if (quote.expiresAt.getTime() <= now.getTime()) return err('quote_expired', 'The quote has expired; request a new one');
  // Consumed in this transaction: atomic with the payment, undone with it (docs/decisions.md § FX quotes and the quote lock).
  if (!(await tx.quotes.consume(tenantId, quote.id, paymentId, now))) {
    return err('quote_already_used', 'The quote was already used by another money-out; request a new one');
  }
  // Priced from the quote's basis (docs/decisions.md § FX quotes: pricing records).
  return ok({ rate: quote.exchangeRate, basis: quote.pricing ?? null });
}

/** The corridor a money-out prices for (docs/decisions.md § FX quotes: live rates). */
function rateContext(tenantId: string, command: ValidMoneyOut): RateContext {
  return { tenantId, paymentMethod: command.paymentMethod, country: command.country };
}

/** Only `retryAfterS` of a rate failure's details reaches the caller: the sources behind it are ours. */
function retryOnly(details: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> | undefined {
  return typeof details?.retryAfterS === 'number' ? { retryAfterS: details.retryAfterS } : undefined;
}

/**
 * What differs between a quote and the money-out that names it, or undefined when the quote covers
 * it: the same fiat amount (compared as decimals), pair and payment method. Pure.
 */
function quoteMismatch(quote: Quote, command: ValidMoneyOut): string | undefined {
  if (quote.fiatCurrency !== command.destinationCurrency || quote.stablecoin !== command.sourceCurrency) {
    return `another currency pair (${quote.fiatCurrency} to ${quote.stablecoin})`;
  }
  if (!new Decimal(quote.fiatAmount).eq(command.amount)) return `another amount (${quote.fiatAmount} ${quote.fiatCurrency})`;
  if (quote.paymentMethod !== command.paymentMethod) return `another payment method (${quote.paymentMethod})`;
  return undefined;
}
