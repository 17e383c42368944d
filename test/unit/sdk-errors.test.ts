import { ApiError, errorShapeOf, toPayoutGatewayError, UnexpectedResponseError } from '../../sdk/src';

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
});
