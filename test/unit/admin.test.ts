import { createAdminApplication, type AdminApplication, type AdminApplicationDeps } from '../../src/core/admin/admin-application';
import type { ApiKeyAdminStore, TenantAdminStore } from '../../src/core/admin/tenant-admin';
import { MAX_RATE_LIMIT_PER_MINUTE, MAX_WEBHOOK_LIMIT, type TenantPatch } from '../../src/core/admin/update-tenant';
import type { ApiKey } from '../../src/core/auth/api-key';
import { SANDBOX_REFUND_ADDRESS, Tenant } from '../../src/core/auth/tenant';
import { createMoneyOut } from '../../src/core/payments/create-money-out';
import { err, ok } from '../../src/core/shared/result';
import { command, fakeWorld, TENANT, type FakeWorld } from '../support/fake-world';

/** Tenants and keys in memory. */
class MemoryAdmin implements TenantAdminStore, ApiKeyAdminStore {
  readonly tenants: Tenant[] = [];
  readonly keys: ApiKey[] = [];
  async createTenant(tenant: Tenant) {
    this.tenants.push(tenant);
  }
  async listTenants() {
    return [...this.tenants];
  }
  async findTenant(tenantId: string) {
    return this.tenants.find((t) => t.id === tenantId);
  }
  async modifyTenant<E extends string>(tenantId: string, change: (current: Tenant) => ReturnType<typeof ok<Tenant>> | ReturnType<typeof err<E>>) {
    const i = this.tenants.findIndex((t) => t.id === tenantId);
    if (i < 0) return undefined;
    const r = change(this.tenants[i]!);
    if (r.ok) this.tenants[i] = r.value;
    return r;
  }
  async insertKey(key: ApiKey) {
    this.keys.push(key);
  }
  async listKeys(tenantId: string | null) {
    return this.keys.filter((k) => k.tenantId === tenantId);
  }
  async revokeKey(keyId: string, at: Date) {
    const key = this.keys.find((k) => k.id === keyId);
    if (key && key.revokedAt === null) key.revokedAt = at;
    return key !== undefined;
  }
}

const SOLANA_ADDRESS = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const BSC_ADDRESS = `0x${'1a'.repeat(20)}`;

