import type { KeysetPage } from '../shared/keyset-page';
import type { Clock, IdGenerator } from '../shared/clock';
import { err, ok, type Result } from '../shared/result';
import type { UnitOfWork } from '../shared/unit-of-work';
import { kycRoute, UNROUTED_RECHECK_MS, type RoutingDeps } from '../routing/provider-routing';
import { isCountryCode } from './countries';
import { pendingReview } from '../screening/compliance-review';
import { screenCustomer, type ScreeningVerdict, type SubjectScreening } from '../screening/screening-rules';
import { Customer, ID_TYPES, toCustomerView, type CustomerStore, type CustomerView, type IdType, type KycOutcome, type KycStatus } from './customer';

/** Closed set of expected failures of the customer operations. */
export type CustomerErrorCode = 'validation_error' | 'duplicate_customer' | 'not_found' | 'provider_unavailable' | 'screening_unavailable';

/** Ports of the customer use cases. */
export interface CustomerDeps {
  readonly customers: CustomerStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Sanctions screening of new customers' names (docs/decisions.md § Screening); absent: nothing is screened. */
  readonly customerScreening?: SubjectScreening;
}

/** Body of POST /v1/customers after transport parsing. */
export interface CreateCustomerCommand {
  readonly externalId: string;
  readonly firstName: string;
  readonly lastName: string;
  /** ISO 3166-1 alpha-2, upper case (XK accepted). */
  readonly country: string;
  /** YYYY-MM-DD, a real date from 1900-01-01 on; the customer must be 18 or older. */
  readonly dateOfBirth: string;
  readonly idType: IdType;
  readonly idNumber: string;
}

/** Wallet users must be adults; 18 is the usual age of majority (a per-country table belongs here if a corridor differs). */
const MIN_AGE_YEARS = 18;
/** Earlier dates are typing mistakes, not customers. */
const EARLIEST_BIRTH_DATE = '1900-01-01';
/** Wait before asking a KYC provider again after it failed (threw). */
const PROVIDER_RETRY_MS = 5000;

/**
 * Creates a customer in `pending` KYC; the KYC worker decides later and each decision
 * emits `customer.kyc.updated`. Errors: `validation_error` (blank names, a country that is not an
 * ISO 3166-1 alpha-2 code, a date of birth that is not a real date from 1900 on of someone 18 or
 * older, id number not 4-32 letters, digits or dashes), `duplicate_customer` (externalId already
 * used by the tenant), `provider_unavailable` (no KYC provider serves the tenant: a live tenant
 * until real rails exist; nothing is written), `screening_unavailable` (a live tenant while no
 * sanctions list is loaded and screening is required; `details.retryAfterS`; nothing is written).
 * Sanctions screening (docs/decisions.md § Screening): a name that hits a loaded list is created
 * `pending` but held (no next check) with its compliance review, in one transaction: the KYC
 * provider is not asked until an operator clears it; a reject makes it `rejected`.
 */
export async function createCustomer(deps: CustomerDeps & RoutingDeps, tenantId: string, command: CreateCustomerCommand): Promise<Result<CustomerView, CustomerErrorCode>> {
  for (const field of ['externalId', 'firstName', 'lastName'] as const) {
    if (command[field].trim() === '') return err('validation_error', `${field} must not be blank`, { field });
  }
  if (!isCountryCode(command.country)) return err('validation_error', 'country must be an ISO 3166-1 alpha-2 code', { field: 'country' });
  if (!(ID_TYPES as readonly string[]).includes(command.idType)) return err('validation_error', `idType must be one of ${ID_TYPES.join(', ')}`);
  if (!/^[A-Za-z0-9-]{4,32}$/.test(command.idNumber)) return err('validation_error', 'idNumber must be 4 to 32 letters, digits or dashes', { field: 'idNumber' });
  const now = deps.clock.now();
  const born = /^(\d{4})-(\d{2})-(\d{2})$/.exec(command.dateOfBirth);
  const date = born ? new Date(Date.UTC(Number(born[1]), Number(born[2]) - 1, Number(born[3]))) : undefined;
  // The round trip through Date refuses 1990-02-30 and the like (Date.UTC would roll it over).
  if (!date || date.toISOString().slice(0, 10) !== command.dateOfBirth) return err('validation_error', 'dateOfBirth must be a real date, YYYY-MM-DD', { field: 'dateOfBirth' });
  if (command.dateOfBirth < EARLIEST_BIRTH_DATE) return err('validation_error', `dateOfBirth must be ${EARLIEST_BIRTH_DATE} or later`, { field: 'dateOfBirth' });
  const adult = new Date(Date.UTC(date.getUTCFullYear() + MIN_AGE_YEARS, date.getUTCMonth(), date.getUTCDate()));
  if (adult.getTime() > now.getTime()) return err('validation_error', `the customer must be at least ${MIN_AGE_YEARS}`, { field: 'dateOfBirth' });
  // Never decided by a provider that does not serve the tenant (docs/decisions.md § Customers and KYC).
  const route = await kycRoute(deps, tenantId, command.country);
  if (route.kind === 'unavailable') return err('provider_unavailable', `No KYC provider is available for this tenant: ${route.reason}`);
  const verdict = await customerVerdict(deps, tenantId, command);
  if (verdict.kind === 'unavailable') {
    return err('screening_unavailable', `Sanctions screening is unavailable (${verdict.reason}); live customers are refused until an operator loads the lists`, { retryAfterS: verdict.retryAfterS });
  }
  const held = verdict.kind === 'hold';
  const customer = new Customer({
    id: deps.ids.next('cus'), tenantId, ...command, externalId: command.externalId.trim(), kycStatus: 'pending', kycReason: null,
    // Held: no next check, so the KYC worker (which claims due rows only) never asks the provider.
    nextCheckAt: held ? null : now, createdAt: now, updatedAt: now,
  });
  const review = held ? pendingReview('customer', customer.id, tenantId, verdict.hits, now) : undefined;
  if ((await deps.customers.insert(customer, review)) === 'duplicate_external_id') {
    return err('duplicate_customer', `A customer with externalId ${command.externalId} already exists`);
  }
  if (held) deps.customerScreening?.onHeld?.(customer.id, verdict.hits);
  return ok(toCustomerView(customer));
}

