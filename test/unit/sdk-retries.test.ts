import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getEventListeners } from 'node:events';
import { ApiError, backoffMs, createPayoutClient, isRetryable, retryAfterMs, unwrap, withRetries, type MoneyOutRequest } from '../../sdk/src';

/** A fake server at the SDK's edge: answers in turn, and records what each request carried. */
function scripted(...answers: Array<() => Response>) {
  const seen: Array<{ method: string; url: string; headers: Headers; body: string }> = [];
  const fetch = async (request: Request): Promise<Response> => {
    seen.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    return answer();
  };
  return { fetch, seen };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const shapeA = (statusCode: number, code: string) => ({ statusCode, code, message: code });

/** Records the waits instead of waiting. */
function recordedSleeps() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

const post = (body = '{"a":1}') => new Request('http://api.test/v1/payments/moneyout', {
  method: 'POST', body, headers: { 'idempotency-key': '7f1c4c1e-33d4-4c8e-9d0e-3f3c7b9f1a2b', 'content-type': 'application/json' },
});

describe('SDK retries (409 idempotency_key_in_use, 429, 503)', () => {
  it('waits Retry-After seconds on 429, then sends the same request again', async () => {
    const server = scripted(json(429, shapeA(429, 'rate_limited'), { 'retry-after': '2' }), json(201, { id: 'pay_1' }));
    const { waits, sleep } = recordedSleeps();
    const response = await withRetries(server.fetch, {}, { sleep })(post());
    expect(response.status).toBe(201);
    expect(waits).toEqual([2000]);
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1]!.body).toBe('{"a":1}');
    expect(server.seen[1]!.headers.get('idempotency-key')).toBe('7f1c4c1e-33d4-4c8e-9d0e-3f3c7b9f1a2b');
  });

  it('retries 409 idempotency_key_in_use with its Retry-After, and not 409 duplicate_reference', async () => {
    const inUse = scripted(json(409, shapeA(409, 'idempotency_key_in_use'), { 'retry-after': '1' }), json(201, { id: 'pay_1' }));
    const { waits, sleep } = recordedSleeps();
    expect((await withRetries(inUse.fetch, {}, { sleep })(post())).status).toBe(201);
    expect(waits).toEqual([1000]);

    const duplicate = scripted(json(409, shapeA(409, 'duplicate_reference')), json(201, { id: 'pay_1' }));
    expect((await withRetries(duplicate.fetch, {}, { sleep })(post())).status).toBe(409);
    expect(duplicate.seen).toHaveLength(1);
  });

  it('backs off with jitter when a 503 has no Retry-After: half the doubling step plus a random part of the other half', async () => {
    const server = scripted(json(503, shapeA(503, 'service_unavailable')));
    const { waits, sleep } = recordedSleeps();
    const randoms = [0, 0.5, 0.999];
    const response = await withRetries(server.fetch, { maxAttempts: 4, baseDelayMs: 400 }, { sleep, random: () => randoms.shift()! })(post());
    expect(response.status).toBe(503);
    expect(server.seen).toHaveLength(4);
    // retry 1: step 400 → 200 + 0 × 200; retry 2: step 800 → 400 + 0.5 × 400; retry 3: step 1600 → 800 + 0.999 × 800
    expect(waits).toEqual([200, 600, 800 + 0.999 * 800]);
  });

  it('stops after maxAttempts and hands back the last answer, which unwrap turns into its typed error', async () => {
    const server = scripted(json(503, shapeA(503, 'service_unavailable'), { 'retry-after': '1', 'request-id': 'req-42' }));
    const { waits, sleep } = recordedSleeps();
    const client = createPayoutClient({ baseUrl: 'http://api.test', apiKey: 'sk_sandbox_x', fetch: server.fetch, retry: { maxAttempts: 3 }, retryEffects: { sleep } });
    const error = await client.api.GET('/v1/balances').then(unwrap).catch((e: unknown) => e);
    expect(server.seen).toHaveLength(3);
    expect(waits).toEqual([1000, 1000]);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable', requestId: 'req-42', retryAfterSeconds: 1 });
  });

  it('does not wait longer than maxDelayMs: a longer Retry-After is answered as it is', async () => {
    const server = scripted(json(429, shapeA(429, 'rate_limited'), { 'retry-after': '120' }), json(200, []));
    const { waits, sleep } = recordedSleeps();
    const response = await withRetries(server.fetch, { maxDelayMs: 60_000 }, { sleep })(post());
    expect(response.status).toBe(429);
    expect(waits).toEqual([]);
  });

  it('the default longest wait is 60 s: Retry-After 60 is waited for, 61 is answered as it is', async () => {
    const sixty = scripted(json(503, shapeA(503, 'service_unavailable'), { 'retry-after': '60' }), json(200, []));
    const first = recordedSleeps();
    expect((await withRetries(sixty.fetch, {}, { sleep: first.sleep })(post())).status).toBe(200);
    expect(first.waits).toEqual([60_000]);

    const sixtyOne = scripted(json(503, shapeA(503, 'service_unavailable'), { 'retry-after': '61' }), json(200, []));
    const second = recordedSleeps();
    expect((await withRetries(sixtyOne.fetch, {}, { sleep: second.sleep })(post())).status).toBe(503);
    expect(second.waits).toEqual([]);
    expect(sixtyOne.seen).toHaveLength(1);
  });

  it('retries a 503 that has no body (a proxy\'s empty answer)', async () => {
    const server = scripted(() => new Response(null, { status: 503 }), json(200, []));
    const { waits, sleep } = recordedSleeps();
    expect((await withRetries(server.fetch, { baseDelayMs: 100 }, { sleep, random: () => 0 })(post())).status).toBe(200);
    expect(waits).toEqual([50]);
  });

  it('does not retry a 409 whose body is not JSON', async () => {
    const answer = () => new Response('<html>Conflict</html>', { status: 409, headers: { 'content-type': 'text/html' } });
    expect(await isRetryable(answer())).toBe(false);
    const server = scripted(answer, json(201, { id: 'pay_1' }));
    expect((await withRetries(server.fetch, {}, recordedSleeps())(post())).status).toBe(409);
    expect(server.seen).toHaveLength(1);
  });

  it('a signal aborted before a wait ends the call at once with its reason, sending nothing more', async () => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    let calls = 0;
    const fetch = async () => {
      calls += 1;
      if (calls === 1) controller.abort(reason);
      return calls === 1 ? json(429, shapeA(429, 'rate_limited'), { 'retry-after': '1' })() : json(200, [])();
    };
    const request = new Request('http://api.test/v1/balances', { signal: controller.signal });
    await expect(withRetries(fetch)(request)).rejects.toBe(reason);
    expect(calls).toBe(1);
  });

  it('leaves no abort listener behind on the request\'s signal, after a wait that ended or one that was aborted', async () => {
    const waited = new Request('http://api.test/v1/balances', { signal: new AbortController().signal });
    const server = scripted(json(429, shapeA(429, 'rate_limited'), { 'retry-after': '0' }), json(200, []));
    expect((await withRetries(server.fetch)(waited)).status).toBe(200);
    expect(server.seen).toHaveLength(2);
    expect(getEventListeners(waited.signal, 'abort')).toEqual([]);

    const controller = new AbortController();
    const aborted = new Request('http://api.test/v1/balances', { signal: controller.signal });
    const pending = withRetries(scripted(json(429, shapeA(429, 'rate_limited'), { 'retry-after': '30' })).fetch)(aborted);
    setTimeout(() => controller.abort(new Error('caller gave up')), 20);
    await expect(pending).rejects.toThrow('caller gave up');
    expect(getEventListeners(aborted.signal, 'abort')).toEqual([]);
  });

  it('never retries other answers (400, 422, 500)', async () => {
    for (const [status, code] of [[400, 'validation_error'], [422, 'insufficient_balance'], [500, 'internal_error']] as const) {
      const server = scripted(json(status, shapeA(status, code)), json(201, {}));
      expect((await withRetries(server.fetch, {}, recordedSleeps())(post())).status).toBe(status);
      expect(server.seen).toHaveLength(1);
    }
  });

  it('never retries a 422, whatever its code or body and even with Retry-After: 422 is a permanent answer', async () => {
    // Codes this SDK has never seen stand for any the service adds later; the rule is the status's.
    const answers = [
      json(422, shapeA(422, 'a_code_added_after_this_sdk'), { 'retry-after': '1' }),
      json(422, shapeA(422, 'idempotency_key_in_use')),
      json(422, { error: { code: 'another_new_code' }, message: 'refused', statusCode: 422, details: {} }),
      () => new Response('refused', { status: 422, headers: { 'retry-after': '0' } }),
    ];
    for (const answer of answers) {
      expect(await isRetryable(answer())).toBe(false);
      const server = scripted(answer, json(201, { id: 'pay_1' }));
      const { waits, sleep } = recordedSleeps();
      expect((await withRetries(server.fetch, {}, { sleep })(post())).status).toBe(422);
      expect(server.seen).toHaveLength(1);
      expect(waits).toEqual([]);
    }
    const server = scripted(answers[0]!, json(201, { id: 'pay_1' }));
    const client = createPayoutClient({ baseUrl: 'http://api.test', apiKey: 'sk_sandbox_x', fetch: server.fetch, retryEffects: recordedSleeps() });
    const error = await client.moneyOut({ reference: 'order-1' } as unknown as MoneyOutRequest).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 'a_code_added_after_this_sdk' });
    expect(server.seen).toHaveLength(1);
  });

  it('retries a network failure only for a request that carries an Idempotency-Key, with the same key', async () => {
    const keys: Array<string | null> = [];
    let calls = 0;
    const flaky = async (request: Request) => {
      calls += 1;
      keys.push(request.headers.get('idempotency-key'));
      if (calls < 3) throw new TypeError('fetch failed');
      return json(201, { id: 'pay_1' })();
    };
    const { waits, sleep } = recordedSleeps();
    expect((await withRetries(flaky, { baseDelayMs: 100 }, { sleep, random: () => 0 })(post())).status).toBe(201);
    expect(keys).toEqual(Array(3).fill('7f1c4c1e-33d4-4c8e-9d0e-3f3c7b9f1a2b'));
    expect(waits).toEqual([50, 100]);

    calls = 0;
    const unkeyed = new Request('http://api.test/v1/webhooks/register', { method: 'POST', body: '{}' });
    await expect(withRetries(flaky, {}, recordedSleeps())(unkeyed)).rejects.toThrow('fetch failed');
    expect(calls).toBe(1);

    let attempts = 0;
    const down = async () => {
      attempts += 1;
      throw new TypeError('fetch failed');
    };
    await expect(withRetries(down, { maxAttempts: 2 }, recordedSleeps())(post())).rejects.toThrow('fetch failed');
    expect(attempts).toBe(2);
  });

  it('an abort while waiting ends the call with the abort reason', async () => {
    const server = scripted(json(429, shapeA(429, 'rate_limited'), { 'retry-after': '30' }), json(200, {}));
    const controller = new AbortController();
    const request = new Request('http://api.test/v1/balances', { signal: controller.signal });
    const pending = withRetries(server.fetch)(request);
    setTimeout(() => controller.abort(new Error('caller gave up')), 20);
    await expect(pending).rejects.toThrow('caller gave up');
    expect(server.seen).toHaveLength(1);
  });

  it('reads Retry-After as delay-seconds or as an HTTP-date', () => {
    const now = Date.parse('2026-11-23T09:41:00Z');
    expect(retryAfterMs('5', now)).toBe(5000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs(' 5 ', now)).toBe(5000);
    for (const unreadable of ['5x', 'x5', '5 seconds']) expect([unreadable, retryAfterMs(unreadable, now)]).toEqual([unreadable, undefined]);
    expect(retryAfterMs('Mon, 23 Nov 2026 09:41:07 GMT', now)).toBe(7000);
    expect(retryAfterMs('Mon, 23 Nov 2026 09:40:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(backoffMs(10, { baseDelayMs: 500, maxDelayMs: 8000 }, () => 0)).toBe(4000);
  });
});