/** Tenant and key administration, deposits and sandbox simulation (docs/decisions.md § Authentication, tenants and keys) on in-memory ports. */
describe('admin use cases on fakes', () => {
  let world: FakeWorld;
  let store: MemoryAdmin;
  let admin: AdminApplication;
  let revoked: string[];
  let updated: string[];
  let generated: number;
  beforeEach(() => {
    world = fakeWorld();
    store = new MemoryAdmin();
    revoked = [];
    updated = [];
    generated = 0;
    const deps: AdminApplicationDeps = {
      tenants: store, keys: store, clock: world.clock, ids: world.ids, uow: world.store, payments: world.store.reader,
      keyFactory: { generate: (env) => `sk_${env}_${String(++generated).padStart(12, '0')}${'Z'.repeat(28)}` },
      hasher: { hash: (s) => `hash(${s})`, equal: (a, b) => a === b },
      onKeyRevoked: (id) => void revoked.push(id), onTenantUpdated: (id) => void updated.push(id),
      onPaymentMoved: (p) => world.moved.push(p), environments: world.routing,
      // Reconciliation has its own tests (test/e2e/reconciliation*.test.ts); here it finds nothing.
      reconciliationChecks: { listFindings: async () => [] },
      refunds: { list: async () => [], pendingTotals: async () => [] },
      depositFindings: { listFindings: async () => [] },
      // Pinned rates have their own tests (test/unit/live-rates.test.ts, test/e2e/live-rates.test.ts).
      ratePins: { insert: async () => undefined, active: async () => [] },
      rateSpreads: { insert: async () => undefined, latest: async () => [] },
      // Pricing records have their own test (test/e2e/pricing-records.test.ts).
      quotes: { findById: async () => undefined },
      reconciliationReport: {
        sent: { sentBetween: async () => [] }, payments: world.store.reader, providers: { providerOf: async () => undefined },
        records: [], clock: world.clock,
      },
    };
    admin = createAdminApplication(deps);
  });
  const newTenant = async (environment: 'sandbox' | 'live' = 'sandbox') => {
    const r = await admin.createTenant({ name: ' Issuer ', environment });
    if (!r.ok) throw new Error(r.message);
    return r.value.tenantId;
  };

  it('creates a sandbox tenant by default, with the sandbox refund address; a live one without', async () => {
    expect(await admin.createTenant({ name: ' Issuer One ' })).toEqual(ok({
      tenantId: 'ten_00000000000000000000000001', name: 'Issuer One', environment: 'sandbox', payoutSourceCurrency: 'USDC', payoutBlockchain: 'SOLANA',
      payoutRefundAddress: SANDBOX_REFUND_ADDRESS, rateLimitPerMinute: null, webhookLimit: null, createdAt: '2026-01-01T00:00:00.000Z',
    }));
    const live = await admin.createTenant({ name: 'L', environment: 'live', rateLimitPerMinute: 30 });
    expect(live.ok && [live.value.payoutRefundAddress, live.value.rateLimitPerMinute]).toEqual([null, 30]);
    expect((await admin.listTenants()).map((t) => t.name)).toEqual(['Issuer One', 'L']);
    expect(await admin.createTenant({ name: '  ' })).toEqual(err('validation_error', 'name must not be blank', { field: 'name' }));
    expect(store.tenants).toHaveLength(2);
  });

  it('issues an issuer key shown once, stores only its lookup and hash, and lists it by prefix', async () => {
    const tenantId = await newTenant('live');
    const r = await admin.issueApiKey(tenantId, { scope: 'issuer' });
    const clear = `sk_live_000000000001${'Z'.repeat(28)}`;
    expect(r).toEqual(ok({
      keyId: 'key_00000000000000000000000002', tenantId, scope: 'issuer', label: 'issuer key', prefix: 'sk_live_000000000001...',
      createdAt: '2026-01-01T00:00:00.000Z', revokedAt: null, apiKey: clear,
    }));
    expect(store.keys[0]).toMatchObject({ lookup: '000000000001', secretHash: `hash(${clear})` });
    const listed = await admin.listApiKeys(tenantId);
    expect(listed.ok && listed.value.map((k) => [k.prefix, k.label])).toEqual([['sk_live_000000000001...', 'issuer key']]);
    expect(JSON.stringify(listed)).not.toContain(clear);
  });

  it('refuses an admin-scoped tenant key and an unknown tenant', async () => {
    const tenantId = await newTenant();
    expect(await admin.issueApiKey(tenantId, { scope: 'admin' })).toEqual(err(
      'validation_error', 'scope must be issuer: a tenant\'s key cannot be an admin key (admin keys belong to no tenant)', { field: 'scope' }));
    expect(await admin.issueApiKey('ten_X', { scope: 'issuer', label: 'x' })).toEqual(err('not_found', 'Tenant ten_X not found'));
    expect(await admin.listApiKeys('ten_X')).toEqual(err('not_found', 'Tenant ten_X not found'));
    expect(store.keys).toEqual([]);
  });

  it('issues platform admin keys with no tenant, listed apart from tenants\' keys', async () => {
    const tenantId = await newTenant();
    await admin.issueApiKey(tenantId, { scope: 'issuer', label: 'mine' });
    const a = await admin.issueAdminKey({ label: 'ops' });
    expect(a).toMatchObject({ tenantId: null, scope: 'admin', label: 'ops', prefix: 'sk_live_000000000002...' });
    expect((await admin.issueAdminKey({})).label).toBe('admin key');
    expect((await admin.listAdminKeys()).map((k) => k.label)).toEqual(['ops', 'admin key']);
  });

  it('revokes a key once known, telling the subscriptions to close', async () => {
    const tenantId = await newTenant();
    const key = await admin.issueApiKey(tenantId, { scope: 'issuer' });
    const keyId = key.ok ? key.value.keyId : '';
    expect(await admin.revokeApiKey(keyId)).toEqual(ok(undefined));
    expect(revoked).toEqual([keyId]);
    const listed = await admin.listApiKeys(tenantId);
    expect(listed.ok && listed.value[0]!.revokedAt).toBe('2026-01-01T00:00:00.000Z');
    expect(await admin.revokeApiKey('key_X')).toEqual(err('not_found', 'API key key_X not found'));
    expect(revoked).toEqual([keyId]);
  });

  describe('updateTenant', () => {
    it('changes only what the patch gives, trims the name, and tells the cache', async () => {
      const tenantId = await newTenant();
      const r = await admin.updateTenant(tenantId, { name: ' New ', rateLimitPerMinute: 120, webhookLimit: 0, payoutBlockchain: 'BSC', payoutRefundAddress: BSC_ADDRESS, payoutSourceCurrency: 'USDT' });
      expect(r).toEqual(ok(expect.objectContaining({
        name: 'New', rateLimitPerMinute: 120, webhookLimit: 0, payoutBlockchain: 'BSC', payoutRefundAddress: BSC_ADDRESS, payoutSourceCurrency: 'USDT', environment: 'sandbox',
      })));
      expect(updated).toEqual([tenantId]);
      const reset = await admin.updateTenant(tenantId, { rateLimitPerMinute: null, webhookLimit: null, payoutRefundAddress: null, name: undefined });
      expect(reset.ok && [reset.value.name, reset.value.rateLimitPerMinute, reset.value.webhookLimit, reset.value.payoutRefundAddress]).toEqual(['New', null, null, null]);
    });

    it.each([
      ['an empty patch', {}, 'Give at least one setting to change', undefined],
      ['only undefined members', { name: undefined }, 'Give at least one setting to change', undefined],
      ['a blank name', { name: ' ' }, 'name must not be blank', 'name'],
      ['a rate limit of 0', { rateLimitPerMinute: 0 }, `rateLimitPerMinute must be an integer from 1 to ${MAX_RATE_LIMIT_PER_MINUTE}, or null`, 'rateLimitPerMinute'],
      ['a rate limit over the maximum', { rateLimitPerMinute: MAX_RATE_LIMIT_PER_MINUTE + 1 }, `rateLimitPerMinute must be an integer from 1 to ${MAX_RATE_LIMIT_PER_MINUTE}, or null`, 'rateLimitPerMinute'],
      ['a fractional rate limit', { rateLimitPerMinute: 1.5 }, `rateLimitPerMinute must be an integer from 1 to ${MAX_RATE_LIMIT_PER_MINUTE}, or null`, 'rateLimitPerMinute'],
      ['a negative webhook limit', { webhookLimit: -1 }, `webhookLimit must be an integer from 0 to ${MAX_WEBHOOK_LIMIT}, or null`, 'webhookLimit'],
      ['a webhook limit over the maximum', { webhookLimit: MAX_WEBHOOK_LIMIT + 1 }, `webhookLimit must be an integer from 0 to ${MAX_WEBHOOK_LIMIT}, or null`, 'webhookLimit'],
      ['a fractional webhook limit', { webhookLimit: 2.5 }, `webhookLimit must be an integer from 0 to ${MAX_WEBHOOK_LIMIT}, or null`, 'webhookLimit'],
      ['a chain change keeping a Solana address', { payoutBlockchain: 'BSC' }, 'payoutRefundAddress is not a valid BSC address', 'payoutRefundAddress'],
      ['a malformed address', { payoutRefundAddress: 'nope' }, 'payoutRefundAddress is not a valid SOLANA address', 'payoutRefundAddress'],
      ['a base58 address of 33 bytes', { payoutRefundAddress: 'z'.repeat(44) }, 'payoutRefundAddress is not a valid SOLANA address', 'payoutRefundAddress'],
    ] as [string, TenantPatch, string, string | undefined][])('refuses %s, changing nothing', async (_name, patch, message, field) => {
      const tenantId = await newTenant();
      expect(await admin.updateTenant(tenantId, patch)).toEqual(err('validation_error', message, field ? { field } : undefined));
      expect(store.tenants[0]).toMatchObject({ name: 'Issuer', rateLimitPerMinute: null, webhookLimit: null, payoutBlockchain: 'SOLANA', payoutRefundAddress: SANDBOX_REFUND_ADDRESS });
      expect(updated).toEqual([]);
    });

    it('accepts the limits\' bounds', async () => {
      const tenantId = await newTenant();
      expect((await admin.updateTenant(tenantId, { rateLimitPerMinute: 1, webhookLimit: MAX_WEBHOOK_LIMIT })).ok).toBe(true);
      expect((await admin.updateTenant(tenantId, { rateLimitPerMinute: MAX_RATE_LIMIT_PER_MINUTE })).ok).toBe(true);
    });

    it('never gives a live tenant the public sandbox address, but its own is fine', async () => {
      const tenantId = await newTenant('live');
      expect(await admin.updateTenant(tenantId, { payoutRefundAddress: SANDBOX_REFUND_ADDRESS }))
        .toEqual(err('validation_error', 'payoutRefundAddress is the public sandbox address; a live tenant needs its own', { field: 'payoutRefundAddress' }));
      expect((await admin.updateTenant(tenantId, { payoutRefundAddress: SOLANA_ADDRESS })).ok).toBe(true);
    });

    it('answers not_found for an unknown tenant', async () => {
      expect(await admin.updateTenant('ten_X', { name: 'x' })).toEqual(err('not_found', 'Tenant ten_X not found'));
    });
  });

  describe('deposits, cross-tenant reads and simulation', () => {
    it('credits a deposit only to a known tenant', async () => {
      const tenantId = await newTenant();
      const hash = `0x${'ab'.repeat(32)}`;
      expect(await admin.recordDeposit('ten_X', { currency: 'USDC', amount: 5, blockchain: 'BSC', txHash: hash })).toEqual(err('not_found', 'Tenant ten_X not found'));
      expect((await admin.recordDeposit(tenantId, { currency: 'USDC', amount: 5, blockchain: 'BSC', txHash: hash })).ok).toBe(true);
      expect(world.store.balance(tenantId, 'USDC', 'available')).toBe('5.000000');
    });

    it('funds a known sandbox tenant only', async () => {
      const tenantId = await newTenant();
      expect(await admin.fundSandboxTenant('ten_X', { currency: 'USDT', amount: '1' })).toEqual(err('not_found', 'Tenant ten_X not found'));
      expect(await admin.fundSandboxTenant(tenantId, { currency: 'USDT', amount: '1' })).toEqual(ok({ currency: 'USDT', amount: '1.000000' }));
      const live = await newTenant('live');
      expect((await admin.fundSandboxTenant(live, { currency: 'USDT', amount: '1' })).ok).toBe(false);
    });

    const payment = async () => {
      world.store.fund(TENANT, 'USDC', '100');
      const r = await createMoneyOut(world.moneyOut, TENANT, '0f8fad5b-d9cb-469f-a165-70867728950e', command());
      if (!r.ok) throw new Error(r.message);
      return r.value.payment.id;
    };

    it('reads any tenant\'s payment with its tenant id', async () => {
      const id = await payment();
      expect(await admin.getPayment(id)).toEqual(ok(expect.objectContaining({ id, tenantId: TENANT, status: 'initiated' })));
      expect(await admin.getPayment('pay_X')).toEqual(err('not_found', 'Payment pay_X not found'));
    });

    it.each([
      ['succeeded', null, null, 'settle'],
      ['failed', 'Simulated failed by an operator', 'declined', 'return'],
      ['refunded', 'Simulated refunded by an operator', 'reversed', 'return'],
    ] as const)('simulates %s on an initiated sandbox payment: accepted first, then the final move', async (outcome, reason, code, kind) => {
      store.tenants.push(new Tenant({ ...(await store.findTenant(await newTenant()))!, id: TENANT }));
      const id = await payment();
      const r = await admin.simulatePayment(id, outcome);
      expect(r).toEqual(ok(expect.objectContaining({ id, status: outcome, providerRef: `sbx_${id.slice(4)}`, failureReason: reason, failureCode: code })));
      expect(world.store.transfers.filter((t) => t.paymentId === id).map((t) => t.kind)).toEqual(['hold', 'send', kind]);
      expect(await admin.simulatePayment(id, 'succeeded')).toEqual(err('invalid_state', `Payment ${id} is already final`));
    });

    it('simulates only sandbox payments, and only existing ones', async () => {
      store.tenants.push(new Tenant({ ...(await store.findTenant(await newTenant('live')))!, id: TENANT }));
      const id = await payment();
      expect(await admin.simulatePayment(id, 'succeeded')).toEqual(err('forbidden', 'Only sandbox payments can be simulated'));
      expect(await admin.simulatePayment('pay_X', 'succeeded')).toEqual(err('not_found', 'Payment pay_X not found'));
      expect(world.store.payments.get(id)!.status).toBe('initiated');
    });
  });
});
