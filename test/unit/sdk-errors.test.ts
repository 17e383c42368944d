import { ApiError, errorShapeOf, FxError, toPayoutGatewayError, UnexpectedResponseError } from '../../sdk/src';

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
    const unavailable = toPayoutGatewayError(answer(503), { error: 503, message: 'Exchange rates are unavailable; retry later', details: {}, code: 'provider_unavailable' });
    expect(unavailable).toMatchObject({ shape: 'D', status: 503, code: 'provider_unavailable' });
  });

  it('FxError without a code in the body: the code its status documents, none for another status', () => {
    const withoutCode = (status: number) => toPayoutGatewayError(new Response(null, { status }), { error: status, message: 'm', details: {} });
    expect(withoutCode(422)).toMatchObject({ shape: 'D', code: 'unsupported_corridor' });
    expect(withoutCode(503)).toMatchObject({ shape: 'D', code: 'provider_unavailable' });
    const other = withoutCode(500);
    expect(other).toBeInstanceOf(FxError);
    expect((other as FxError).code).toBeUndefined();
  });
});