describe('SDK money-out: API key and Idempotency-Key', () => {
  const body = { fiatAmount: 1500, reference: 'order-1' } as unknown as MoneyOutRequest;
  const payment = { id: 'pay_01JD', status: 'initiated' };

  it('sends the key as a bearer token and one fresh Idempotency-Key on every attempt of a money-out', async () => {
    const server = scripted(json(409, shapeA(409, 'idempotency_key_in_use'), { 'retry-after': '1' }), json(201, payment, { 'idempotent-replayed': 'true' }));
    const client = createPayoutClient({ baseUrl: 'http://api.test', apiKey: 'sk_sandbox_abc', fetch: server.fetch, retryEffects: recordedSleeps() });
    const result = await client.moneyOut(body);
    expect(result).toEqual({ payment, idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/), replayed: true });
    expect(server.seen.map((r) => r.headers.get('idempotency-key'))).toEqual([result.idempotencyKey, result.idempotencyKey]);
    expect(server.seen.map((r) => r.headers.get('authorization'))).toEqual(['Bearer sk_sandbox_abc', 'Bearer sk_sandbox_abc']);
    expect(server.seen[0]).toMatchObject({ method: 'POST', url: 'http://api.test/v1/payments/moneyout' });
    expect(JSON.parse(server.seen[1]!.body)).toEqual(body);

    const second = await client.moneyOut(body);
    expect(second.idempotencyKey).not.toBe(result.idempotencyKey);
  });

  it('without a fetch option, sends through the global fetch over real HTTP', async () => {
    const seen: Array<{ method?: string; url?: string; authorization?: string; key?: string }> = [];
    const server = createServer((req, res) => {
      seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization, key: req.headers['idempotency-key'] as string | undefined });
      req.resume().on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(payment)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = createPayoutClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: 'sk_sandbox_abc' });
      const result = await client.moneyOut(body);
      expect(result).toEqual({ payment, idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/), replayed: false });
      expect(seen).toEqual([{ method: 'POST', url: '/v1/payments/moneyout', authorization: 'Bearer sk_sandbox_abc', key: result.idempotencyKey }]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('keeps a key the caller chose, and adds one to a raw money-out call that has none', async () => {
    const server = scripted(json(201, payment));
    const client = createPayoutClient({ baseUrl: 'http://api.test', apiKey: 'sk_sandbox_abc', fetch: server.fetch });
    const chosen = 'a8098c1a-f86e-11da-bd1a-00112444be1e';
    expect((await client.moneyOut(body, { idempotencyKey: chosen })).idempotencyKey).toBe(chosen);
    expect(server.seen[0]!.headers.get('idempotency-key')).toBe(chosen);

    // A JavaScript caller (no types) that forgets the header still sends a key.
    await client.api.POST('/v1/payments/moneyout', { body } as never);
    expect(server.seen[1]!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    // Other POSTs get none.
    await client.api.POST('/v1/webhooks/register', { body: { url: 'https://hooks.example.com/payouts' } });
    expect(server.seen[2]!.headers.has('idempotency-key')).toBe(false);
  });
});
