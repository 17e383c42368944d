import { randomUUID } from 'node:crypto';
import { asBrowser, newOperator, signIn } from '../support/operator-session';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

jest.setTimeout(60_000);

/** GET /v1/admin/queues (docs/decisions.md § Operators: the console): the counts of what needs a person. */
describe('operator queues', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it('counts a payment stuck at provider_accepted once it is older than the threshold; any role reads it', async () => {
    const viewer = asBrowser(service, await signIn(service, await newOperator(service, 'viewer')));
    const before = await viewer('GET', '/v1/admin/queues');
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      refundsPending: expect.any(Number), refundsFailed: expect.any(Number), reconciliationFindings: expect.any(Number),
      depositFindings: expect.any(Number), complianceReviewsPending: expect.any(Number), stuckPayments: expect.any(Number), stuckAfterMinutes: 60,
    });
    const { apiKey } = await service.newTenant();
    // The sandbox holds a payment to an account ending 3333 at provider_accepted (docs/decisions.md § Sandbox values).
    const created = await service.call('POST', '/v1/payments/moneyout', {
      apiKey, body: moneyOutBody({ accountNumber: '254712343333' }), headers: { 'idempotency-key': randomUUID() },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await eventually(async () => ((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'provider_accepted' ? true : undefined));
    expect((await viewer('GET', '/v1/admin/queues')).body.stuckPayments).toBe(before.body.stuckPayments);
    await service.database.orm.em.getConnection().execute("update payments set accepted_at = now() - interval '61 minutes' where id = ?", [id]);
    expect((await viewer('GET', '/v1/admin/queues')).body.stuckPayments).toBe(before.body.stuckPayments + 1);
    expect((await service.call('GET', '/v1/admin/queues')).status).toBe(401);
  });
});
