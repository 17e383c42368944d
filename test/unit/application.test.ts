import { createApplication, type Application, type ApplicationDeps } from '../../src/core/application';
import { ApiKey } from '../../src/core/auth/api-key';
import { err, ok } from '../../src/core/shared/result';
import { command, fakeWorld, TENANT, type FakeWorld } from '../support/fake-world';
import { MemoryAddressRegistry, memoryDepositReader, TestDeriver } from '../support/deposit-fakes';

const KEY = '0f8fad5b-d9cb-469f-a165-70867728950e';
const BALANCE = { currency: 'USDC' as const, available: '1.000000', held: '0.000000', inTransit: '0.000000' };
const API_KEY = `sk_sandbox_${'A'.repeat(32)}`;

/**
 * The one surface REST and GraphQL call (docs/architecture.md): each method reaches its use case
 * with the caller's arguments. Ports are fakes or stubs that answer something recognisable.
 */
describe('createApplication', () => {
  let world: FakeWorld;
  let app: Application;
  let calls: string[];
  beforeEach(() => {
    world = fakeWorld();
    world.store.fund(TENANT, 'USDC', '100');
    calls = [];
    const deps: ApplicationDeps = {
      ...world.moneyOut,
      payments: world.store.reader,
      paymentList: { listForTenant: async (t, q) => (calls.push(`list ${t} ${q.first}`), { entries: [], hasNextPage: false, hasPreviousPage: false }) },
      keys: {
        findByLookup: async (lookup) => new ApiKey({
          id: 'key_1', tenantId: TENANT, scope: 'issuer', lookup, secretHash: `h(${API_KEY})`, label: 'k', createdAt: new Date(0), revokedAt: null,
        }),
      },
      hasher: { hash: (s) => `h(${s})`, equal: (a, b) => a === b },
      ledger: {
        balances: async (t) => (calls.push(`balances ${t}`), [BALANCE]),
        transactions: async (t, limit, cursor) => (calls.push(`transactions ${t} ${limit} ${cursor}`), cursor === 'bad' ? 'bad_cursor' as const : { entries: [], cursors: [] }),
        transaction: async () => undefined,
      },
      analytics: { summary: async (t, _f, _to, g) => (calls.push(`summary ${t} ${g}`), []) },
      quotes: { insert: async (q) => void calls.push(`quote ${q.tenantId}`), findForTenant: async () => undefined, consume: async () => false },
      quoteTtlSeconds: 60,
      webhooks: {
        insertUnderCap: async () => false, listForTenant: async (t) => (calls.push(`webhooks ${t}`), []), delete: async () => false,
        listEvents: async (t) => (calls.push(`events ${t}`), { entries: [], cursors: [] }), retryEvent: async () => undefined, findEvent: async () => undefined,
      },
      targets: { refusal: async () => undefined },
      secrets: { newSecret: () => 'whsec_x', seal: (s) => s, open: (s) => s },
      allowPrivateTargets: false, allowedPorts: [], maxRegistrationsPerTenant: 0,
      findTenant: async () => undefined, uuidFor: () => KEY,
      transfers: { insert: async () => 'inserted', findByReference: async () => undefined, findByToken: async () => undefined },
      linkTokens: { next: () => 'tok', looksValid: () => true }, transferLinkTtlSeconds: 60,
      customers: {
        insert: async () => 'inserted', findForTenant: async () => undefined, list: async (t) => (calls.push(`customers ${t}`), { entries: [], cursors: [] }),
        claimDue: async () => [], reschedule: async () => undefined,
      },
      accounts: {
        merchant: async () => ok({ accountName: 'Shop' }), mobileWallet: async () => ok(undefined), bankAccount: async () => ok({ accountId: 'a', accountName: 'Holder' }),
      },
      issuers: { walletAddress: async () => err('account_not_found', 'no such user') },
      serviceName: 'PAYOUT',
      operations: { recipients: async () => [], paymentEvents: async () => [], webhookHealth: async () => [] },
      deposits: memoryDepositReader(world.store),
      depositAddresses: new MemoryAddressRegistry(),
      tenantRefunds: { listForTenant: async () => ({ entries: [], cursors: [] }), forPayments: async () => [] },
      depositChains: [{ chain: 'SOLANA', deriver: new TestDeriver(), keyId: 'k', tokens: [{ chain: 'SOLANA', currency: 'USDC', token: 'MintC', decimals: 6 }], serves: ['sandbox'] }],
    };
    app = createApplication(deps);
  });

  it('authenticates a key through the store and hasher', async () => {
    expect(await app.authenticate(API_KEY)).toEqual(ok({ keyId: 'key_1', tenantId: TENANT, scope: 'issuer' }));
    expect((await app.authenticate('nope')).ok).toBe(false);
  });

  it('creates and reads a money-out for the calling tenant', async () => {
    const created = await app.createMoneyOut(TENANT, KEY, command());
    expect(created.ok && created.value.replayed).toBe(false);
    const id = created.ok ? created.value.payment.id : '';
    expect(world.created).toEqual([id]);
    expect(await app.getPayment(TENANT, id)).toEqual(ok(created.ok && created.value.payment));
    expect((await app.getPayment('ten_B', id)).ok).toBe(false);
  });

  it('passes each read to its port with the caller\'s tenant', async () => {
    expect(await app.getBalances(TENANT)).toEqual([BALANCE]);
    expect(await app.listPayments(TENANT, { first: 3 })).toEqual(ok({ entries: [], hasNextPage: false, hasPreviousPage: false }));
    expect(await app.listLedgerTransactions(TENANT, 5, 'c')).toEqual(ok({ entries: [], cursors: [] }));
    expect(await app.listLedgerTransactions(TENANT, 5, 'bad')).toEqual(err('validation_error', 'cursor is not valid', { field: 'cursor' }));
    expect(await app.analyticsSummary(TENANT, { from: new Date(0), to: new Date(1), groupBy: 'method' })).toEqual(ok([]));
    expect(await app.listWebhooks(TENANT)).toEqual([]);
    expect(await app.listWebhookEvents(TENANT, { limit: 1 })).toEqual(ok({ entries: [], cursors: [] }));
    expect(await app.listCustomers(TENANT, 2)).toEqual(ok({ entries: [], cursors: [] }));
    expect(calls).toEqual([
      `balances ${TENANT}`, `list ${TENANT} 3`, `transactions ${TENANT} 5 c`, `transactions ${TENANT} 5 bad`, `summary ${TENANT} method`,
      `webhooks ${TENANT}`, `events ${TENANT}`, `customers ${TENANT}`,
    ]);
  });

  it('quotes, and reaches each remaining use case with its arguments', async () => {
    const quote = await app.getFxQuote(TENANT, { amount: 1500, sourceCurrency: 'KES', destinationCurrency: 'USDC' });
    expect(quote.ok && quote.value.convertedAmount).toBe('12.115416');
    expect(calls).toEqual([`quote ${TENANT}`]);
    expect(await app.createLegacyPayout(TENANT, {
      amount: 1, destination: 'Till', accountNumber: '123456', accountName: 'a', reference: 'r', currency: 'KES', country: 'KE', code: 'MPESA',
    })).toEqual(err('tenant_not_configured', expect.any(String)));
    expect(await app.createTransferRequest(TENANT, { recipient: 'r', amount: 1, acquirerMerchantName: 'ACQ_1', reference: 'x', merchantID: 'm' }))
      .toEqual(ok({ link: 'https://pay.acquirer-one.example/transfer?token=tok' }));
    expect(await app.getTransferRequest(TENANT, 'x')).toEqual(err('not_found', 'Transfer request x not found'));
    expect(await app.resolveTransferLink('tok')).toEqual(err('not_found', 'No transfer request has this link'));
    expect((await app.createCustomer(TENANT, {
      externalId: 'e', firstName: 'f', lastName: 'l', country: 'KE', dateOfBirth: '1990-01-01', idType: 'PASSPORT', idNumber: 'A1234',
    }))).toEqual(err('provider_unavailable', 'No KYC provider is available for this tenant: no live rails'));
    expect(await app.getCustomer(TENANT, 'cus_1')).toEqual(err('not_found', 'Customer cus_1 not found'));
    expect(await app.registerWebhook(TENANT, { url: 'https://a.example/' })).toEqual(err('webhook_limit_reached', expect.any(String)));
    expect(await app.deleteWebhook(TENANT, 'w')).toEqual(err('not_found', 'Webhook w not found'));
    expect(await app.retryWebhookEvent(TENANT, 'd')).toEqual(err('not_found', 'Webhook event d not found'));
    expect(await app.listBanks(TENANT, 'NG')).toEqual(ok(world.moneyOut.catalog.countries.NG!.banks));
    expect(await app.listBanks(TENANT, 'KE')).toEqual(err('validation_error', 'country must be one of NG, ZA', { field: 'country' }));
    expect(await app.resolveMomo(TENANT, { type: 'till', accountNumber: '123456' })).toEqual(ok(expect.objectContaining({ valid: true, accountName: 'Shop' })));
    expect((await app.resolveBankAccount(TENANT, { accountNumber: '1234567890', currency: 'KES', bankCode: world.moneyOut.catalog.resolutionBankCodes[0]! } as never)).ok).toBe(true);
    const identifier = await app.resolveIdentifier({ issuer: world.moneyOut.catalog.walletIssuers[0]!.key, username: 'u', network: 'Solana' } as never);
    expect(identifier.ok ? identifier.value : identifier.code).toBe('account_not_found');
    expect(app.catalog).toBe(world.moneyOut.catalog);
  });

  it('reaches the deposit reads and assigns a deposit address for the caller\'s tenant', async () => {
    const addresses = await app.listDepositAddresses(TENANT);
    expect(addresses.map((a) => [a.blockchain, a.currency, a.ownerAddress])).toEqual([['SOLANA', 'USDC', new TestDeriver().addressAt('SOLANA', 0)]]);
    expect(await app.listDeposits(TENANT, { limit: 5 })).toEqual(ok({ entries: [], cursors: [] }));
    expect(await app.getDeposit(TENANT, 'dep_1')).toEqual(err('not_found', 'Deposit not found'));
  });
});
