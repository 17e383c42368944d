import { createHash } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { MeteredPayoutProvider } from '../../src/adapters/providers/metered-payout-provider';
import { BreakerPayoutProvider } from '../../src/adapters/providers/provider-breaker';
import { SandboxAccountDirectory } from '../../src/adapters/providers/sandbox-account-directory';
import { base58, SandboxIssuerDirectory } from '../../src/adapters/providers/sandbox-issuer-directory';
import { sha256Hasher, ulidGenerator, uuidFor } from '../../src/adapters/providers/system';
import { blockedAddressReason, DnsTargetGuard, guardedLookup } from '../../src/adapters/providers/target-guard';
import type { Payment } from '../../src/core/payments/payment';
import type { PayoutProvider, SubmitOutcome } from '../../src/core/payments/payout-provider';

// Edges of the smaller provider-side adapters: the sandbox directories (docs/decisions.md § Sandbox
// values), name-based uuids and key hashes, the webhook target guard's lookups (docs/decisions.md §
// Webhooks), and the breaker and meter around a payout provider with their defaults.

describe('sandbox account directory', () => {
  const directory = new SandboxAccountDirectory();
  const merchants = ['Mama Mboga Groceries', 'Savanna Hardware Ltd', 'Kilele Pharmacy', 'Baraka Electronics', 'Jua Kali Motors',
    'Tumaini Bookshop', 'Nyota Cafe', 'Upendo Salon', 'Duka La Wote', 'Simba Logistics'];
  const people = ['Jane Wanjiku', 'Chinedu Okafor', 'Amina Bello', 'Brian Otieno', 'Ngozi Adeyemi',
    'Peter Kamau', 'Funmilayo Ojo', 'Grace Achieng', 'Emeka Nwosu', 'Halima Yusuf'];
  /** The name the SHA-256 of the number selects, computed here by the documented rule. */
  const picked = (names: string[], key: string) => names[createHash('sha256').update(key).digest().readUInt32BE(0) % names.length];

  it('a number ending 0000 is not found, naming what was asked', async () => {
    expect(await directory.merchant('paybill', '5120000')).toEqual({ ok: false, code: 'account_not_found', message: 'No paybill 5120000' });
    expect(await directory.mobileWallet('KE', '+254712340000')).toEqual({ ok: false, code: 'account_not_found', message: 'No wallet for +254712340000' });
    expect(await directory.bankAccount({ accountNumber: '0123450000' } as Parameters<SandboxAccountDirectory['bankAccount']>[0]))
      .toEqual({ ok: false, code: 'account_not_found', message: 'No account 0123450000' });
  });

  it('any other number resolves to the holder its SHA-256 picks, the same every time', async () => {
    const numbers = Array.from({ length: 40 }, (_, i) => `51234${String(i).padStart(2, '0')}`);
    for (const number of numbers) {
      expect(await directory.merchant('till', number)).toEqual({ ok: true, value: { accountName: picked(merchants, number) } });
      expect(await directory.bankAccount({ accountNumber: number } as Parameters<SandboxAccountDirectory['bankAccount']>[0]))
        .toEqual({ ok: true, value: { accountId: number, accountName: picked(people, number) } });
    }
    // Forty numbers reach more than one name.
    expect(new Set(numbers.map((n) => picked(merchants, n))).size).toBeGreaterThan(3);
    expect(await directory.mobileWallet('KE', '+254712345678')).toEqual({ ok: true, value: undefined });
  });
});

describe('sandbox issuer directory', () => {
  const directory = new SandboxIssuerDirectory();

  it('a username ending 0000 is not found, naming the user and the issuer', async () => {
    expect(await directory.walletAddress({ issuer: 'issuer_a', username: 'amina0000', network: 'Solana' } as never))
      .toEqual({ ok: false, code: 'account_not_found', message: 'No user amina0000 at issuer_a' });
  });

  it('base58 keeps leading zero bytes as 1s', () => {
    expect(base58(Uint8Array.from([0, 0, 1]))).toBe('112');
    expect(base58(Uint8Array.from([0x00, 0x00, 0x28, 0x7f, 0xb4, 0xcd]))).toBe('11233QC4');
    expect(base58(new Uint8Array(0))).toBe('');
  });
});

describe('name-based uuids and key hashes', () => {
  it('uuidFor is the SHA-256 of the text shaped as a version 8, RFC 4122 variant uuid', () => {
    // SHA-256("abc") = ba7816bf 8f01 c fea 4 141 40de5dae2223...
    expect(uuidFor('abc')).toBe('ba7816bf-8f01-8fea-8141-40de5dae2223');
    const shapes = Array.from({ length: 64 }, (_, i) => uuidFor(`text-${i}`));
    for (const id of shapes) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(shapes.map((id) => id[19])).size).toBe(4);
    expect(uuidFor('abc')).toBe(uuidFor('abc'));
  });

  it('random uuids are version 4, each new', () => {
    const ids = ulidGenerator();
    const made = Array.from({ length: 20 }, () => ids.uuid());
    for (const id of made) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(made).size).toBe(20);
  });

  it('a key hash is its SHA-256 hex; hashes compare equal only when identical, whatever their lengths', () => {
    expect(sha256Hasher.hash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hasher.equal('abc', 'abc')).toBe(true);
    expect(sha256Hasher.equal('abc', 'abd')).toBe(false);
    expect(sha256Hasher.equal('abc', 'abcd')).toBe(false);
  });
});

