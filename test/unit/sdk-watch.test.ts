import { createPayoutClient } from '../../sdk/src';

/** A fake GET /v1/payments/{id} at the SDK's edge answering the given statuses in turn (the last one from then on). */
function statuses(...sequence: string[]) {
  let reads = 0;
  const fetch = async (request: Request): Promise<Response> => {
    const status = sequence[Math.min(reads++, sequence.length - 1)];
    const id = new URL(request.url).pathname.split('/').at(-1);
    return new Response(JSON.stringify({ id, status }), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, reads: () => reads };
}

describe('SDK watchPayment', () => {
  it('yields each status change once and ends after a final status', async () => {
    const server = statuses('initiated', 'initiated', 'provider_accepted', 'provider_accepted', 'refunded', 'succeeded');
    const client = createPayoutClient({ baseUrl: 'http://api.test', apiKey: 'sk_sandbox_abc', fetch: server.fetch });
    const seen: string[] = [];
    for await (const p of client.watchPayment('pay_01JD', { intervalMs: 1 })) seen.push(`${p.id} ${p.status}`);
    expect(seen).toEqual(['pay_01JD initiated', 'pay_01JD provider_accepted', 'pay_01JD refunded']);
    expect(server.reads()).toBe(5);
  });

  it('gives up after timeoutMs, and stops at once when its signal aborts', async () => {
    const client = createPayoutClient({ baseUrl: 'http://api.test', apiKey: 'sk_sandbox_abc', fetch: statuses('provider_accepted').fetch });
    const drain = async (iterator: AsyncIterable<unknown>) => {
      for await (const _ of iterator) { /* each status */ }
    };
    await expect(drain(client.watchPayment('pay_01JD', { intervalMs: 5, timeoutMs: 30 }))).rejects.toThrow('pay_01JD still provider_accepted after 30 ms');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop watching')), 20);
    await expect(drain(client.watchPayment('pay_01JD', { intervalMs: 10_000, signal: controller.signal }))).rejects.toThrow('stop watching');
  });

  it('reads while a read fits in timeoutMs and never waits past it: 200 ms at 100 ms intervals is reads at 0, 100 and 200 ms', async () => {
    jest.useFakeTimers({ now: Date.parse('2026-11-23T10:00:00Z') });
    try {
      const server = statuses('initiated');
      const start = Date.now();
      const readAt: number[] = [];
      const fetch = (request: Request) => {
        readAt.push(Date.now() - start);
        return server.fetch(request);
      };
      const client = createPayoutClient({ baseUrl: 'http://api.test', apiKey: 'sk_sandbox_abc', fetch });
      const seen: string[] = [];
      const watched = (async () => {
        for await (const p of client.watchPayment('pay_01JD', { intervalMs: 100, timeoutMs: 200 })) seen.push(p.status);
      })().catch((e: unknown) => e);
      for (let i = 0; i < 6; i++) await jest.advanceTimersByTimeAsync(100);
      expect(await watched).toEqual(new Error('Payment pay_01JD still initiated after 200 ms'));
      expect(seen).toEqual(['initiated']);
      expect(readAt).toEqual([0, 100, 200]);
    } finally {
      jest.useRealTimers();
    }
  });
});
