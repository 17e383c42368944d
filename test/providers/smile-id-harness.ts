import { ulid } from 'ulid';
import { SmileIdClient } from '../../src/adapters/providers/smile-id/smile-id-client';
import { parseSmileIdConfig, type SmileIdConfig } from '../../src/adapters/providers/smile-id/smile-id-config';
import { SmileIdJobs } from '../../src/adapters/providers/smile-id/smile-id-jobs';
import { SmileIdKycProvider } from '../../src/adapters/providers/smile-id/smile-id-kyc-provider';
import { Customer } from '../../src/core/customers/customer';
import type { KycCheck, KycCheckStore } from '../../src/core/customers/kyc-check';
import type { SmileIdSimulator } from '../../simulators/smile-id/smile-id-simulator';

/** A callback secret of the right shape for tests. */
export const CALLBACK_SECRET = 'test-callback-secret-0123456789';

/** The adapter's configuration pointing at `sim`, with short waits for tests. */
export function configFor(sim: SmileIdSimulator, overrides: Record<string, string> = {}): SmileIdConfig {
  const config = parseSmileIdConfig({
    SMILE_ID_PARTNER_ID: sim.partnerId, SMILE_ID_API_KEY: sim.apiKey, SMILE_ID_BASE_URL: sim.url,
    SMILE_ID_CALLBACK_BASE_URL: 'http://127.0.0.1:9/callbacks/smile-id', SMILE_ID_CALLBACK_SECRET: CALLBACK_SECRET,
    SMILE_ID_CONNECT_TIMEOUT_MS: '1000', SMILE_ID_RESPONSE_TIMEOUT_MS: '2000', SMILE_ID_POLL_MS: '200',
    SMILE_ID_AUTHORITY_ATTEMPTS: '3', SMILE_ID_AUTHORITY_RETRY_MS: '100', SMILE_ID_HELD_RECHECK_MS: '60000', ...overrides,
  });
  if (!config) throw new Error('unreachable: configuration set');
  return config;
}

/** The KYC checks port in memory (a fake at the core's edge; the e2e test uses PostgreSQL). */
export class MemoryKycChecks implements KycCheckStore {
  readonly rows: KycCheck[] = [];

  async latest(customerId: string, provider: string) {
    return this.rows.filter((r) => r.customerId === customerId && r.provider === provider).sort((a, b) => b.attempt - a.attempt)[0];
  }

  async begin(check: KycCheck) {
    if (this.rows.some((r) => r.customerId === check.customerId && r.provider === check.provider && r.attempt === check.attempt)) return 'duplicate' as const;
    this.rows.push(check);
    return 'inserted' as const;
  }

  async markSubmitted(customerId: string, provider: string, attempt: number) {
    this.replace(customerId, provider, attempt, (r) => (r.state === 'submitting' ? { ...r, state: 'submitted' } : r));
  }

  async complete(customerId: string, provider: string, attempt: number, resultCode: string, rawAnswer: string, at: Date) {
    this.replace(customerId, provider, attempt, (r) => ({ ...r, state: 'completed', resultCode, rawAnswer, completedAt: at }));
  }

  private replace(customerId: string, provider: string, attempt: number, change: (row: KycCheck) => KycCheck) {
    const index = this.rows.findIndex((r) => r.customerId === customerId && r.provider === provider && r.attempt === attempt);
    const row = this.rows[index];
    if (row) this.rows[index] = change(row);
  }
}

/** The adapter against `sim`, with its checks in memory; `close()` closes its HTTP pool. */
export function adapterFor(sim: SmileIdSimulator, overrides: Record<string, string> = {}) {
  const config = configFor(sim, overrides);
  const client = new SmileIdClient(config);
  const checks = new MemoryKycChecks();
  const jobs = new SmileIdJobs(config, client, () => new Date());
  const provider = new SmileIdKycProvider(config, jobs, checks, () => new Date());
  return { config, client, checks, jobs, provider, close: () => client.close() };
}

/** A pending customer with a fresh id (Kenya, NATIONAL_ID unless overridden). */
export function customer(overrides: Partial<Customer> = {}): Customer {
  const now = new Date();
  return new Customer({
    id: `cus_${ulid()}`, tenantId: 'ten_test', externalId: `ext-${ulid()}`, firstName: 'Wanjiru', lastName: 'Kamau', country: 'KE',
    dateOfBirth: '1990-01-01', idType: 'NATIONAL_ID', idNumber: '00000000', kycStatus: 'pending', kycReason: null, nextCheckAt: now,
    createdAt: now, updatedAt: now, ...overrides,
  });
}

/** Sleeps `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
