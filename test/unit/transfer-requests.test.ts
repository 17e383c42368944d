import { createTransferRequest, getTransferRequest, resolveTransferLink, type TransferDeps, type TransferRequestCommand } from '../../src/core/transfers/create-transfer-request';
import type { TransferRequest, TransferRequestStore } from '../../src/core/transfers/transfer-request';
import { err, ok } from '../../src/core/shared/result';
import { FixedClock, SequentialIds } from '../support/fakes';
import { catalog } from '../support/fake-world';

/** Transfer requests kept in memory, tenant-scoped by reference as the port requires. */
class MemoryTransfers implements TransferRequestStore {
  readonly rows: TransferRequest[] = [];
  async insert(request: TransferRequest) {
    if (this.rows.some((r) => r.tenantId === request.tenantId && r.reference === request.reference)) return 'duplicate_reference' as const;
    this.rows.push(request);
    return 'inserted' as const;
  }
  async findByReference(tenantId: string, reference: string) {
    return this.rows.find((r) => r.tenantId === tenantId && r.reference === reference);
  }
  async findByToken(token: string) {
    return this.rows.find((r) => r.token === token);
  }
}

const command = (o: Partial<TransferRequestCommand> = {}): TransferRequestCommand => ({
  recipient: 'shop-1', amount: '150.5', acquirerMerchantName: 'ACQ_1', reference: 'tr-1', merchantID: 'm-1', ...o,
});

