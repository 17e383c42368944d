import { randomUUID } from 'node:crypto';
import { gql } from '../support/graphql-client';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

const MONEY_OUT = 'mutation($input: MoneyOutInput!, $key: String!) { createMoneyOut(input: $input, idempotencyKey: $key) { payment { id } } }';
/**
 * An EIP-55 address (one of https://eips.ethereum.org/EIPS/eip-55's examples, no deposit address of
 * the development key), and the same with one letter's case changed.
 */
const CHECKSUMMED = '0x52908400098527886E0F7030069857D2E4169EE7';
const BAD_CHECKSUM = '0x52908400098527886e0F7030069857D2E4169EE7';
/** base58 of 31 and of 33 bytes of 0x07 (42 and 45 characters), and 44 characters that decode to 33 bytes. */
const BYTES_31 = '7DUeBUtEcb7nujVZRJmeBju3X1mo6PpnWNtJ9EBhdY';
const BYTES_33 = '365efUdXGhRExyDEUeKXWPg1zTZyfvuJQJDLsS7JZqzyt';
const BYTES_33_IN_44 = 'z'.repeat(44);

/**
 * The money-out's refundAddress checked for its chain (docs/decisions.md § Refunds: refund
 * addresses), through REST and GraphQL alike: refused with a 422 code of its own, nothing written;
 * a well-formed address of the caller's own is taken.
 */
describe('refundAddress at money-out', () => {
  let service: TestService;
  let tenant: { tenantId: string; apiKey: string };
  let other: { tenantId: string; apiKey: string };
  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
    tenant = await service.newTenant();
    other = await service.newTenant();
  });
  afterAll(() => service.close());

  const sql = <T>(text: string, params: unknown[] = []) => service.database.orm.em.fork().getConnection().execute(text, params) as Promise<T[]>;
  /** Rows a money-out of `tenantId` would write: payments, idempotency records, holds. */
  const writes = async (tenantId: string) => (await sql<{ n: number }>(
    `select ((select count(*) from payments where tenant_id = ?) + (select count(*) from idempotency_keys where tenant_id = ?)
          + (select count(*) from ledger_transactions where tenant_id = ? and kind = 'hold'))::int as n`, [tenantId, tenantId, tenantId]))[0]!.n;
  const rest = (blockchain: string, refundAddress: string) => service.call('POST', '/v1/payments/moneyout', {
    apiKey: tenant.apiKey, body: moneyOutBody({ blockchain, refundAddress, reference: `ref-${randomUUID()}` }), headers: { 'idempotency-key': randomUUID() },
  });
  const graphql = (blockchain: string, refundAddress: string) =>
    gql(service.baseUrl, MONEY_OUT, { input: moneyOutBody({ blockchain, refundAddress, reference: `ref-${randomUUID()}` }), key: randomUUID() }, tenant.apiKey);

  it.each([
    ['BSC', CHECKSUMMED.toLowerCase(), 'valid lower-case'],
    ['BSC', CHECKSUMMED, 'valid checksum'],
    ['SOLANA', '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', '32 bytes'],
  ])('takes a %s address %s (%s) over REST and GraphQL', async (blockchain, address) => {
    const created = await rest(blockchain, address);
    expect([created.status, created.body.status]).toEqual([201, 'initiated']);
    const viaGraphql = await graphql(blockchain, address);
    expect([viaGraphql.body.errors, viaGraphql.body.data?.createMoneyOut.payment.id]).toEqual([undefined, expect.stringMatching(/^pay_/)]);
  });

  it.each([
    ['BSC', BAD_CHECKSUM, 'refund_address_bad_checksum', 'bad checksum'],
    ['BSC', `0x${'a'.repeat(39)}`, 'refund_address_invalid', 'wrong length (39 hex digits)'],
    ['BSC', `0x${'a'.repeat(41)}`, 'refund_address_invalid', 'wrong length (41 hex digits)'],
    ['BSC', '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', 'refund_address_invalid', 'another chain\'s address'],
    ['SOLANA', '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAs0', 'refund_address_invalid', 'non-base58 (0)'],
    ['SOLANA', '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsl', 'refund_address_invalid', 'non-base58 (l)'],
    ['SOLANA', BYTES_31, 'refund_address_invalid', '31 bytes'],
    ['SOLANA', BYTES_33, 'refund_address_invalid', '33 bytes'],
    ['SOLANA', BYTES_33_IN_44, 'refund_address_invalid', '33 bytes in 44 characters'],
  ])('refuses %s %s with 422 %s (%s), over REST and GraphQL, writing nothing', async (blockchain, address, code) => {
    const before = await writes(tenant.tenantId);
    const refused = await rest(blockchain, address);
    expect([refused.status, refused.body.code, refused.body.statusCode]).toEqual([422, code, 422]);
    expect(refused.body.message).toMatch(/^refundAddress /);
    const viaGraphql = await graphql(blockchain, address);
    expect([viaGraphql.body.data, viaGraphql.body.errors?.[0]?.extensions?.code]).toEqual([null, code]);
    expect(await writes(tenant.tenantId)).toBe(before);
  });

  it("refuses another tenant's deposit address, and the caller's own, in any case: 422 refund_address_is_ours, writing nothing", async () => {
    const addresses = (await service.call('GET', '/v1/deposit-addresses', { apiKey: other.apiKey })).body as { blockchain: string; ownerAddress: string }[];
    const mine = (await service.call('GET', '/v1/deposit-addresses', { apiKey: tenant.apiKey })).body as { blockchain: string; ownerAddress: string }[];
    const owners = [...addresses, ...mine].map((a) => [a.blockchain, a.ownerAddress] as const);
    // The sandbox's development keys serve both chains here.
    expect([...new Set(owners.map(([chain]) => chain))].sort()).toEqual(['BSC', 'SOLANA']);
    const bsc = owners.find(([chain]) => chain === 'BSC')!;
    owners.push(['BSC', bsc[1].toLowerCase()], ['BSC', `0x${bsc[1].slice(2).toUpperCase()}`]);
    const before = await writes(tenant.tenantId);
    for (const [blockchain, address] of owners) {
      const refused = await rest(blockchain, address);
      expect([blockchain, refused.status, refused.body.code]).toEqual([blockchain, 422, 'refund_address_is_ours']);
      const viaGraphql = await graphql(blockchain, address);
      expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('refund_address_is_ours');
    }
    expect(await writes(tenant.tenantId)).toBe(before);
  });
});
