import { ApiError, parseRetryAfter } from './api-error';

const response = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers });

describe('ApiError.fromResponse', () => {
  it('carries the error payload: message, code, request id, details and existing id', () => {
    const payload = {
      error: 'an entry with this title and year exists',
      status: 409,
      timestamp: '2026-11-21T16:11:00.000Z',
      code: 'conflict',
      request_id: 'req-1',
      existing_id: '65f1c0ffee0000000000abcd',
      details: [{ path: 'title', message: 'taken' }],
    };
    const error = ApiError.fromResponse(response(409, { 'x-request-id': 'req-1' }), payload);
    expect(error).toMatchObject({
      status: 409,
      message: payload.error,
      code: 'conflict',
      requestId: 'req-1',
      existingId: payload.existing_id,
      details: payload.details,
      payload,
    });
  });

  it('reads Retry-After on a 429', () => {
    const payload = { error: 'too many requests', status: 429, timestamp: 't', code: 'rate_limited', request_id: 'r' };
    expect(ApiError.fromResponse(response(429, { 'retry-after': '17' }), payload).retryAfterSeconds).toBe(17);
  });

  it('codes an answer that is not the error payload by its status, with the X-Request-Id header', () => {
    const error = ApiError.fromResponse(response(502, { 'x-request-id': 'edge-7' }), '<html>Bad Gateway</html>');
    expect(error).toMatchObject({ status: 502, code: 'bad_gateway', requestId: 'edge-7', payload: '<html>Bad Gateway</html>' });
    expect(error.message).toBe('HTTP 502 (not an API error payload)');
    expect(ApiError.fromResponse(response(418), undefined).code).toBe('unexpected_response');
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-11-21T16:11:00.000Z');
    expect(parseRetryAfter('30', now)).toBe(30);
    expect(parseRetryAfter('Sat, 21 Nov 2026 16:11:10 GMT', now)).toBe(10);
    expect(parseRetryAfter('Sat, 21 Nov 2026 16:10:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
