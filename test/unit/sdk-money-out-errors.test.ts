import {
  ApiError, createPayoutClient, FxError, LegacyPayoutError, NoAnswerError, PayoutGatewayError, ResolutionError, unwrap,
  UnexpectedResponseError, type MoneyOutRequest,
} from '../../sdk/src';

/** A fake server at the SDK's edge: each request gets the next answer (the last one repeats), and its Idempotency-Key is recorded. */
function scripted(...answers: Array<() => Response | Promise<Response>>) {
  const keys: Array<string | null> = [];
  const fetch = async (request: Request): Promise<Response> => {
    keys.push(request.headers.get('idempotency-key'));
    return answers[Math.min(keys.length - 1, answers.length - 1)]!();
  };
  return { fetch, keys };
}

const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'request-id': 'req-1' } });
const noWait = { sleep: async () => undefined };
const order = { fiatAmount: '1500', reference: 'order-1' } as unknown as MoneyOutRequest;
const payment = { id: 'pay_01JD', status: 'initiated' };
const chosen = 'a8098c1a-f86e-11da-bd1a-00112444be1e';

/** What `moneyOut` throws: the error, whatever its class, carries the Idempotency-Key the request went under (README "Using the SDK"). */
describe('SDK moneyOut errors carry the idempotency key', () => {
  it('every typed refusal, in each shape, has the key the client generated and sent', async () => {
    const refusals: Array<[() => Response, new (...args: never[]) => PayoutGatewayError]> = [
      [json(422, { statusCode: 422, message: 'Insufficient USDC balance', code: 'insufficient_balance' }), ApiError],
      [json(409, { error: { code: 'duplicate_reference' }, message: 'duplicate', statusCode: 409, details: {} }), LegacyPayoutError],
      [json(404, { message: 'm', error: 'not_found', details: 'no such thing', statusCode: 404 }), ResolutionError],
      [json(422, { error: 422, message: 'm', details: {}, code: 'unsupported_corridor' }), FxError],
      [() => new Response('<html>Bad gateway</html>', { status: 502 }), UnexpectedResponseError],
    ];
    for (const [answer, kind] of refusals) {
      const server = scripted(answer);
      const client = createPayoutClient({ baseUrl: 'http://api.test', apiKey: 'sk_sandbox_x', fetch: server.fetch });
      const error = await client.moneyOut(order).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(kind);
      expect(server.keys).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
      expect((error as PayoutGatewayError).idempotencyKey).toBe(server.keys[0]);
    }
  });

  it('a refusal after the retries ran out has the key every attempt carried, and sending it again under that key gets the payout', async () => {
    const server = scripted(json(503, { statusCode: 503, message: 'm', code: 'provider_unavailable' }), json(503, { statusCode: 503, message: 'm', code: 'provider_unavailable' }), json(201, payment));
    const client = createPayoutClient({ baseUrl: 'http://api.test', apiKey: 'sk_sandbox_x', fetch: server.fetch, retry: { maxAttempts: 2 }, retryEffects: noWait });
    const error = await client.moneyOut(order, { idempotencyKey: chosen }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'provider_unavailable', idempotencyKey: chosen });
    const again = await client.moneyOut(order, { idempotencyKey: (error as ApiError).idempotencyKey });
    expect(again).toEqual({ payment, idempotencyKey: chosen, replayed: false });
    expect(server.keys).toEqual([chosen, chosen, chosen]);
  });

  it('a network failure is a NoAnswerError with the key and the failure as cause', async () => {
    const failure = new TypeError('fetch failed');
    const server = scripted(() => Promise.reject(failure));
    const client = createPayoutClient({ baseUrl: 'http://api.test', apiKey: 'sk_sandbox_x', fetch: server.fetch, retry: { maxAttempts: 2 }, retryEffects: noWait });
    const error = await client.moneyOut(order).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoAnswerError);
    expect(server.keys).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/), server.keys[0]]);
    expect(error).toMatchObject({ name: 'NoAnswerError', idempotencyKey: server.keys[0], cause: failure });
    expect((error as Error).message).toBe(`No answer to the money-out sent under Idempotency-Key ${server.keys[0]}: fetch failed`);
  });

  it('an abort is a NoAnswerError with the key and the abort reason as cause', async () => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const server = scripted(() => {
      controller.abort(reason);
      return Promise.reject(reason);
    });
    const client = createPayoutClient({ baseUrl: 'http://api.test', apiKey: 'sk_sandbox_x', fetch: server.fetch });
    const error = await client.moneyOut(order, { idempotencyKey: chosen, signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoAnswerError);
    expect(error).toMatchObject({ idempotencyKey: chosen, cause: reason });
    expect(server.keys).toEqual([chosen]);
  });

  it('a success answer that cannot be read is a NoAnswerError with the key: the payout may exist', async () => {
    const server = scripted(() => new Response('{"id":"pay_01JD",', { status: 201, headers: { 'content-type': 'application/json' } }));
    const client = createPayoutClient({ baseUrl: 'http://api.test', apiKey: 'sk_sandbox_x', fetch: server.fetch });
    const error = await client.moneyOut(order, { idempotencyKey: chosen }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoAnswerError);
    expect(error).toMatchObject({ idempotencyKey: chosen, cause: expect.any(SyntaxError) });
  });

  it('errors of other calls carry no key', async () => {
    const server = scripted(json(404, { statusCode: 404, message: 'm', code: 'not_found' }));
    const client = createPayoutClient({ baseUrl: 'http://api.test', apiKey: 'sk_sandbox_x', fetch: server.fetch });
    const error = await client.api.GET('/v1/payments/{paymentId}', { params: { path: { paymentId: 'pay_x' } } }).then(unwrap).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'not_found', idempotencyKey: undefined });
  });
});
