import { randomUUID } from 'node:crypto';
import { DevelopmentAddressDeriver } from '../../src/adapters/chains/development-address-deriver';
import { FakeChain, TestDeriver } from '../support/deposit-fakes';
import { gql as gqlHttp, subscribe, subscribed, type LiveSubscription } from '../support/graphql-client';
import { eventually, startTestService, type TestService } from '../support/test-service';

const MINT_USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const MINT_USDT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
const OTHER_MINT = 'So11111111111111111111111111111111111111112';
/** A GraphQL answer's body (data and errors). */
const gql = async (...args: Parameters<typeof gqlHttp>) => (await gqlHttp(...args)).body;
const DEPOSIT_FIELDS = 'id blockchain currency token amount remainderUnits sender depositAddress txHash index height confirmations status source ledgerTransactionId createdAt creditedAt droppedAt';

/**
 * The deposit API over HTTP and GraphQL (docs/decisions.md § Onchain deposits): deposit addresses
 * per chain and currency (a configured chain for every tenant; the development key for sandbox
 * tenants on the chain nobody configured), the deposit list and reads with their filters and
 * paging, the `depositUpdated` subscription, and the operators' findings, driven by a scripted
 * Solana chain through the real watcher and PostgreSQL.
 */
describe('deposits API', () => {
  const chain = new FakeChain('SOLANA');
  const deriver = new TestDeriver(randomUUID());
  let service: TestService;
  let admin: string;
  const open: LiveSubscription[] = [];
  beforeAll(async () => {
    service = await startTestService({ CHAIN_WATCH_INTERVAL_MS: '50', CHAIN_WATCH_LEASE_MS: '1000' }, {
      chains: [{ chain: 'SOLANA', reader: chain, deriver, keyId: `test-${randomUUID()}`, developmentKey: false }],
    });
    await service.database.orm.em.fork().getConnection().execute("delete from chain_watchers where blockchain = 'SOLANA'");
    admin = await service.newAdminKey();
  });
  afterAll(async () => {
    await Promise.all(open.map((s) => s.dispose()));
    await service.close();
  });

  const get = (apiKey: string, path: string) => service.call('GET', path, { apiKey });
  const ownerOf = async (apiKey: string) => (await get(apiKey, '/v1/deposit-addresses')).body.find((a: { blockchain: string }) => a.blockchain === 'SOLANA').ownerAddress as string;
  const settle = async (apiKey: string, ids: string[], status: string) => eventually(async () => {
    const all = (await get(apiKey, '/v1/deposits?limit=100')).body as { id: string; status: string }[];
    return ids.every((id) => all.find((d) => d.id === id)?.status === status) ? all : undefined;
  });

  it('gives each tenant its own addresses per chain and currency, the same on every read, in REST and GraphQL', async () => {
    const a = await service.newTenant('0');
    const b = await service.newTenant('0');
    const first = await get(a.apiKey, '/v1/deposit-addresses');
    expect(first.status).toBe(200);
    const solanaOwner = first.body[2].ownerAddress;
    const bscOwner = first.body[0].ownerAddress;
    expect(first.body).toEqual([
      { blockchain: 'BSC', currency: 'USDT', address: bscOwner, ownerAddress: bscOwner, token: '0x55d398326f99059ff775485246999027b3197955' },
      { blockchain: 'BSC', currency: 'USDC', address: bscOwner, ownerAddress: bscOwner, token: '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d' },
      { blockchain: 'SOLANA', currency: 'USDC', address: deriver.paymentAddress('SOLANA', 'USDC', solanaOwner), ownerAddress: solanaOwner, token: MINT_USDC },
      { blockchain: 'SOLANA', currency: 'USDT', address: deriver.paymentAddress('SOLANA', 'USDT', solanaOwner), ownerAddress: solanaOwner, token: MINT_USDT },
    ]);
    // BSC has no chain configured here: the development key's address of the index drawn.
    const [row] = await service.database.orm.em.fork().getConnection().execute(
      "select derivation_index from deposit_addresses where tenant_id = ? and blockchain = 'BSC'", [a.tenantId]);
    expect(bscOwner).toBe(new DevelopmentAddressDeriver([]).addressAt('BSC', Number(row!.derivation_index)));
    expect((await get(a.apiKey, '/v1/deposit-addresses')).body).toEqual(first.body);
    const theirs = (await get(b.apiKey, '/v1/deposit-addresses')).body;
    expect(new Set([...first.body, ...theirs].map((x: { ownerAddress: string }) => x.ownerAddress)).size).toBe(4);
    const graphql = await gql(service.baseUrl, '{ depositAddresses { blockchain currency address ownerAddress token } }', {}, a.apiKey);
    expect(graphql.data.depositAddresses).toEqual(first.body);
  });

  it('gives a live tenant addresses on the configured chain only, never the development key\'s', async () => {
    const live = await service.call('POST', '/v1/admin/tenants', { apiKey: admin, body: { name: `Live ${randomUUID()}`, environment: 'live' } });
    const key = await service.call('POST', `/v1/admin/tenants/${live.body.tenantId}/api-keys`, { apiKey: admin, body: { scope: 'issuer' } });
    const addresses = (await get(key.body.apiKey, '/v1/deposit-addresses')).body;
    expect(addresses.map((x: { blockchain: string; currency: string }) => `${x.blockchain} ${x.currency}`)).toEqual(['SOLANA USDC', 'SOLANA USDT']);
  });

  it('lists and reads deposits detected then credited, with confirmations, filters and Link paging; another tenant\'s is 404', async () => {
    const { apiKey } = await service.newTenant('0');
    const other = await service.newTenant('0');
    const to = await ownerOf(apiKey);
    const block = chain.mine({ to, token: MINT_USDC, units: 1_500_000n, tx: 't' }, { to, token: MINT_USDT, units: 2_000_001n, tx: 't' }, { to, token: MINT_USDC, units: 3_000_000n });
    const detected = await eventually(async () => {
      const page = (await get(apiKey, '/v1/deposits')).body;
      return page.length === 3 ? page : undefined;
    });
    expect(detected.map((d: { status: string }) => d.status)).toEqual(['detected', 'detected', 'detected']);
    const byAmount = Object.fromEntries(detected.map((d: { amount: string }) => [d.amount, d]));
    expect(byAmount['2.000001']).toMatchObject({
      blockchain: 'SOLANA', currency: 'USDT', token: MINT_USDT, remainderUnits: '0', sender: block.transfers[1]!.from, depositAddress: to,
      txHash: block.transfers[0]!.txHash, index: 1, height: Number(block.height), status: 'detected', source: 'chain', ledgerTransactionId: null,
      creditedAt: null, droppedAt: null,
    });
    const ids = detected.map((d: { id: string }) => d.id);

    chain.mine();
    chain.finalize();
    const credited = await settle(apiKey, ids, 'credited');
    const one = (await get(apiKey, `/v1/deposits/${ids[0]}`)).body;
    expect(one).toEqual({ ...credited.find((d: { id: string }) => d.id === ids[0]), confirmations: expect.any(Number) });
    expect(one.confirmations).toBeGreaterThanOrEqual(2);
    expect((await get(other.apiKey, `/v1/deposits/${ids[0]}`)).status).toBe(404);
    expect((await get(other.apiKey, '/v1/deposits')).body).toEqual([]);

    const usdc = (await get(apiKey, '/v1/deposits?currency=USDC&status=credited&blockchain=SOLANA')).body;
    expect(usdc.map((d: { amount: string }) => d.amount).sort()).toEqual(['1.500000', '3.000000']);
    expect((await get(apiKey, '/v1/deposits?status=dropped,detected')).body).toEqual([]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await get(apiKey, `/v1/deposits?createdFrom=${future}`)).body).toEqual([]);
    const firstPage = await get(apiKey, '/v1/deposits?limit=2&currency=USDC,USDT');
    expect(firstPage.body).toHaveLength(2);
    const link = /^<([^>]+)>; rel="next"$/.exec(firstPage.headers.get('link') ?? '')![1]!;
    expect(link).toContain('currency=USDC&currency=USDT');
    const secondPage = await get(apiKey, link);
    expect([...firstPage.body, ...secondPage.body].map((d: { id: string }) => d.id).sort()).toEqual([...ids].sort());
    expect(secondPage.headers.get('link')).toBeNull();
  });

  it.each([
    ['limit=0', 'query.limit'], ['limit=101', 'query.limit'], ['status=lost', 'query.status.0'], ['blockchain=ETH', 'query.blockchain.0'],
    ['createdFrom=yesterday', 'query.createdFrom'], ['cursor=nope', 'query.cursor'], ['unknown=1', ''],
    [`createdFrom=2026-11-02T00:00:00Z&createdTo=2026-11-01T00:00:00Z`, 'query.createdFrom'],
  ])('GET /v1/deposits?%s is 400 validation_error', async (query, path) => {
    const { apiKey } = await service.newTenant('0');
    const res = await get(apiKey, `/v1/deposits?${query}`);
    expect([res.status, res.body.code]).toEqual([400, 'validation_error']);
    if (path) expect(res.body.details.fields.map((f: { path: string }) => f.path)).toContain(path);
  });

  it('serves the same deposits in GraphQL: deposits with filter and paging, deposit(id), node(id); another tenant\'s is null with not_found', async () => {
    const { apiKey } = await service.newTenant('0');
    const other = await service.newTenant('0');
    const to = await ownerOf(apiKey);
    chain.mine({ to, token: MINT_USDC, units: 10_000_000n }, { to, token: MINT_USDT, units: 20_000_000n });
    chain.mine();
    chain.finalize();
    const rest = await eventually(async () => {
      const all = (await get(apiKey, '/v1/deposits')).body;
      return all.length === 2 && all.every((d: { status: string }) => d.status === 'credited') ? all : undefined;
    });
    const page = await gql(service.baseUrl, `query($after: String) { deposits(first: 1, after: $after, filter: { status: [CREDITED], blockchain: [SOLANA] }) {
      edges { cursor node { ${DEPOSIT_FIELDS} } } pageInfo { hasNextPage endCursor } } }`, {}, apiKey);
    const restAsGraphql = (d: Record<string, unknown>) => ({ ...d, status: String(d.status).toUpperCase(), source: String(d.source).toUpperCase() });
    expect(page.data.deposits.edges.map((e: { node: unknown }) => e.node)).toEqual([restAsGraphql(rest[0])]);
    expect(page.data.deposits.pageInfo.hasNextPage).toBe(true);
    const next = await gql(service.baseUrl, `query($after: String) { deposits(first: 1, after: $after) { nodes { id } pageInfo { hasNextPage } } }`,
      { after: page.data.deposits.pageInfo.endCursor }, apiKey);
    expect(next.data.deposits).toEqual({ nodes: [{ id: rest[1].id }], pageInfo: { hasNextPage: false } });
    const single = await gql(service.baseUrl, `query($id: ID!) { deposit(id: $id) { ${DEPOSIT_FIELDS} } node(id: $id) { id ... on Deposit { amount } } }`, { id: rest[1].id }, apiKey);
    expect(single.data).toEqual({ deposit: restAsGraphql(rest[1]), node: { id: rest[1].id, amount: rest[1].amount } });
    const foreign = await gql(service.baseUrl, 'query($id: ID!) { deposit(id: $id) { id } }', { id: rest[1].id }, other.apiKey);
    expect(foreign.data).toEqual({ deposit: null });
    expect(foreign.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['not_found']);
    const bad = await gql(service.baseUrl, '{ deposits(first: 0) { nodes { id } } }', {}, apiKey);
    expect(bad.errors[0].extensions.code).toBe('validation_error');
  });

  it('streams the caller\'s deposit changes over graphql-ws: detected then credited; another tenant sees nothing', async () => {
    const mine = await service.newTenant('0');
    const theirs = await service.newTenant('0');
    const query = 'subscription($status: [DepositStatus!]) { depositUpdated(status: $status) { id status amount confirmations } }';
    const watching = subscribe(service.baseUrl, mine.apiKey, query);
    const onlyCredited = subscribe(service.baseUrl, mine.apiKey, query, { status: ['CREDITED'] });
    const other = subscribe(service.baseUrl, theirs.apiKey, query);
    open.push(watching, onlyCredited, other);
    await subscribed(service, 3);
    chain.mine({ to: await ownerOf(mine.apiKey), token: MINT_USDC, units: 7_000_000n });
    const [detected] = await watching.until((r) => r.length >= 1);
    expect(detected.data.depositUpdated).toMatchObject({ status: 'DETECTED', amount: '7.000000' });
    chain.mine();
    chain.finalize();
    const both = await watching.until((r) => r.length >= 2);
    expect(both.map((r) => [r.data.depositUpdated.id, r.data.depositUpdated.status])).toEqual([
      [detected.data.depositUpdated.id, 'DETECTED'], [detected.data.depositUpdated.id, 'CREDITED'],
    ]);
    await onlyCredited.until((r) => r.length >= 1);
    expect(onlyCredited.results.map((r) => r.data.depositUpdated.status)).toEqual(['CREDITED']);
    expect(other.results).toEqual([]);
  });

  it('records another token sent to a deposit address as a finding for operators, never a deposit', async () => {
    const { apiKey, tenantId } = await service.newTenant('0');
    const to = await ownerOf(apiKey);
    const block = chain.mine({ to, token: OTHER_MINT, units: 5_000_000_000n, decimals: 9 });
    chain.finalize();
    const finding = await eventually(async () => {
      const all = (await service.call('GET', '/v1/admin/deposit-findings?limit=500', { apiKey: admin })).body;
      return all.find((f: { tenantId: string }) => f.tenantId === tenantId);
    });
    expect(finding).toEqual({
      id: expect.any(String), kind: 'foreign_token', tenantId, blockchain: 'SOLANA', txHash: block.transfers[0]!.txHash, index: 0, token: OTHER_MINT,
      sender: block.transfers[0]!.from, depositAddress: to, units: '5000000000', decimals: 9, height: Number(block.height), createdAt: expect.any(String),
    });
    expect((await get(apiKey, '/v1/deposits')).body).toEqual([]);
    expect((await service.call('GET', '/v1/admin/deposit-findings', { apiKey })).status).toBe(403);
  });
});
