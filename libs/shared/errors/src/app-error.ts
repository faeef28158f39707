import { ERROR_CATALOG, type ErrorCode } from './error-catalog';

export interface ErrorDetail {
  path: string;
  message: string;
}

export interface AppErrorOptions {
  details?: ErrorDetail[];
  /** Response headers that belong to the error (Allow, Retry-After, ...). */
  headers?: Record<string, string>;
  /** Extra payload fields documented by the contract, e.g. `existing_id` on a catalog duplicate. */
  extra?: Record<string, unknown>;
  cause?: unknown;
}

/** An error whose message is safe to show to the client; everything else is rendered as a 500. */
export class AppError extends Error {
  readonly status: number;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;
  readonly extra?: Record<string, unknown>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = ERROR_CATALOG[code];
    this.details = options.details;
    this.headers = options.headers;
    this.extra = options.extra;
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

/** Short constructors, so services read `throw errors.notFound('movie not found')`. */
export const errors = {
  validation: (message: string, details: ErrorDetail[] = []) =>
    new AppError('validation_failed', message, { details }),
  unauthorized: (message = 'authentication required') => new AppError('unauthorized', message),
  forbidden: (message = 'forbidden') => new AppError('forbidden', message),
  notFound: (message = 'not found') => new AppError('not_found', message),
  methodNotAllowed: (allowed: string[]) =>
    new AppError('method_not_allowed', 'method not allowed', { headers: { Allow: allowed.join(', ') } }),
  /** The client did not send the whole request (headers and body) in time: its fault, never an upstream's. */
  requestTimeout: (message = 'request not received in time') => new AppError('request_timeout', message),
  conflict: (message: string, extra?: Record<string, unknown>) => new AppError('conflict', message, { extra }),
  cursorExpired: (message = 'this position of the change feed is no longer retained; re-read the list') =>
    new AppError('cursor_expired', message),
  payloadTooLarge: (message = 'request body exceeds 1 MiB') => new AppError('payload_too_large', message),
  unsupportedMediaType: (message = 'request body must be application/json') =>
    new AppError('unsupported_media_type', message),
  /** An Idempotency-Key already used for a different request (draft-ietf-httpapi-idempotency-key-header). */
  idempotencyKeyReused: (message = 'this Idempotency-Key was already used for a different request') =>
    new AppError('idempotency_key_reused', message),
  rateLimited: (retryAfterSeconds: number, message = 'too many requests') =>
    new AppError('rate_limited', message, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } }),
  internal: (message = 'internal server error') => new AppError('internal', message),
  badGateway: (message = 'upstream sent an invalid response') => new AppError('bad_gateway', message),
  serviceUnavailable: (message = 'service unavailable') => new AppError('service_unavailable', message),
  gatewayTimeout: (message = 'upstream timed out') => new AppError('gateway_timeout', message),
  providerUnavailable: (message = 'the provider is unavailable') => new AppError('provider_unavailable', message),
};