/** Transfer requests and their deeplinks (OpenAPI createTransferRequest, resolveTransferLink) on in-memory ports. */
describe('transfer requests on fakes', () => {
  let clock: FixedClock;
  let transfers: MemoryTransfers;
  let deps: TransferDeps;
  let tokens: number;
  beforeEach(() => {
    clock = new FixedClock();
    transfers = new MemoryTransfers();
    tokens = 0;
    deps = {
      catalog, transfers, clock, ids: new SequentialIds(), transferLinkTtlSeconds: 600,
      linkTokens: { next: () => `tok+${++tokens}/x`, looksValid: (t) => t.startsWith('tok+') },
    };
  });

  it('stores the request with defaults and returns the acquirer\'s deeplink with the token URL-encoded', async () => {
    expect(await createTransferRequest(deps, 'ten_A', command())).toEqual(ok({ link: 'https://pay.acquirer-one.example/transfer?token=tok%2B1%2Fx' }));
    expect(transfers.rows).toEqual([expect.objectContaining({
      id: 'trq_00000000000000000000000001', tenantId: 'ten_A', reference: 'tr-1', recipient: 'shop-1', amount: '150.50', currency: 'USDC',
      acquirer: 'ACQ_1', merchantId: 'm-1', description: null, successUrl: null, failedUrl: null, webhookUrl: null, customReference: null,
      merchantCategoryCode: null, paymentProcessor: 'PROCESSOR_1', terminalType: 'APP', token: 'tok+1/x',
      expiresAt: new Date(clock.now().getTime() + 600_000), createdAt: clock.now(),
    })]);
  });

  it('keeps every optional field it is given', async () => {
    const full = command({
      acquirerMerchantName: 'ACQ_2', description: 'd', successUrl: 'https://s.example/ok', failedUrl: 'http://f.example/no', webhookUrl: 'https://w.example/h',
      customReference: 'c', merchantCategoryCode: '02', paymentProcessor: 'PROCESSOR_1', terminalType: 'WEB', currency: 'ZAR', amount: 7,
    });
    expect(await createTransferRequest(deps, 'ten_A', full)).toEqual(ok({ link: 'https://checkout.acquirer-two.example/t/tok%2B1%2Fx' }));
    expect(transfers.rows[0]).toMatchObject({
      amount: '7.00', currency: 'ZAR', acquirer: 'ACQ_2', description: 'd', successUrl: 'https://s.example/ok', failedUrl: 'http://f.example/no',
      webhookUrl: 'https://w.example/h', customReference: 'c', merchantCategoryCode: '02', terminalType: 'WEB',
    });
  });

  it.each([
    ['amount 0.001', { amount: '0.001' }, 'amount allows a multiple of 0.01', 'amount'],
    ['amount 0', { amount: 0 }, 'amount must be greater than 0', 'amount'],
    ['amount abc', { amount: 'abc' }, 'amount must be a positive decimal number', 'amount'],
    ['blank recipient', { recipient: ' ' }, 'recipient must not be blank', 'recipient'],
    ['blank reference', { reference: '' }, 'reference must not be blank', 'reference'],
    ['blank merchantID', { merchantID: '  ' }, 'merchantID must not be blank', 'merchantID'],
    ['long description', { description: 'x'.repeat(101) }, 'description must be at most 100 characters', 'description'],
    ['long customReference', { customReference: 'x'.repeat(101) }, 'customReference must be at most 100 characters', 'customReference'],
    ['long successUrl', { successUrl: `https://a.example/${'x'.repeat(240)}` }, 'successUrl must be at most 256 characters', 'successUrl'],
    ['ftp failedUrl', { failedUrl: 'ftp://a.example/' }, 'failedUrl must be an http(s) URL', 'failedUrl'],
    ['relative webhookUrl', { webhookUrl: '/hook' }, 'webhookUrl must be an http(s) URL', 'webhookUrl'],
    ['category 03', { merchantCategoryCode: '03' }, 'merchantCategoryCode must be 01 (tangible goods) or 02 (virtual goods)', 'merchantCategoryCode'],
    ['unknown acquirer', { acquirerMerchantName: 'ACQ_9' }, 'acquirerMerchantName must be one of ACQ_1, ACQ_2, ACQ_3', 'acquirerMerchantName'],
    ['unknown processor', { paymentProcessor: 'PROCESSOR_2' }, 'paymentProcessor must be PROCESSOR_1', 'paymentProcessor'],
  ] as [string, Partial<TransferRequestCommand>, string, string][])('refuses %s, writing nothing', async (_name, o, message, field) => {
    expect(await createTransferRequest(deps, 'ten_A', command(o))).toEqual(err('validation_error', message, { field }));
    expect(transfers.rows).toEqual([]);
  });

  it('accepts the limits themselves: 0.01, 100 characters, a 256-character URL', async () => {
    const url = `https://a.example/${'x'.repeat(256 - 'https://a.example/'.length)}`;
    expect(url).toHaveLength(256);
    const r = await createTransferRequest(deps, 'ten_A', command({ amount: '0.01', description: 'x'.repeat(100), customReference: 'y'.repeat(100), successUrl: url, merchantCategoryCode: '01' }));
    expect(r.ok).toBe(true);
  });

  it('refuses a reference the tenant already used; another tenant may use it', async () => {
    await createTransferRequest(deps, 'ten_A', command());
    expect(await createTransferRequest(deps, 'ten_A', command())).toEqual(err('duplicate_reference', 'A transfer request with reference tr-1 already exists'));
    expect((await createTransferRequest(deps, 'ten_B', command())).ok).toBe(true);
  });

  it('reads a request by reference: pending until its expiry instant, expired from it; another tenant\'s is not found', async () => {
    await createTransferRequest(deps, 'ten_A', command());
    const view = {
      reference: 'tr-1', link: 'https://pay.acquirer-one.example/transfer?token=tok%2B1%2Fx', amount: '150.50', currency: 'USDC',
      acquirerMerchantName: 'ACQ_1', recipient: 'shop-1', createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-01T00:10:00.000Z',
    };
    clock.advance(599_999);
    expect(await getTransferRequest(deps, 'ten_A', 'tr-1')).toEqual(ok({ ...view, status: 'pending' }));
    clock.advance(1);
    expect(await getTransferRequest(deps, 'ten_A', 'tr-1')).toEqual(ok({ ...view, status: 'expired' }));
    expect(await getTransferRequest(deps, 'ten_B', 'tr-1')).toEqual(err('not_found', 'Transfer request tr-1 not found'));
  });

  it('resolves a deeplink token to what the acquirer needs, until the request expires', async () => {
    await createTransferRequest(deps, 'ten_A', command({ description: 'd', merchantCategoryCode: '01' }));
    clock.advance(599_999);
    expect(await resolveTransferLink(deps, 'tok+1/x')).toEqual(ok({
      id: 'trq_00000000000000000000000001', acquirerMerchantName: 'ACQ_1', merchantID: 'm-1', recipient: 'shop-1', amount: '150.50', currency: 'USDC',
      description: 'd', customReference: null, merchantCategoryCode: '01', paymentProcessor: 'PROCESSOR_1', terminalType: 'APP',
      successUrl: null, failedUrl: null, webhookUrl: null, expiresAt: '2026-01-01T00:10:00.000Z',
    }));
    clock.advance(1);
    expect(await resolveTransferLink(deps, 'tok+1/x')).toEqual(err('link_expired', 'This transfer link has expired'));
  });

  it('answers not_found for an unknown token, and for a malformed one without a lookup', async () => {
    await createTransferRequest(deps, 'ten_A', command());
    expect(await resolveTransferLink(deps, 'tok+9')).toEqual(err('not_found', 'No transfer request has this link'));
    const lookups: string[] = [];
    const store: TransferRequestStore = {
      insert: (r) => transfers.insert(r), findByReference: (t, r) => transfers.findByReference(t, r),
      findByToken: async (t) => (lookups.push(t), transfers.findByToken(t)),
    };
    const spying = { ...deps, transfers: store };
    transfers.rows[0]!.token = 'bad';
    expect(await resolveTransferLink(spying, 'bad')).toEqual(err('not_found', 'No transfer request has this link'));
    expect(lookups).toEqual([]);
  });
});
