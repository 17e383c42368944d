import { generateApiKey, storedKey } from '../../src/app/api-keys';
import { CachedApiKeyReader } from '../../src/adapters/persistence/cached-api-key.reader';
import { sha256Hasher, ulidGenerator } from '../../src/adapters/providers/system';
import { authenticate, type ApiKey, type ApiKeyReader, type SecretHasher } from '../../src/core/auth/api-key';

/**
 * Whether a key prefix exists must not show in the work authentication does: a known prefix with a
 * wrong secret and an unknown prefix both hash, query the store once and compare once. Counting the
 * work stands in for timing it (bench/auth-timing.bench.ts prints the times).
 */
describe('authentication does the same work for an unknown prefix and a known one', () => {
  const valid = generateApiKey('sandbox');
  const stored = storedKey(valid, 'issuer', 'ten_1', 'test', { ids: ulidGenerator(), hasher: sha256Hasher, now: new Date() });
  let queries = 0;
  let hashes = 0;
  let comparisons = 0;
  const store: ApiKeyReader = {
    async findByLookup(lookup: string): Promise<ApiKey | undefined> {
      queries++;
      return lookup === stored.lookup ? stored : undefined;
    },
  };
  const hasher: SecretHasher = {
    hash: (secret) => (hashes++, sha256Hasher.hash(secret)),
    equal: (a, b) => (comparisons++, sha256Hasher.equal(a, b)),
  };
  const keys = new CachedApiKeyReader(store, 60_000);
  const work = async (apiKey: string) => {
    [queries, hashes, comparisons] = [0, 0, 0];
    const result = await authenticate({ keys, hasher }, apiKey);
    return { ok: result.ok, queries, hashes, comparisons };
  };
  // The known prefix with another secret, and an unknown prefix, both well formed.
  const wrongSecret = `${valid.slice(0, 'sk_sandbox_'.length + 12)}${'Q'.repeat(28)}`;
  const unknownPrefix = `sk_sandbox_${'Q'.repeat(40)}`;

  it('a valid key is answered from the cache once seen', async () => {
    expect(await work(valid)).toEqual({ ok: true, queries: 1, hashes: 1, comparisons: 1 });
    expect(await work(valid)).toEqual({ ok: true, queries: 0, hashes: 1, comparisons: 1 });
  });

  it('a wrong secret for a cached prefix and an unknown prefix: one hash, one store query, one comparison each, every time', async () => {
    await work(valid);
    for (let i = 0; i < 3; i++) {
      expect(await work(wrongSecret)).toEqual({ ok: false, queries: 1, hashes: 1, comparisons: 1 });
      expect(await work(unknownPrefix)).toEqual({ ok: false, queries: 1, hashes: 1, comparisons: 1 });
    }
  });

  it('a malformed key is refused before any work (its shape is public)', async () => {
    expect(await work('sk_sandbox_short')).toEqual({ ok: false, queries: 0, hashes: 0, comparisons: 0 });
  });
});