describe('webhook target guard lookups', () => {
  it('only an address that is IPv4-mapped as a whole is decided by its IPv4 part', () => {
    // A link-local address whose last 48 bits read like ::ffff:8.8.8.8 stays link-local.
    expect(blockedAddressReason('fe80::ffff:8.8.8.8')).toBe('fe80::ffff:8.8.8.8 is a private, loopback or link-local address');
    expect(blockedAddressReason('::ffff:8.8.8.8')).toBeUndefined();
    expect(blockedAddressReason('::ffff:10.0.0.10')).toBe('10.0.0.10 is a private, loopback or link-local address');
    expect(blockedAddressReason('::ffff:10.0.10.1')).toBe('10.0.10.1 is a private, loopback or link-local address');
    expect(blockedAddressReason('::ffff:10.10.0.1')).toBe('10.10.0.1 is a private, loopback or link-local address');
    expect(blockedAddressReason('::ffff:100.0.0.1')).toBe(undefined);
  });

  const lookupOf = (hostname: string, options: { all?: boolean; family?: number }) => new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>(
    (resolve) => guardedLookup(hostname, options, (error, address, family) => resolve({ error, address, family })),
  );

  it('connect time: a name resolving to a blocked address is refused with EBLOCKEDTARGET', async () => {
    const refused = await lookupOf('localhost', {});
    expect(refused.error).toMatchObject({ code: 'EBLOCKEDTARGET', message: 'refused target: 127.0.0.1 is a private, loopback or link-local address' });
    expect(refused.address).toBe('');
  });

  it('connect time: a public address is given back, one or all as asked', async () => {
    expect(await lookupOf('8.8.8.8', {})).toEqual({ error: null, address: '8.8.8.8', family: 4 });
    expect(await lookupOf('8.8.8.8', { all: true })).toEqual({ error: null, address: [{ address: '8.8.8.8', family: 4 }], family: undefined });
  });

  it('connect time: a name that does not resolve fails with the resolver\'s error', async () => {
    const failed = await lookupOf('nothing-here.invalid', {});
    expect(failed.error).toMatchObject({ code: 'ENOTFOUND' });
    expect(failed.address).toBe('');
  });

  it('registration: an internal name is refused by its name, with or without a trailing dot, before any resolving', async () => {
    const resolved: string[] = [];
    const guard = new DnsTargetGuard(async (host) => {
      resolved.push(host);
      return ['93.184.216.34'];
    });
    expect(await guard.refusal(new URL('https://hooks.internal/x'))).toBe('hooks.internal is an internal host name');
    expect(await guard.refusal(new URL('https://api.localhost./x'))).toBe('api.localhost. is an internal host name');
    expect(await guard.refusal(new URL('https://hooks.example.com/x'))).toBeUndefined();
    expect(resolved).toEqual(['hooks.example.com']);
  });

  it('registration: the system resolver refuses a name of a blocked address and accepts one that does not resolve', async () => {
    const guard = new DnsTargetGuard();
    // /etc/hosts names this machine `vm` at 127.0.0.1; `localhost` is refused by its name alone.
    expect(await guard.refusal(new URL('https://vm/hooks'))).toBe('127.0.0.1 is a private, loopback or link-local address');
    expect(await guard.refusal(new URL('https://localhost./hooks'))).toBe('localhost. is an internal host name');
    expect(await guard.refusal(new URL('https://nothing-here.invalid/hooks'))).toBeUndefined();
  });
});

describe('payout provider wrappers with their defaults', () => {
  const payment = { id: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' } as Payment;

  it('the meter times with the monotonic clock by default: a duration in seconds, never negative', async () => {
    const calls: unknown[][] = [];
    const inner: PayoutProvider = { name: 'paystack', submit: async () => ({ kind: 'accepted', providerRef: 'r' }), status: async () => ({ kind: 'not_found' }) };
    await new MeteredPayoutProvider(inner, (...call) => calls.push(call)).submit(payment);
    expect(calls).toEqual([['paystack', 'submit', 'accepted', expect.any(Number)]]);
    expect(calls[0]![3]).toBeGreaterThanOrEqual(0);
    expect(calls[0]![3]).toBeLessThan(5);
  });

  it('a breaker given no event listeners opens and closes again all the same', async () => {
    let answer: SubmitOutcome = { kind: 'retry', afterMs: 1 };
    let now = 0;
    const inner: PayoutProvider = { name: 'mtn_momo', submit: async () => answer, status: async () => ({ kind: 'not_found' }) };
    const breaker = new BreakerPayoutProvider(inner, { consecutiveFailures: 2, halfOpenAfterMs: 50, callTimeoutMs: 1_000 }, undefined, () => now);
    await breaker.submit(payment);
    await breaker.submit(payment);
    expect(breaker.healthy).toBe(false);
    expect(await breaker.submit(payment)).toEqual({ kind: 'retry', afterMs: 50, reason: 'mtn_momo circuit open' });
    now = 50;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(breaker.healthy).toBe(true);
    answer = { kind: 'accepted', providerRef: 'ref-1' };
    expect(await breaker.submit(payment)).toEqual({ kind: 'accepted', providerRef: 'ref-1' });
    expect(await breaker.submit(payment)).toEqual({ kind: 'accepted', providerRef: 'ref-1' });
  });
});