/** Screens the new customer's name in memory; the tenant's environment is read only when no list is loaded. */
async function customerVerdict(deps: CustomerDeps & RoutingDeps, tenantId: string, command: CreateCustomerCommand): Promise<ScreeningVerdict> {
  const screening = deps.customerScreening;
  if (!screening) return { kind: 'pass' };
  const environment = screening.screen.loaded().length === 0 ? await deps.environments.environmentOf(tenantId) : undefined;
  return screenCustomer(screening.screen, screening.policy, environment, command, screening.onNearMiss);
}

/** One customer of the tenant. Errors: `not_found` (also another tenant's). */
export async function getCustomer(deps: CustomerDeps, tenantId: string, customerId: string): Promise<Result<CustomerView, CustomerErrorCode>> {
  const customer = await deps.customers.findForTenant(tenantId, customerId);
  return customer ? ok(toCustomerView(customer)) : err('not_found', `Customer ${customerId} not found`);
}

/** A page of the tenant's customers, newest first. Errors: `validation_error` (bad cursor). */
export async function listCustomers(deps: CustomerDeps, tenantId: string, limit: number, cursor?: string): Promise<Result<KeysetPage<CustomerView>, CustomerErrorCode>> {
  const page = await deps.customers.list(tenantId, limit, cursor);
  if (page === 'bad_cursor') return err('validation_error', 'cursor is not valid', { field: 'cursor' });
  return ok({ entries: page.entries.map(toCustomerView), cursors: page.cursors, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
}

/** What the KYC worker needs besides the customer ports. */
export interface KycWorkerDeps extends CustomerDeps, RoutingDeps {
  readonly uow: UnitOfWork;
  /** How long a claimed customer stays with one worker before another may take it, in ms. */
  readonly leaseMs: number;
  /** Called after a decision commits (wake the webhook worker, count it). */
  readonly onDecided?: (status: Exclude<KycStatus, 'pending'>) => void;
  /** Called when the provider throws; the customer is asked again after PROVIDER_RETRY_MS. */
  readonly onProviderError?: (customerId: string, error: unknown) => void;
  /** Called when no provider serves a pending customer (left pending, looked at again after UNROUTED_RECHECK_MS). */
  readonly onUnrouted?: (customerId: string, reason: string) => void;
}

/**
 * One pass of the KYC worker: claims due pending customers (FOR UPDATE SKIP LOCKED, leased
 * for `leaseMs`, so a crashed worker's customers come due again) and asks the provider; a decision is
 * written with its `customer.kyc.updated` outbox event (payload: the customer as REST returns it) in
 * one transaction, guarded on the customer still being pending, so it is emitted once. Returns how
 * many were claimed.
 */
export async function processDueKyc(deps: KycWorkerDeps, limit: number): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.customers.claimDue(now, limit, new Date(now.getTime() + deps.leaseMs));
  await Promise.all(due.map(async (customer) => {
    const route = await kycRoute(deps, customer.tenantId, customer.country);
    if (route.kind === 'unavailable') {
      deps.onUnrouted?.(customer.id, route.reason);
      return deps.customers.reschedule(customer.id, new Date(deps.clock.now().getTime() + UNROUTED_RECHECK_MS));
    }
    const outcome = await route.provider.check(customer).catch((error: unknown): KycOutcome => {
      deps.onProviderError?.(customer.id, error);
      return { kind: 'pending', afterMs: PROVIDER_RETRY_MS };
    });
    if (outcome.kind === 'pending') return deps.customers.reschedule(customer.id, new Date(deps.clock.now().getTime() + outcome.afterMs), outcome.reason);
    const at = deps.clock.now();
    const decided = await deps.uow.transact(async (tx) => {
      const updated = await tx.customers.decide(customer.id, outcome.kind, outcome.kind === 'rejected' ? outcome.reason : null, at);
      if (!updated) return err('not_found', 'already decided');
      await tx.outbox.append({
        id: deps.ids.uuid(), tenantId: updated.tenantId, type: 'customer.kyc.updated', entityId: updated.id,
        payload: { ...toCustomerView(updated) }, createdAt: at,
      });
      return ok(updated);
    });
    if (decided.ok) deps.onDecided?.(outcome.kind);
  }));
  return due.length;
}
