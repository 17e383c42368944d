import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { cliCommand } from '../support/child-process';
import { startTestService, type TestService } from '../support/test-service';
import { base58Encode, bscTxHash, solanaTxHash } from '../support/tx-hashes';

/** One onchain deposit is credited once, across all tenants, in canonical form. */
describe('deposits: one credit per (blockchain, transaction hash, index) across tenants', () => {
  let service: TestService;
  let admin: string;
  beforeAll(async () => {
    service = await startTestService();
    admin = await service.newAdminKey();
  });
  afterAll(() => service.close());

  const deposit = (tenantId: string, body: Record<string, unknown>) =>
    service.call('POST', `/v1/admin/tenants/${tenantId}/deposits`, { apiKey: admin, body: { currency: 'USDC', amount: '250', ...body } });
  const count = async (sql: string, params: unknown[] = []) =>
    Number(((await service.database.orm.em.fork().getConnection().execute(sql, params)) as { n: string }[])[0]!.n);
  /** Everything a deposit writes for these tenants (other test files share the database). */
  const written = async (...tenantIds: string[]) => ({
    deposits: await count('select count(*) as n from deposits where tenant_id in (?)', [tenantIds]),
    ledger: await count('select count(*) as n from ledger_transactions where tenant_id in (?)', [tenantIds]),
    entries: await count(
      'select count(*) as n from ledger_entries e join ledger_transactions t on t.id = e.transaction_id where t.tenant_id in (?)', [tenantIds]),
  });
  const usdcOf = async (apiKey: string) =>
    (await service.call('GET', '/v1/balances', { apiKey })).body.find((b: { currency: string }) => b.currency === 'USDC').available;

  it.each([['SOLANA', solanaTxHash], ['BSC', bscTxHash]] as const)(
    '%s: the hash credited to tenant C is 409 duplicate_deposit for tenant B, and nothing is written',
    async (blockchain, hash) => {
      const c = await service.newTenant('0');
      const b = await service.newTenant('0');
      const txHash = hash();
      const first = await deposit(c.tenantId, { blockchain, txHash });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({ depositId: expect.stringMatching(/^dep_[0-9A-Z]{26}$/), currency: 'USDC', amount: '250.000000', txHash, index: 0 });
      const before = await written(b.tenantId, c.tenantId);
      const second = await deposit(b.tenantId, { blockchain, txHash });
      expect(second.status).toBe(409);
      expect(second.body).toEqual({ statusCode: 409, code: 'duplicate_deposit', message: expect.any(String), details: { requestId: expect.any(String) } });
      expect(await written(b.tenantId, c.tenantId)).toEqual(before);
      expect(await usdcOf(b.apiKey)).toBe('0.000000');
      expect(await usdcOf(c.apiKey)).toBe('250.000000');
    },
  );

  it('another index of a credited hash is another deposit; the same index again is 409 for any tenant', async () => {
    const a = await service.newTenant('0');
    const b = await service.newTenant('0');
    const txHash = bscTxHash();
    expect((await deposit(a.tenantId, { blockchain: 'BSC', txHash })).status).toBe(201);
    const third = await deposit(b.tenantId, { blockchain: 'BSC', txHash, index: 3 });
    expect([third.status, third.body.index]).toEqual([201, 3]);
    const again = await deposit(a.tenantId, { blockchain: 'BSC', txHash, index: 3 });
    expect([again.status, again.body.code]).toEqual([409, 'duplicate_deposit']);
    expect(await count('select count(*) as n from ledger_transactions where external_ref in (?)', [[`BSC:${txHash}`, `BSC:${txHash}:3`]])).toBe(2);
    expect([await usdcOf(a.apiKey), await usdcOf(b.apiKey)]).toEqual(['250.000000', '250.000000']);
    for (const index of [-1, 1.5, 2 ** 31, '3']) {
      const bad = await deposit(a.tenantId, { blockchain: 'BSC', txHash: bscTxHash(), index });
      expect({ index, status: bad.status, code: bad.body.code }).toEqual({ index, status: 400, code: 'validation_error' });
    }
  });

  it('BSC hashes compare in lower case: 0xDEPC1... after 0xdepc1... is 409; the stored and returned hash is lower case', async () => {
    const { tenantId } = await service.newTenant('0');
    const other = await service.newTenant('0');
    const lower = `0xdec1${randomBytes(30).toString('hex')}`;
    const first = await deposit(tenantId, { blockchain: 'BSC', txHash: lower.toUpperCase().replace('0X', '0x') });
    expect(first.status).toBe(201);
    expect(first.body.txHash).toBe(lower);
    for (const variant of [lower, `0x${lower.slice(2, 20).toUpperCase()}${lower.slice(20)}`]) {
      const again = await deposit(other.tenantId, { blockchain: 'BSC', txHash: variant });
      expect({ variant, status: again.status, code: again.body.code }).toEqual({ variant, status: 409, code: 'duplicate_deposit' });
    }
    expect(await count('select count(*) as n from deposits where tx_hash = ?', [lower])).toBe(1);
  });

  const solanaAddress = base58Encode(randomBytes(32));
  const BAD_HASHES: [string, string, () => string][] = [
    ['BSC', 'a leading space', () => ` ${bscTxHash()}`],
    ['BSC', 'a trailing newline', () => `${bscTxHash()}\n`],
    ['BSC', '63 hex digits', () => bscTxHash().slice(0, -1)],
    ['BSC', '65 hex digits', () => `${bscTxHash()}a`],
    ['BSC', 'no 0x', () => bscTxHash().slice(2)],
    ['BSC', 'an upper-case 0X', () => `0X${bscTxHash().slice(2)}`],
    ['BSC', 'a non-hex digit', () => `0x${'g'.repeat(64)}`],
    ['BSC', 'a Solana signature', solanaTxHash],
    ['SOLANA', 'a leading space', () => ` ${solanaTxHash()}`],
    ['SOLANA', 'a trailing space', () => `${solanaTxHash()} `],
    ['SOLANA', 'a BSC hash', bscTxHash],
    ['SOLANA', 'a 32-byte address', () => solanaAddress],
    ['SOLANA', '88 base58 characters worth 65 bytes', () => 'z'.repeat(88)],
    ['SOLANA', 'base58 of 65 bytes', () => base58Encode(Buffer.concat([Buffer.from([255]), randomBytes(64)]))],
    ['SOLANA', 'a character outside base58 (0)', () => `0${solanaTxHash().slice(1)}`],
    ['SOLANA', 'a character outside base58 (l)', () => `l${solanaTxHash().slice(1)}`],
    ['SOLANA', 'a UUID', () => '3f1c1a2e-8c3b-4c8e-9d3a-1f2e3d4c5b6a'],
  ];
  it.each(BAD_HASHES)('%s txHash with %s is 400 validation_error naming txHash, nothing written', async (blockchain, _label, hash) => {
    const { tenantId } = await service.newTenant('0');
    const before = await written(tenantId);
    const res = await deposit(tenantId, { blockchain, txHash: hash() });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, code: 'validation_error', message: expect.stringContaining('txHash'), details: { requestId: expect.any(String), fields: expect.any(Array) } });
    expect(await written(tenantId)).toEqual(before);
  });

  it('20 concurrent credits of one hash to 20 tenants: exactly one 201', async () => {
    const tenants = await Promise.all(Array.from({ length: 20 }, () => service.newTenant('0')));
    const txHash = solanaTxHash();
    const results = await Promise.all(tenants.map((t) => deposit(t.tenantId, { blockchain: 'SOLANA', txHash })));
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array<number>(19).fill(409)]);
    expect(await count('select count(*) as n from ledger_transactions where external_ref = ?', [`SOLANA:${txHash}`])).toBe(1);
  });

  it('a sandbox tenant\'s funding is sandbox_funding with no hash, not a deposit', async () => {
    const { apiKey } = await service.newTenant('100');
    const entries = (await service.call('GET', '/v1/balances/transactions', { apiKey })).body;
    expect(entries).toEqual([
      expect.objectContaining({ kind: 'sandbox_funding', txHash: null, amount: '100.000000' }),
      expect.objectContaining({ kind: 'sandbox_funding', txHash: null, amount: '100.000000' }),
    ]);
  });

  it('sandbox funding is refused for a live tenant', async () => {
    const live = await service.call('POST', '/v1/admin/tenants', { apiKey: admin, body: { name: 'Live funding', environment: 'live' } });
    const funded = await service.container.admin.fundSandboxTenant(live.body.tenantId, { currency: 'USDC', amount: '100' });
    expect(funded.ok ? 'ok' : funded.code).toBe('forbidden');
    expect(await count('select count(*) as n from ledger_transactions where tenant_id = ?', [live.body.tenantId])).toBe(0);
  });

  it('the CLI deposits:create validates through the same use case', async () => {
    const { tenantId, apiKey } = await service.newTenant('0');
    const cli = (...args: string[]) => promisify(execFile)(...cliCommand('deposits:create', '--tenant', tenantId, ...args), {
      env: { ...process.env, DATABASE_URL: service.config.DATABASE_URL },
    });
    const txHash = bscTxHash();
    await expect(cli('--currency', 'USDC', '--amount', '10', '--blockchain', 'BSC', '--tx-hash', ` ${txHash}`))
      .rejects.toMatchObject({ stderr: expect.stringContaining('validation_error') });
    const ok = await cli('--currency', 'USDC', '--amount', '10', '--blockchain', 'BSC', '--tx-hash', txHash.toUpperCase().replace('0X', '0x'));
    expect(JSON.parse(ok.stdout)).toEqual({ depositId: expect.stringMatching(/^dep_/), currency: 'USDC', amount: '10.000000', txHash, index: 0 });
    await expect(cli('--currency', 'USDC', '--amount', '10', '--blockchain', 'BSC', '--tx-hash', txHash))
      .rejects.toMatchObject({ stderr: expect.stringContaining('duplicate_deposit') });
    expect(await usdcOf(apiKey)).toBe('10.000000');
  }, 60_000);
});
