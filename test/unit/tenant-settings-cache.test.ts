import { CachedTenantSettings } from '../../src/adapters/persistence/tenant-settings.cache';
import { newTenant, type Tenant } from '../../src/core/auth/tenant';

/** A tenant store whose answers the test sets, counting reads; `hold()` keeps the next read pending. */
function store(initial: Tenant) {
  let current = initial;
  let reads = 0;
  let gate: Promise<void> | undefined;
  return {
    set: (t: Tenant) => void (current = t),
    reads: () => reads,
    hold: () => {
      let release!: () => void;
      gate = new Promise<void>((r) => (release = r));
      return release;
    },
    findTenant: async (id: string) => {
      reads += 1;
      const answer = id === current.id ? current : undefined;
      if (gate) await gate;
      return answer;
    },
  };
}

describe('tenant settings cache (environment and rate limit of one replica)', () => {
  const tenant = newTenant({ id: 'ten_1', name: 'T', environment: 'live', createdAt: new Date(0), rateLimitPerMinute: 50 });
  let now = 0;
  const clock = () => now;

  it('answers the limit from memory for 30 s, then reads again; null tenants and unknown ones get the default', async () => {
    const tenants = store(tenant);
    const cache = new CachedTenantSettings(tenants.findTenant, 600, clock);
    expect(await cache.limitOf('ten_1')).toBe(50);
    tenants.set(newTenant({ ...tenant, rateLimitPerMinute: 70 }));
    now += 29_999;
    expect(await cache.limitOf('ten_1')).toBe(50);
    now += 1;
    expect(await cache.limitOf('ten_1')).toBe(70);
    expect(tenants.reads()).toBe(2);
    expect(await cache.limitOf(null)).toBe(600);
    expect(await cache.limitOf('ten_unknown')).toBe(600);
  });

  it('forget applies a change at once, and the environment stays known without a read', async () => {
    const tenants = store(tenant);
    const cache = new CachedTenantSettings(tenants.findTenant, 600, clock);
    expect(await cache.environmentOf('ten_1')).toBe('live');
    expect(await cache.limitOf('ten_1')).toBe(50);
    tenants.set(newTenant({ ...tenant, rateLimitPerMinute: 90 }));
    cache.forget('ten_1');
    expect(await cache.environmentOf('ten_1')).toBe('live');
    expect(tenants.reads()).toBe(1);
    expect(await cache.limitOf('ten_1')).toBe(90);
    expect(tenants.reads()).toBe(2);
  });

  it('a read that started before forget does not put the old settings back', async () => {
    const tenants = store(tenant);
    const cache = new CachedTenantSettings(tenants.findTenant, 600, clock);
    const release = tenants.hold();
    const before = cache.limitOf('ten_1');
    cache.forget('ten_1');
    release();
    expect(await before).toBe(50);
    tenants.set(newTenant({ ...tenant, rateLimitPerMinute: 80 }));
    expect(await cache.limitOf('ten_1')).toBe(80);
  });
});
