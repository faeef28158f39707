import { AppError, errors, isAppError } from './app-error';

describe('errors (AppError constructors)', () => {
  it('gives each error the status of its code', () => {
    const cases: Array<[AppError, number, string]> = [
      [errors.validation('bad'), 400, 'validation_failed'],
      [errors.unauthorized(), 401, 'unauthorized'],
      [errors.forbidden(), 403, 'forbidden'],
      [errors.notFound(), 404, 'not_found'],
      [errors.methodNotAllowed(['GET']), 405, 'method_not_allowed'],
      [errors.conflict('taken'), 409, 'conflict'],
      [errors.payloadTooLarge(), 413, 'payload_too_large'],
      [errors.unsupportedMediaType(), 415, 'unsupported_media_type'],
      [errors.rateLimited(3), 429, 'rate_limited'],
      [errors.internal(), 500, 'internal'],
      [errors.badGateway(), 502, 'bad_gateway'],
      [errors.serviceUnavailable(), 503, 'service_unavailable'],
      [errors.gatewayTimeout(), 504, 'gateway_timeout'],
      [errors.requestTimeout(), 408, 'request_timeout'],
      [errors.idempotencyKeyReused(), 422, 'idempotency_key_reused'],
    ];
    for (const [error, status, code] of cases) {
      expect(isAppError(error)).toBe(true);
      expect({ status: error.status, code: error.code }).toEqual({ status, code });
    }
  });

  it('starts validation errors with an empty details list', () => {
    expect(errors.validation('bad').details).toEqual([]);
    expect(errors.validation('bad', [{ path: 'a', message: 'm' }]).details).toEqual([{ path: 'a', message: 'm' }]);
  });

  it('names the allowed methods in the Allow header of a 405', () => {
    expect(errors.methodNotAllowed(['GET', 'HEAD', 'POST']).headers).toEqual({ Allow: 'GET, HEAD, POST' });
  });

  it('rounds Retry-After of a 429 up to whole seconds, at least 1', () => {
    expect(errors.rateLimited(2.1).headers).toEqual({ 'Retry-After': '3' });
    expect(errors.rateLimited(0).headers).toEqual({ 'Retry-After': '1' });
  });

  it('carries extra payload fields of a conflict', () => {
    expect(errors.conflict('duplicate', { existing_id: 'abc' }).extra).toEqual({ existing_id: 'abc' });
  });

  it('keeps the cause without exposing it', () => {
    const cause = new Error('driver text');
    const error = new AppError('internal', 'internal server error', { cause });
    expect(error.cause).toBe(cause);
    expect(error.message).toBe('internal server error');
  });

  it('does not treat plain errors as AppErrors', () => {
    expect(isAppError(new Error('x'))).toBe(false);
  });
});
