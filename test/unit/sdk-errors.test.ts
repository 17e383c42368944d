import { ApiError, errorShapeOf, FxError, LegacyPayoutError, toPayoutGatewayError, UnexpectedResponseError } from '../../sdk/src';

/** Telling the four error shapes apart by their members (docs/decisions.md § Errors: shapes per route family). */
describe('SDK error shapes', () => {
  it('classifies each documented shape and refuses look-alikes', () => {
    expect(errorShapeOf({ statusCode: 409, message: 'm', code: 'duplicate_reference' })).toBe('A');
    expect(errorShapeOf({ error: { code: 'duplicate_reference' }, message: 'm', statusCode: 409, details: {} })).toBe('B');
    expect(errorShapeOf({ message: 'm', error: 'account_not_found', details: 'no such account', statusCode: 404 })).toBe('C');
    expect(errorShapeOf({ error: 422, message: 'm', details: {} })).toBe('D');
    expect(errorShapeOf({ error: 'x', message: 'm' })).toBe('unknown');
    expect(errorShapeOf({ code: 'x' })).toBe('unknown');
    expect(errorShapeOf('<html>Bad gateway</html>')).toBe('unknown');
    expect(errorShapeOf(undefined)).toBe('unknown');
  });

  it('judges each shape by all of its members: a look-alike missing one is unknown', () => {
    // Shape A may carry details of any kind, text included; it is still A.
    expect(errorShapeOf({ statusCode: 400, message: 'm', code: 'validation_error', details: 'fiatAmount: too many decimals' })).toBe('A');
    expect(errorShapeOf({ message: 'm' })).toBe('unknown');
    expect(errorShapeOf({ error: null, message: 'm', code: 'x' })).toBe('unknown');
    expect(errorShapeOf({ error: { message: 'no code' }, message: 'm', statusCode: 409 })).toBe('unknown');
    expect(errorShapeOf({ error: { code: 409 }, message: 'm', statusCode: 409 })).toBe('unknown');
  });

  it('LegacyPayoutError: the code inside error, and details ({} when the body has none)', () => {
    const answer = new Response(null, { status: 422, headers: { 'request-id': 'req-3' } });
    const bare = toPayoutGatewayError(answer, { error: { code: 'tenant_not_configured' }, message: 'No refund address', statusCode: 422 });
    expect(bare).toBeInstanceOf(LegacyPayoutError);
    expect(bare).toMatchObject({ name: 'LegacyPayoutError', shape: 'B', status: 422, code: 'tenant_not_configured', requestId: 'req-3', message: 'No refund address' });
    expect((bare as LegacyPayoutError).details).toEqual({});
    const detailed = toPayoutGatewayError(answer, { error: { code: 'duplicate_reference' }, message: 'm', statusCode: 409, details: { reference: 'order-1' } });
    expect((detailed as LegacyPayoutError).details).toEqual({ reference: 'order-1' });
  });

  it('Retry-After is kept only as whole seconds', () => {
    const retryAfter = (value: string) => toPayoutGatewayError(new Response(null, { status: 429, headers: { 'retry-after': value } }),
      { statusCode: 429, message: 'm', code: 'rate_limited' }).retryAfterSeconds;
    expect(retryAfter('12')).toBe(12);
    expect(retryAfter('0')).toBe(0);
    for (const value of ['-5', '5x', 'x5', '1.5']) expect([value, retryAfter(value)]).toEqual([value, undefined]);
  });

  it('an answer in no documented shape says its status', () => {
    const error = toPayoutGatewayError(new Response(null, { status: 502 }), '<html>Bad gateway</html>');
    expect(error).toMatchObject({ name: 'UnexpectedResponseError', message: 'Unexpected HTTP 502 answer' });
  });

  it('keeps the status, Request-Id, a numeric Retry-After and any details', () => {
    const response = new Response(null, { status: 400, headers: { 'request-id': 'req-7', 'retry-after': 'Mon, 23 Nov 2026 09:41:07 GMT' } });
    const fields = [{ path: 'fiatAmount', message: 'too many decimals' }];
    const error = toPayoutGatewayError(response, { statusCode: 400, message: 'Invalid request', code: 'validation_error', details: { fields } });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'ApiError', status: 400, requestId: 'req-7', retryAfterSeconds: undefined, details: { fields } });
    const html = toPayoutGatewayError(new Response(null, { status: 502 }), '<html>Bad gateway</html>');
    expect(html).toBeInstanceOf(UnexpectedResponseError);
    expect(html).toMatchObject({ shape: 'unknown', status: 502, body: '<html>Bad gateway</html>', requestId: undefined });
  });

  it('FxError carries the code of a shape D body, the one to branch on as with every other shape', () => {
    const answer = (status: number) => new Response(null, { status, headers: { 'request-id': 'req-9' } });
    const unsupported = toPayoutGatewayError(answer(422), { error: 422, message: 'No rate for KES to USDT', details: { requestId: 'req-9' }, code: 'unsupported_corridor' });
    expect(unsupported).toBeInstanceOf(FxError);
    expect(unsupported).toMatchObject({ shape: 'D', status: 422, code: 'unsupported_corridor', requestId: 'req-9', details: { requestId: 'req-9' } });
    const unavailable = toPayoutGatewayError(answer(503), { error: 503, message: 'No live exchange rate for KES/USDC now; retry later', details: {}, code: 'rate_unavailable' });
    expect(unavailable).toMatchObject({ shape: 'D', status: 503, code: 'rate_unavailable' });
  });

  it('FxError without a code in the body: the code its status documents, none for another status', () => {
    const withoutCode = (status: number) => toPayoutGatewayError(new Response(null, { status }), { error: status, message: 'm', details: {} });
    expect(withoutCode(422)).toMatchObject({ shape: 'D', code: 'unsupported_corridor' });
    expect(withoutCode(503)).toMatchObject({ shape: 'D', code: 'rate_unavailable' });
    const other = withoutCode(500);
    expect(other).toBeInstanceOf(FxError);
    expect((other as FxError).code).toBeUndefined();
  });

  it('FxError: a code in the body wins over the one its status documents', () => {
    const later = toPayoutGatewayError(new Response(null, { status: 422 }), { error: 422, message: 'm', details: {}, code: 'a_code_added_after_this_sdk' });
    expect(later).toMatchObject({ shape: 'D', status: 422, code: 'a_code_added_after_this_sdk' });
  });
});
