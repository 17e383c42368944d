import { randomUUID } from 'node:crypto';
import { startSmileIdSimulator, type SmileIdSimulator } from '../../simulators/smile-id/smile-id-simulator';
import { jobRefOf } from '../../src/adapters/providers/smile-id/smile-id-kyc-provider';
import { smileIdSignature } from '../../src/adapters/providers/smile-id/smile-id-signature';
import { liveTenant } from '../support/live-tenant';
import { sqlOf } from '../support/provider-e2e';
import { eventually, freePort, startTestService, type TestService } from '../support/test-service';

const SECRET = 'e2e-smile-id-callback-secret-000001';

/**
 * Live KYC through the service to the Smile ID simulator over real HTTP (docs/providers.md § Smile
 * ID): a live tenant's POST /v1/customers is accepted, the job submitted, and its callback at
 * /callbacks/smile-id/{secret} only wakes the KYC worker, whose job status query decides.
 */
describe('Smile ID KYC, end to end', () => {
  let sim: SmileIdSimulator;
  let service: TestService;
  let admin: string;
  let apiKey: string;
  let sql: ReturnType<typeof sqlOf>;
  const body = (o: Record<string, unknown> = {}) => ({
    externalId: `ext-${randomUUID()}`, firstName: 'Wanjiru', lastName: 'Kamau', country: 'KE', dateOfBirth: '1990-01-01',
    idType: 'NATIONAL_ID', idNumber: '12345670', ...o,
  });
  const createCustomer = async (o: Record<string, unknown> = {}) => {
    const res = await service.call('POST', '/v1/customers', { apiKey, body: body(o) });
    if (res.status !== 201) throw new Error(`customer refused: ${res.status} ${res.text}`);
    return res.body.id as string;
  };
  const decided = (id: string) => eventually(async () => {
    const res = await service.call('GET', `/v1/customers/${id}`, { apiKey });
    return res.body.kycStatus === 'pending' ? undefined : res.body;
  }, 15_000);
  const smileEvents = (customerId: string) => sql<{ verdict: string; raw_body_sealed: string }>(
    'select verdict, raw_body_sealed from provider_events where provider = ? and provider_event_id like ?', ['smile_id', `${customerId}:%`],
  );
  const kycEvents = async (customerId: string) => (await sql<{ n: string }>(
    'select count(*) as n from outbox_events where entity_id = ? and type = ?', [customerId, 'customer.kyc.updated'],
  ))[0]?.n;

  beforeAll(async () => {
    sim = await startSmileIdSimulator({ resultDelayMs: 50 });
    const port = await freePort();
    service = await startTestService({
      SMILE_ID_PARTNER_ID: sim.partnerId, SMILE_ID_API_KEY: sim.apiKey, SMILE_ID_BASE_URL: sim.url,
      SMILE_ID_CALLBACK_BASE_URL: `http://127.0.0.1:${port}/callbacks/smile-id`, SMILE_ID_CALLBACK_SECRET: SECRET,
      // Only a callback can make a customer due before a minute: the tests see that it does.
      SMILE_ID_POLL_MS: '60000', SMILE_ID_AUTHORITY_ATTEMPTS: '2', SMILE_ID_AUTHORITY_RETRY_MS: '100',
    }, {}, { port });
    sql = sqlOf(service);
    admin = await service.newAdminKey();
    ({ apiKey } = await liveTenant(service, admin));
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  it('approved: a live tenant\'s customer is accepted (no 503), decided after the callback, emitted once; id number and answer sealed', async () => {
    const id = await createCustomer();
    expect((await decided(id)).kycStatus).toBe('approved');
    expect(sim.jobs().filter((j) => j.userId === id)).toEqual([expect.objectContaining({ jobId: jobRefOf(id, 1), idType: 'NATIONAL_ID' })]);
    expect(await kycEvents(id)).toBe('1');
    const [check] = await sql<{ state: string; result_code: string; raw_answer_sealed: string }>('select * from kyc_checks where customer_id = ?', [id]);
    expect(check).toMatchObject({ state: 'completed', result_code: '1012', raw_answer_sealed: expect.stringMatching(/^pd1\./) });
    expect(check?.raw_answer_sealed).not.toContain('12345670');
    const [row] = await sql<{ id_number_sealed: string }>('select id_number_sealed from customers where id = ?', [id]);
    expect(row?.id_number_sealed).toMatch(/^pd1\./);
    const events = await eventually(async () => ((await smileEvents(id)).length > 0 ? smileEvents(id) : undefined));
    expect(events).toEqual([{ verdict: 'woke', raw_body_sealed: expect.stringMatching(/^pd1\./) }]);

    // The same callback again: answered 200, stored once, applied once.
    expect(await sim.redeliver(id, jobRefOf(id, 1))).toBe(200);
    expect(await smileEvents(id)).toHaveLength(1);
    expect(await kycEvents(id)).toBe('1');
    expect((await service.call('GET', '/metrics', { apiKey: admin })).text).toMatch(/provider_callbacks_total\{provider="smile_id",verdict="duplicate"\} [1-9]/);
  });

  it('rejected (not found, last digit 1): rejected with the reason', async () => {
    const id = await createCustomer({ country: 'NG', idType: 'BVN', idNumber: '00000000001' });
    expect(await decided(id)).toMatchObject({ kycStatus: 'rejected', kycReason: 'The ID number was not found at the ID authority' });
  });

  it('ID authority down (last digit 3): retried, then left pending with the reason', async () => {
    const id = await createCustomer({ country: 'GH', idType: 'GHANA_CARD', idNumber: 'GHA-000000000-3' });
    const held = await eventually(async () => {
      const res = await service.call('GET', `/v1/customers/${id}`, { apiKey });
      return res.body.kycReason ? res.body : undefined;
    }, 15_000);
    expect(held).toMatchObject({ kycStatus: 'pending', kycReason: 'The ID authority was unavailable (2 attempts); trying again later' });
    expect(sim.jobs().filter((j) => j.userId === id).map((j) => j.jobId)).toEqual([jobRefOf(id, 1), jobRefOf(id, 2)]);
    expect(await kycEvents(id)).toBe('0');
  });

  it('a forged callback is refused and changes nothing', async () => {
    const id = await createCustomer({ idNumber: '55555550' });
    await decided(id);
    const timestamp = new Date().toISOString();
    const forged = {
      ResultCode: '1012', PartnerParams: { user_id: id, job_id: jobRefOf(id, 9), job_type: 5 },
      timestamp, signature: smileIdSignature('not-the-partners-api-key-00000', sim.partnerId, timestamp),
    };
    const res = await service.call('POST', `/callbacks/smile-id/${SECRET}`, { body: forged });
    expect(res.status).toBe(401);
    const wrongPath = await service.call('POST', '/callbacks/smile-id/guessed-secret-0000000000000', { body: forged });
    expect(wrongPath.status).toBe(404);
    expect((await smileEvents(id)).filter((e) => e.verdict !== 'woke')).toEqual([]);
    expect(await sql('select 1 from provider_events where provider_event_id = ?', [`${id}:${jobRefOf(id, 9)}`])).toEqual([]);
  });

  it('a genuinely signed callback whose body claims success only wakes the worker: the job status (not found) decides', async () => {
    sim.withoutCallback('77777771');
    const id = await createCustomer({ idNumber: '77777771' });
    await sim.waitForResult(id, jobRefOf(id, 1));
    const timestamp = new Date().toISOString();
    const claim = {
      ResultCode: '1012', ResultText: 'ID Number Validated', PartnerParams: { user_id: id, job_id: jobRefOf(id, 1), job_type: 5 },
      timestamp, signature: smileIdSignature(sim.apiKey, sim.partnerId, timestamp),
    };
    expect((await service.call('POST', `/callbacks/smile-id/${SECRET}`, { body: claim })).status).toBe(200);
    expect(await decided(id)).toMatchObject({ kycStatus: 'rejected', kycReason: 'The ID number was not found at the ID authority' });
    expect(await smileEvents(id)).toEqual([{ verdict: 'woke', raw_body_sealed: expect.stringMatching(/^pd1\./) }]);
  });

  it('sandbox tenants keep the sandbox: nothing reaches Smile ID', async () => {
    const sandbox = await service.newTenant('0');
    const res = await service.call('POST', '/v1/customers', { apiKey: sandbox.apiKey, body: body() });
    expect(res.status).toBe(201);
    const c = await eventually(async () => {
      const got = await service.call('GET', `/v1/customers/${res.body.id}`, { apiKey: sandbox.apiKey });
      return got.body.kycStatus === 'pending' ? undefined : got.body;
    });
    expect(c.kycStatus).toBe('approved');
    expect(sim.jobs().filter((j) => j.userId === res.body.id)).toEqual([]);
  });

  it('a country Smile ID does not check is still 503 for a live tenant, and nothing is written', async () => {
    const externalId = `ext-${randomUUID()}`;
    const res = await service.call('POST', '/v1/customers', { apiKey, body: body({ country: 'TZ', externalId }) });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('provider_unavailable');
    expect(await sql('select 1 from customers where external_id = ?', [externalId])).toEqual([]);
  });
});
