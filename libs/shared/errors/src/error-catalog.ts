/** Stable, machine-readable error codes of the public contract (docs/api.md "Errors") and their HTTP status. */
export const ERROR_CATALOG = {
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  /** A change-feed position older than the feed retains (docs/api.md "Errors"): the client re-reads the list. */
  cursor_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal: 500,
  bad_gateway: 502,
  service_unavailable: 503,
  gateway_timeout: 504,
  /** A metadata provider (or its image host) failed, timed out or sent something unusable (docs/api.md "Errors"). */
  provider_unavailable: 502,
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export function codeForStatus(status: number): ErrorCode {
  const found = (Object.keys(ERROR_CATALOG) as ErrorCode[]).find((code) => ERROR_CATALOG[code] === status);
  if (found) return found;
  return status >= 500 ? 'internal' : 'validation_failed';
}
