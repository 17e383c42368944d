/**
 * Deposit senders screened on a real anvil (docs/decisions.md § Screening: deposits): the real
 * service watching BSC through viem, PostgreSQL, and an OFAC SDN list (the fixture in SDN.XML's
 * format) whose digital currency address is this run's second anvil account. A USDT transfer from
 * it is detected, then held at finality (never credited) with a review of kind `deposit` that can
 * only be rejected; a transfer from an unlisted sender is credited as before.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, startTestService, type TestService } from '../support/test-service';
import { available, bscAddressOf, depositsIn, forgetBscCursor, ONE, startBscServiceFixture, type BscServiceFixture } from '../support/chains/bsc-service-fixture';

jest.setTimeout(60_000);

/** The listed sender: anvil account 2 (account 1 is the fixture's unlisted sender). */
const LISTED_INDEX = 2;

let f: BscServiceFixture;
let service: TestService;
let hook: Receiver;
let admin: string;
beforeAll(async () => {
  f = await startBscServiceFixture();
  service = await startTestService(f.env());
  await forgetBscCursor(service);
  hook = await startReceiver();
  admin = await service.newAdminKey();
  const listed = f.bsc.account(LISTED_INDEX).address;
  await f.bsc.mint(f.usdt, listed, 1_000n * ONE);
  // The fixture's listed ETH address replaced by this run's account, in its EIP-55 capitals (matched case-insensitively).
  const document = readFileSync(path.join(__dirname, '../fixtures/screening/ofac-sdn.xml'), 'utf8').replace('0x7F367cC41522cE07553e823bf3be79A889DEbe1B', listed);
  const loaded = await service.call('POST', '/v1/admin/screening/lists', { apiKey: admin, body: { source: 'ofac-sdn', document } });
  expect(loaded.status).toBe(201);
  await eventually(async () => (service.container.screening.screen.screenAddress(listed).length > 0 ? true : undefined));
}, 60_000);
afterAll(async () => {
  // The lists are global rows: later suites of this jest worker start without them.
  await service?.database.orm.em.getConnection().execute('delete from screening_lists');
  await service?.close();
  await hook?.close();
  await f?.stop();
});

async function tenant() {
  const t = await service.newTenant('0');
  const registered = await service.call('POST', '/v1/webhooks/register', {
    apiKey: t.apiKey, body: { url: hook.url, events: ['deposit.detected', 'deposit.credited', 'deposit.held', 'deposit.rejected'] },
  });
  expect(registered.status).toBe(201);
  return { ...t, to: await bscAddressOf(service, t.apiKey) };
}
const events = (depositId: string) => hook.received.map((r) => JSON.parse(r.body)).filter((e) => e.data.id === depositId).map((e) => [e.type, e.data.status]);

describe('BSC deposit senders screened against OFAC addresses', () => {
  it('a listed sender: detected, then held at finality and never credited; clear refused, reject marks it rejected', async () => {
    const t = await tenant();
    const mined = await f.bsc.transfer(f.usdt, LISTED_INDEX, t.to, 40n * ONE);
    const [detected] = await depositsIn(service, t.apiKey, 1, 'detected');
    expect(detected).toMatchObject({ txHash: mined.hash, sender: f.bsc.account(LISTED_INDEX).address.toLowerCase() });
    await f.bsc.mine(2);
    const [held] = await depositsIn(service, t.apiKey, 1, 'held');
    expect(held).toMatchObject({ id: detected!.id, ledgerTransactionId: null, creditedAt: null });
    expect(await available(service, t.apiKey, 'USDT')).toBe('0.000000');

    const queue = await service.call('GET', '/v1/admin/compliance-reviews?kind=deposit&status=pending&limit=500', { apiKey: admin });
    expect((queue.body as { subjectId: string }[]).find((r) => r.subjectId === held!.id)).toMatchObject({
      kind: 'deposit', tenantId: t.tenantId, clearable: false, hits: [{ kind: 'address', source: 'ofac-sdn', entryId: '90002', currency: 'ETH' }],
    });
    const cleared = await service.call('POST', `/v1/admin/compliance-reviews/${held!.id}/clear`, { apiKey: admin, body: { reason: 'looks fine' } });
    expect([cleared.status, cleared.body.code]).toEqual([409, 'invalid_state']);
    const rejected = await service.call('POST', `/v1/admin/compliance-reviews/${held!.id}/reject`, {
      apiKey: admin, body: { reason: 'OFAC-listed sender; reported, funds to be returned by hand' },
    });
    expect([rejected.status, rejected.body.status, rejected.body.decidedBy]).toEqual([200, 'rejected', expect.stringMatching(/^key_/)]);
    await depositsIn(service, t.apiKey, 1, 'rejected');
    expect(await available(service, t.apiKey, 'USDT')).toBe('0.000000');
    await eventually(async () => (events(held!.id).length === 3 ? true : undefined));
    expect(events(held!.id)).toEqual([['deposit.detected', 'detected'], ['deposit.held', 'held'], ['deposit.rejected', 'rejected']]);
  });

  it('an unlisted sender is credited as before, with the list loaded', async () => {
    const t = await tenant();
    await f.bsc.transfer(f.usdt, f.senderIndex, t.to, 5n * ONE);
    await depositsIn(service, t.apiKey, 1, 'detected');
    await f.bsc.mine(2);
    await depositsIn(service, t.apiKey, 1, 'credited');
    expect(await available(service, t.apiKey, 'USDT')).toBe('5.000000');
  });
});
