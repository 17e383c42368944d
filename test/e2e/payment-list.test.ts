import { randomUUID } from 'node:crypto';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

type Payment = { id: string; status: string; reference: string; paymentMethod: string; destinationCurrency: string; createdAt: string };

/** The path and query of a `Link: <...>; rel="next"` header, or undefined when there is none. */
function nextLink(link: string | null): string | undefined {
  return link ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
}

describe('GET /v1/payments (OpenAPI listPayments)', () => {
  let service: TestService;
  let apiKey: string;
  /** Every payment of the tenant, in creation order. */
  const made: Payment[] = [];
  /** An instant after the first three payments and before the last three. */
  let middle: string;

  const pay = async (key: string, overrides: Record<string, unknown> = {}) => {
    const res = await service.call('POST', '/v1/payments/moneyout', {
      apiKey: key, body: moneyOutBody(overrides), headers: { 'idempotency-key': randomUUID() },
    });
    expect(res.status).toBe(201);
    return res.body as Payment;
  };
  const list = (query: string, key = apiKey) => service.call('GET', `/v1/payments${query}`, { apiKey: key });

  beforeAll(async () => {
    service = await startTestService();
    ({ apiKey } = await service.newTenant());
    // Sandbox outcomes by the account number's last four digits: 0000 fails at submission, 3333 stays accepted.
    made.push(await pay(apiKey, { accountNumber: '254712340000' }));
    made.push(await pay(apiKey));
    made.push(await pay(apiKey, { paymentMethod: 'BANK', accountNumber: '1234567890', paymentCode: '01' }));
    await new Promise((r) => setTimeout(r, 20));
    middle = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    made.push(await pay(apiKey, { accountNumber: '254712343333' }));
    made.push(await pay(apiKey, { accountNumber: '254712350000' }));
    made.push(await pay(apiKey));
    // Let the sandbox settle every payment, so the statuses below are final or stable.
    await eventually(async () => {
      const res = await list('?limit=100');
      const statuses = (res.body as Payment[]).map((p) => p.status);
      return statuses.length === 6 && !statuses.includes('initiated') && statuses.filter((s) => s === 'succeeded').length === 3 ? true : undefined;
    });
  });
  afterAll(() => service.close());

  it('lists the tenant payments newest first as the Payment resource', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBeNull();
    expect((res.body as Payment[]).map((p) => p.id)).toEqual([...made].reverse().map((p) => p.id));
    const single = await service.call('GET', `/v1/payments/${made[1]!.id}`, { apiKey });
    expect(res.body[4]).toEqual(single.body);
  });

  it('pages with limit and the Link header, keeping the filters, until no Link is left', async () => {
    const seen: string[] = [];
    let next: string | undefined = '/v1/payments?limit=2&status=succeeded&status=failed';
    let pages = 0;
    while (next) {
      const res = await service.call('GET', next, { apiKey });
      expect(res.status).toBe(200);
      expect(res.body.length).toBeLessThanOrEqual(2);
      seen.push(...(res.body as Payment[]).map((p) => p.id));
      next = nextLink(res.headers.get('link'));
      if (next) {
        const url = new URL(next, service.baseUrl);
        expect(url.pathname).toBe('/v1/payments');
        expect([url.searchParams.get('limit'), url.searchParams.getAll('status'), url.searchParams.has('cursor')]).toEqual(['2', ['succeeded', 'failed'], true]);
      }
      pages += 1;
    }
    const expected = [...made].reverse().filter((p) => made.indexOf(p) !== 3).map((p) => p.id);
    expect(seen).toEqual(expected);
    expect(pages).toBe(3);
  });

  it('filters by status, repeated or comma-separated', async () => {
    const failed = [made[4]!.id, made[0]!.id];
    expect((await list('?status=failed')).body.map((p: Payment) => p.id)).toEqual(failed);
    const both = await list('?status=failed,provider_accepted');
    expect(both.body.map((p: Payment) => p.id)).toEqual([made[4]!.id, made[3]!.id, made[0]!.id]);
    const repeated = await list('?status=failed&status=provider_accepted');
    expect(repeated.body).toEqual(both.body);
  });

  it('filters by reference, payment method and destination currency', async () => {
    expect((await list(`?reference=${made[2]!.reference}`)).body.map((p: Payment) => p.id)).toEqual([made[2]!.id]);
    expect((await list('?reference=no-such-reference')).body).toEqual([]);
    expect((await list('?paymentMethod=BANK')).body.map((p: Payment) => p.id)).toEqual([made[2]!.id]);
    expect((await list('?destinationCurrency=KES')).body).toHaveLength(6);
    expect((await list('?destinationCurrency=UGX,NGN')).body).toEqual([]);
  });

  it('filters by the createdAt range: createdFrom inclusive, createdTo exclusive', async () => {
    const after = await list(`?createdFrom=${middle}`);
    expect(after.body.map((p: Payment) => p.id)).toEqual([made[5]!.id, made[4]!.id, made[3]!.id]);
    const before = await list(`?createdTo=${middle}`);
    expect(before.body.map((p: Payment) => p.id)).toEqual([made[2]!.id, made[1]!.id, made[0]!.id]);
    const exact = made[1]!.createdAt;
    const from = await list(`?createdFrom=${exact}&createdTo=${middle}`);
    expect(from.body.map((p: Payment) => p.id)).toEqual([made[2]!.id, made[1]!.id]);
    const to = await list(`?createdTo=${exact}`);
    expect(to.body.map((p: Payment) => p.id)).toEqual([made[0]!.id]);
    const offset = await list(`?createdFrom=${encodeURIComponent(middle.replace('Z', '+00:00'))}`);
    expect(offset.body).toEqual(after.body);
  });

  it("never shows another tenant's payments", async () => {
    const other = await service.newTenant();
    const theirs = await pay(other.apiKey, { reference: made[2]!.reference });
    expect((await list('', other.apiKey)).body.map((p: Payment) => p.id)).toEqual([theirs.id]);
    expect((await list(`?reference=${made[2]!.reference}`)).body.map((p: Payment) => p.id)).toEqual([made[2]!.id]);
  });

  it.each([
    ['?status=pending', 'query.status.0'],
    ['?status=', 'query.status.0'],
    ['?paymentMethod=CASH', 'query.paymentMethod.0'],
    ['?destinationCurrency=USD', 'query.destinationCurrency.0'],
    ['?limit=0', 'query.limit'],
    ['?limit=101', 'query.limit'],
    ['?createdFrom=yesterday', 'query.createdFrom'],
    ['?createdTo=2026-02-30T00:00:00Z', 'query.createdTo'],
    ['?reference=', 'query.reference'],
    [`?reference=${'r'.repeat(129)}`, 'query.reference'],
    ['?sort=asc', 'sort'],
  ])('refuses %s with 400 validation_error naming the parameter', async (query, named) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'validation_error' });
    expect(res.body.message).toContain(named);
  });

  it('refuses an empty range and a cursor it did not issue, in REST words', async () => {
    const range = await list(`?createdFrom=${middle}&createdTo=${middle}`);
    expect(range.status).toBe(400);
    expect(range.body).toMatchObject({ code: 'validation_error', message: 'createdFrom must be before createdTo' });
    const cursor = await list('?cursor=not-a-cursor');
    expect(cursor.status).toBe(400);
    expect(cursor.body).toMatchObject({ code: 'validation_error', message: 'cursor is not a valid cursor' });
  });

  it('needs an issuer key', async () => {
    expect((await service.call('GET', '/v1/payments')).status).toBe(401);
    const admin = await service.newAdminKey();
    expect((await list('', admin)).status).toBe(403);
  });
});
