import { ERROR_CATALOG, codeForStatus } from './error-catalog';

describe('ERROR_CATALOG', () => {
  it('maps every stable code of docs/api.md "Errors" to its HTTP status', () => {
    expect(ERROR_CATALOG).toEqual({
      validation_failed: 400,
      unauthorized: 401,
      forbidden: 403,
      not_found: 404,
      method_not_allowed: 405,
      request_timeout: 408,
      conflict: 409,
      cursor_expired: 410,
      payload_too_large: 413,
      unsupported_media_type: 415,
      idempotency_key_reused: 422,
      rate_limited: 429,
      internal: 500,
      bad_gateway: 502,
      service_unavailable: 503,
      gateway_timeout: 504,
      provider_unavailable: 502,
    });
  });
});

describe('codeForStatus', () => {
  it('finds the code of every catalogued status', () => {
    for (const [code, status] of Object.entries(ERROR_CATALOG))
      if (code !== 'provider_unavailable') expect(codeForStatus(status)).toBe(code);
  });

  it('answers the general bad_gateway for a 502, never the provider-specific code', () => {
    expect(codeForStatus(502)).toBe('bad_gateway');
  });

  it('falls back to internal for other 5xx and validation_failed for other 4xx', () => {
    expect(codeForStatus(501)).toBe('internal');
    expect(codeForStatus(418)).toBe('validation_failed');
  });
});
