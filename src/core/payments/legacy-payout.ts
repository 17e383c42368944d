import type { Tenant } from '../auth/tenant';
import { err, ok, type Result } from '../shared/result';
import { createMoneyOut, type MoneyOutDeps, type MoneyOutErrorCode } from './create-money-out';
import type { PaymentMethod } from '../catalog/catalog';

/** Destinations of a legacy payout and the payment method each one is (OpenAPI legacyPayout). */
export const LEGACY_DESTINATIONS = { Bank: 'BANK', MoMo: 'MOMO', Paybill: 'PAYBILL', Till: 'TILL' } as const satisfies Record<string, PaymentMethod>;
export type LegacyDestination = keyof typeof LEGACY_DESTINATIONS;
/** Legacy payout currencies and countries (OpenAPI legacyPayout). */
export const LEGACY_CURRENCIES = ['ZAR', 'NGN', 'KES', 'UGX', 'GHS', 'TZS', 'ZMW', 'ETB'] as const;
export const LEGACY_COUNTRIES = ['ZA', 'NG', 'KE', 'GH', 'UG', 'TZ', 'ZM', 'ET'] as const;

/** A legacy payout request after transport parsing (OpenAPI legacyPayout). */
export interface LegacyPayoutCommand {
  /** Local-currency amount (JSON number or decimal string). */
  readonly amount: number | string;
  readonly destination: LegacyDestination;
  readonly accountName: string;
  readonly accountNumber: string;
  readonly reference: string;
  readonly currency: (typeof LEGACY_CURRENCIES)[number];
  readonly country: (typeof LEGACY_COUNTRIES)[number];
  readonly businessNumber?: string;
  /** Operator or bank code valid for the country. */
  readonly code: string;
}

/** Closed set of expected failures of a legacy payout: the money-out's, plus a tenant without payout settings. */
export type LegacyPayoutErrorCode = MoneyOutErrorCode | 'tenant_not_configured';

/** The money-out's ports plus the tenant's payout settings and a name-based uuid. */
export interface LegacyPayoutDeps extends MoneyOutDeps {
  findTenant(tenantId: string): Promise<Tenant | undefined>;
  /** A stable UUID for a string (e.g. SHA-256 based): turns the reference into the idempotency key. */
  uuidFor(text: string): string;
}

/** Account number rules per destination (OpenAPI legacyPayout). */
const ACCOUNT_RULES: Record<LegacyDestination, { pattern: RegExp; message: string }> = {
  Bank: { pattern: /^\d{10,16}$/, message: 'accountNumber must be 10 to 16 digits for Bank' },
  MoMo: { pattern: /^[1-9]\d{7,14}$/, message: 'accountNumber must be the phone code and number, digits only, no plus sign, for MoMo' },
  Paybill: { pattern: /^.{1,20}$/, message: 'accountNumber must be 1 to 20 characters for Paybill' },
  Till: { pattern: /^\d{6}$/, message: 'accountNumber must be 6 digits for Till' },
};

/**
 * The legacy payout (OpenAPI legacyPayout): checks its own account rules, then creates a payment through
 * the very money-out use case (same validation against the catalog, same events, same balance
 * hold), funded with the tenant's payout settings. The reference is the idempotency key
 * (docs/decisions.md § Idempotency): the same reference and body return the same payment; another body is
 * `idempotency_key_reused`. Returns the payment id.
 * Errors: every MoneyOutErrorCode, and `tenant_not_configured` (no refund address).
 */
export async function createLegacyPayout(
  deps: LegacyPayoutDeps,
  tenantId: string,
  command: LegacyPayoutCommand,
): Promise<Result<{ transactionId: string; replayed: boolean }, LegacyPayoutErrorCode>> {
  const rule = ACCOUNT_RULES[command.destination];
  if (!rule.pattern.test(command.accountNumber)) return err('validation_error', rule.message, { field: 'accountNumber' });
  if (command.reference.trim() === '') return err('validation_error', 'reference must not be blank', { field: 'reference' });
  const tenant = await deps.findTenant(tenantId);
  if (!tenant?.payoutRefundAddress) {
    return err('tenant_not_configured', 'Payout settings (refund address) are not configured for this tenant');
  }
  const created = await createMoneyOut(deps, tenantId, deps.uuidFor(`legacy-payout:${command.reference}`), {
    fiatAmount: command.amount,
    sourceCurrency: tenant.payoutSourceCurrency,
    destinationCurrency: command.currency,
    country: command.country,
    blockchain: tenant.payoutBlockchain,
    paymentMethod: LEGACY_DESTINATIONS[command.destination],
    accountName: command.accountName,
    accountNumber: command.accountNumber,
    paymentCode: command.code,
    reference: command.reference,
    refundAddress: tenant.payoutRefundAddress,
    optionalIssuerFee: 'NO',
    ...(command.businessNumber !== undefined ? { businessNumber: command.businessNumber } : {}),
  });
  return created.ok ? ok({ transactionId: created.value.payment.id, replayed: created.value.replayed }) : created;
}
