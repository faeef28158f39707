import { classifyUpstreamError, upstreamFailureError, UpstreamTimeoutError } from './upstream-errors';

const withCode = (code: string) => Object.assign(new Error(code), { code });

describe('upstream failure mapping', () => {
  it.each([
    [withCode('ECONNREFUSED'), 'refused', 503, 'service_unavailable'],
    [withCode('ENOTFOUND'), 'unreachable', 503, 'service_unavailable'],
    [withCode('EHOSTUNREACH'), 'unreachable', 503, 'service_unavailable'],
    [new UpstreamTimeoutError(10), 'timeout', 504, 'gateway_timeout'],
    [withCode('ETIMEDOUT'), 'timeout', 504, 'gateway_timeout'],
    [withCode('ECONNRESET'), 'reset', 502, 'bad_gateway'],
    [withCode('EPIPE'), 'reset', 502, 'bad_gateway'],
    [withCode('HPE_INVALID_CONSTANT'), 'invalid_response', 502, 'bad_gateway'],
    [new Error('socket hang up'), 'reset', 502, 'bad_gateway'],
  ])('%s → %s → %i', (error, failure, status, code) => {
    const kind = classifyUpstreamError(error);
    expect(kind).toBe(failure);
    const appError = upstreamFailureError(kind, 'movies');
    expect(appError.status).toBe(status);
    expect(appError.code).toBe(code);
  });

  it('names the missing category when no instance is live', () => {
    const appError = upstreamFailureError('no_instance', 'books');
    expect(appError.status).toBe(503);
    expect(appError.message).toBe('no live instance of books service');
  });
});
