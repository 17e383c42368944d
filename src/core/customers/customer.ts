import type { KeysetPage } from '../shared/keyset-page';
import type { ComplianceReview } from '../screening/compliance-review';
/** KYC states of a customer (docs/decisions.md § Customers and KYC). */
export const KYC_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

/**
 * Identity documents accepted. Besides the generic three, the national identifiers a live KYC
 * provider looks up by number (docs/providers.md § Smile ID): Nigeria's BVN and NIN_V2, Ghana's
 * GHANA_CARD, Kenya's ALIEN_CARD, and NATIONAL_ID_NO_PHOTO (Kenya, South Africa, Uganda).
 */
export const ID_TYPES = ['PASSPORT', 'NATIONAL_ID', 'DRIVERS_LICENSE', 'BVN', 'NIN_V2', 'GHANA_CARD', 'ALIEN_CARD', 'NATIONAL_ID_NO_PHOTO'] as const;
export type IdType = (typeof ID_TYPES)[number];

/**
 * A wallet user of an issuer, with a KYC status a KYC provider decides (docs/decisions.md § Customers and KYC).
 * `cus_<ULID>`;
 * `externalId` is the issuer's own id, unique per tenant; `dateOfBirth` is YYYY-MM-DD.
 * `nextCheckAt` is when the KYC worker looks again (null once decided, and while a compliance
 * review holds the customer: docs/decisions.md § Screening).
 */
export class Customer {
  id!: string;
  tenantId!: string;
  externalId!: string;
  firstName!: string;
  lastName!: string;
  country!: string;
  dateOfBirth!: string;
  idType!: IdType;
  idNumber!: string;
  kycStatus!: KycStatus;
  kycReason!: string | null;
  nextCheckAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;

  constructor(props: { [K in keyof Customer]: Customer[K] }) {
    Object.assign(this, props);
  }
}

/** A customer as the API returns it; the document number only by its last four characters. */
export interface CustomerView {
  id: string;
  externalId: string;
  firstName: string;
  lastName: string;
  country: string;
  dateOfBirth: string;
  idType: IdType;
  idNumberLast4: string;
  kycStatus: KycStatus;
  kycReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Maps a customer to its public view (id number masked to its last four characters). Pure. */
export function toCustomerView(c: Customer): CustomerView {
  return {
    id: c.id, externalId: c.externalId, firstName: c.firstName, lastName: c.lastName, country: c.country,
    dateOfBirth: c.dateOfBirth, idType: c.idType, idNumberLast4: c.idNumber.slice(-4), kycStatus: c.kycStatus,
    kycReason: c.kycReason, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString(),
  };
}

/**
 * What the KYC provider says: decided, or look again after `afterMs` milliseconds. A pending
 * outcome with a `reason` (e.g. the ID authority stayed unavailable) shows it as the customer's
 * `kycReason` while the customer stays pending.
 */
export type KycOutcome =
  | { readonly kind: 'pending'; readonly afterMs: number; readonly reason?: string }
  | { readonly kind: 'approved' }
  | { readonly kind: 'rejected'; readonly reason: string };

/** Port: the KYC provider (sandbox: approves, rejects ids ending 0000, after a delay). Throwing means unreachable. */
export interface KycProvider {
  check(customer: Customer): Promise<KycOutcome>;
}

/** Port: customer storage outside transactions. Tenant-scoped reads. */
export interface CustomerStore {
  /**
   * Inserts a customer; with `review` (a sanctions hit: docs/decisions.md § Screening), its
   * pending compliance review in the same transaction, so a held customer always has one.
   */
  insert(customer: Customer, review?: ComplianceReview): Promise<'inserted' | 'duplicate_external_id'>;
  findForTenant(tenantId: string, customerId: string): Promise<Customer | undefined>;
  /** Newest first; 'bad_cursor' for a cursor this store did not issue. */
  list(tenantId: string, limit: number, cursor?: string): Promise<KeysetPage<Customer> | 'bad_cursor'>;
  /** Claims pending customers due for a check (FOR UPDATE SKIP LOCKED), leasing them until `leaseUntil`. */
  claimDue(now: Date, limit: number, leaseUntil: Date): Promise<Customer[]>;
  /** Moves the next check of a still-pending customer; with `reason`, also sets its `kycReason` (it stays pending). */
  reschedule(customerId: string, at: Date, reason?: string): Promise<void>;
}

/** Port: the KYC decision inside a transaction, guarded on the customer still being pending. */
export interface CustomerTxStore {
  /**
   * Makes a customer held by a compliance review due for its KYC check at `at` (only while it is
   * still pending and held, i.e. not yet due); returns false when it was not.
   */
  release(customerId: string, at: Date): Promise<boolean>;
  decide(customerId: string, status: Exclude<KycStatus, 'pending'>, reason: string | null, at: Date): Promise<Customer | undefined>;
}
