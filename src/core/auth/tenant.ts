/**
 * A tenant: one wallet issuer using the service (docs/decisions.md § Authentication, tenants and keys). `ten_<ULID>`. The payout settings
 * fund legacy payouts (OpenAPI legacyPayout), whose requests name no stablecoin, chain or refund address.
 */
export class Tenant {
  id!: string;
  name!: string;
  environment!: 'sandbox' | 'live';
  /** Stablecoin that funds legacy payouts (USDC or USDT). */
  payoutSourceCurrency!: 'USDC' | 'USDT';
  /** Chain of legacy payouts' stablecoin leg (SOLANA or BSC). */
  payoutBlockchain!: 'SOLANA' | 'BSC';
  /** Where a failed legacy payout's funds go; null until configured (legacy payouts are refused). */
  payoutRefundAddress!: string | null;
  /** Requests per minute per key; null means the service default (RATE_LIMIT_PER_MINUTE). */
  rateLimitPerMinute!: number | null;
  /** Webhook registrations the tenant may have; null means the service default (WEBHOOK_MAX_REGISTRATIONS_PER_TENANT). */
  webhookLimit!: number | null;
  createdAt!: Date;

  constructor(props: { [K in keyof Tenant]: Tenant[K] }) {
    Object.assign(this, props);
  }
}

/** Refund address sandbox tenants start with, so legacy payouts work out of the box (a well-formed Solana address). */
export const SANDBOX_REFUND_ADDRESS = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

/**
 * A new tenant with default payout settings: USDC on SOLANA; sandbox tenants get
 * SANDBOX_REFUND_ADDRESS, live tenants none until configured.
 */
export function newTenant(
  props: Pick<Tenant, 'id' | 'name' | 'environment' | 'createdAt'> & Partial<Pick<Tenant, 'payoutSourceCurrency' | 'payoutBlockchain' | 'payoutRefundAddress' | 'rateLimitPerMinute'>>,
): Tenant {
  return new Tenant({
    payoutSourceCurrency: 'USDC',
    payoutBlockchain: 'SOLANA',
    payoutRefundAddress: props.environment === 'sandbox' ? SANDBOX_REFUND_ADDRESS : null,
    rateLimitPerMinute: null,
    webhookLimit: null,
    ...props,
  });
}
