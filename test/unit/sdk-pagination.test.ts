import { ApiError, createPayoutClient, nextPageUrl, parseLinkHeader, queryOf } from '../../sdk/src';

/** A fake list endpoint at the SDK's edge: pages of webhook events chained by Link headers. */
function pagedServer(pages: Array<{ items: unknown[]; next?: string; status?: number }>) {
  const urls: string[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    urls.push(request.url);
    const page = pages[urls.length - 1];
    if (!page) throw new Error(`unexpected request ${request.url}`);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (page.next) headers.link = `<${page.next}>; rel="next"`;
    const body = page.status ? { statusCode: page.status, code: 'validation_error', message: 'Invalid request: query cursor' } : page.items;
    return new Response(JSON.stringify(body), { status: page.status ?? 200, headers });
  };
  return { fetch, urls };
}

const event = (n: number) => ({ id: `3f2a7c1e-0000-4000-8000-00000000000${n}`, eventType: 'payment.succeeded' });

describe('SDK paging over Link rel="next"', () => {
  it('yields every page in order, following each link as given, and stops on a page without one', async () => {
    const server = pagedServer([
      { items: [event(1), event(2)], next: '/v1/webhooks/events?limit=2&status=delivered&cursor=MjAyNi0xMS0yM1Qw%3D' },
      { items: [event(3), event(4)], next: '/v1/webhooks/events?limit=2&status=delivered&cursor=c2Vjb25k' },
      { items: [event(5)] },
    ]);
    const client = createPayoutClient({ baseUrl: 'http://api.test', apiKey: 'sk_sandbox_abc', fetch: server.fetch });
    const pages = [];
    for await (const page of client.pages('/v1/webhooks/events', { params: { query: { limit: 2, status: 'delivered' } } })) pages.push(page);
    expect(pages.map((p) => p.map((e) => e.id.slice(-1)))).toEqual([['1', '2'], ['3', '4'], ['5']]);
    expect(server.urls).toEqual([
      'http://api.test/v1/webhooks/events?limit=2&status=delivered',
      'http://api.test/v1/webhooks/events?limit=2&status=delivered&cursor=MjAyNi0xMS0yM1Qw%3D',
      'http://api.test/v1/webhooks/events?limit=2&status=delivered&cursor=c2Vjb25k',
    ]);
  });

  it('keeps a multi-valued filter the link repeats', async () => {
    const server = pagedServer([
      { items: [{ id: 'pay_1' }], next: '/v1/payments?status=failed&status=refunded&limit=1&cursor=abc' },
      { items: [{ id: 'pay_2' }] },
    ]);
    const client = createPayoutClient({ baseUrl: 'http://api.test', apiKey: 'sk_sandbox_abc', fetch: server.fetch });
    const ids: string[] = [];
    for await (const p of client.items('/v1/payments', { params: { query: { status: ['failed', 'refunded'], limit: 1 } } })) ids.push(p.id);
    expect(ids).toEqual(['pay_1', 'pay_2']);
    expect(server.urls[1]).toBe('http://api.test/v1/payments?status=failed&status=refunded&limit=1&cursor=abc');
    expect(queryOf(new URL('http://x/p?a=1&b=2&a=3'))).toEqual({ a: ['1', '3'], b: '2' });
  });

  it('items() flattens the pages, and a refused page throws its typed error after the pages before it', async () => {
    const client = createPayoutClient({
      baseUrl: 'http://api.test', apiKey: 'sk_sandbox_abc', retry: { maxAttempts: 1 },
      fetch: pagedServer([{ items: [event(1)], next: '/v1/webhooks/events?cursor=x' }, { items: [event(2)] }]).fetch,
    });
    const ids: string[] = [];
    for await (const e of client.items('/v1/webhooks/events')) ids.push(e.id);
    expect(ids).toEqual([event(1).id, event(2).id]);

    const failing = createPayoutClient({
      baseUrl: 'http://api.test', apiKey: 'sk_sandbox_abc',
      fetch: pagedServer([{ items: [event(1)], next: '/v1/webhooks/events?cursor=bad' }, { items: [], status: 400 }]).fetch,
    });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const e of failing.items('/v1/webhooks/events')) seen.push(e.id);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([event(1).id]);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'validation_error' });
  });

  it('parses Link headers: several links, quoted and unquoted rel, several rel values, commas inside the target', () => {
    expect(parseLinkHeader('</v1/x?cursor=a,b>; rel="next", </v1/x>; rel=first; title="a, b"')).toEqual([
      { target: '/v1/x?cursor=a,b', rels: ['next'] },
      { target: '/v1/x', rels: ['first'] },
    ]);
    expect(parseLinkHeader('<https://other.test/p2>; rel="prefetch NEXT"')).toEqual([{ target: 'https://other.test/p2', rels: ['prefetch', 'next'] }]);
    expect(parseLinkHeader(null)).toEqual([]);
    expect(parseLinkHeader('garbage')).toEqual([]);
    expect(nextPageUrl('</v1/webhooks/events?limit=50&cursor=abc>; rel="next"', 'http://api.test/v1/webhooks/events')?.href)
      .toBe('http://api.test/v1/webhooks/events?limit=50&cursor=abc');
    expect(nextPageUrl('</v1/x>; rel="prev"', 'http://api.test/')).toBeUndefined();
  });

  it('parses Link headers with any optional whitespace (RFC 8288 § 3), valueless parameters and links without rel', () => {
    expect(parseLinkHeader('</p1> ; rel = "next" ; crossorigin , </p2>;rel=prev;title= "a b",</p3>; rel= first ,</p4>; title="no rel"')).toEqual([
      { target: '/p1', rels: ['next'] },
      { target: '/p2', rels: ['prev'] },
      { target: '/p3', rels: ['first'] },
      { target: '/p4', rels: [] },
    ]);
    expect(parseLinkHeader('</p5>; rel=" prev  NEXT "')).toEqual([{ target: '/p5', rels: ['prev', 'next'] }]);
    expect(nextPageUrl('</v1/x?cursor=a>;rel=next', 'http://api.test/v1/x')?.href).toBe('http://api.test/v1/x?cursor=a');
  });
});
