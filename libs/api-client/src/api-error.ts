import type { ErrorPayload } from './types';

/** Codes of the error payload (docs/api.md "Errors"), and the one a client assigns when an answer is not that payload. */
export type ApiErrorCode = ErrorPayload['code'] | 'cursor_expired' | 'unexpected_response';

export interface ApiErrorDetail {
  path: string;
  message: string;
}

const CODE_BY_STATUS: Record<number, ApiErrorCode> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  410: 'cursor_expired',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/**
 * An error answer of the API, with what its error payload says: `message` is the payload's `error`, and
 * `code`, `requestId`, `details` and `existingId` are the payload's fields. An answer that is not the
 * contract's payload (a proxy in between answering HTML) still becomes an ApiError, coded by its status.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ApiErrorCode;
  /** The request id to quote to an operator: the payload's `request_id`, else the X-Request-Id header. */
  readonly requestId: string | undefined;
  readonly details: readonly ApiErrorDetail[];
  /** On a catalog duplicate (409): the id of the entry that already exists. */
  readonly existingId: string | undefined;
  /** On a 429 (or a 503 that says so): seconds to wait before trying again. */
  readonly retryAfterSeconds: number | undefined;
  /** The payload as the server sent it (an object, a text, or undefined for an empty body). */
  readonly payload: unknown;

  constructor(init: {
    status: number;
    message: string;
    code: ApiErrorCode;
    requestId?: string;
    details?: readonly ApiErrorDetail[];
    existingId?: string;
    retryAfterSeconds?: number;
    payload?: unknown;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details ?? [];
    this.existingId = init.existingId;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.payload = init.payload;
  }

  /** The error of a non-2xx answer, from its parsed body (openapi-fetch's `error`) and headers. */
  static fromResponse(response: Response, body: unknown): ApiError {
    const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
    const headerId = response.headers.get('x-request-id') ?? undefined;
    if (isErrorPayload(body)) {
      return new ApiError({
        status: response.status,
        message: body.error,
        code: body.code as ApiErrorCode,
        requestId: body.request_id ?? headerId,
        details: Array.isArray(body.details) ? body.details.filter(isDetail) : [],
        existingId: typeof body.existing_id === 'string' ? body.existing_id : undefined,
        retryAfterSeconds,
        payload: body,
      });
    }
    return new ApiError({
      status: response.status,
      message: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''} (not an API error payload)`,
      code: CODE_BY_STATUS[response.status] ?? 'unexpected_response',
      requestId: headerId,
      retryAfterSeconds,
      payload: body,
    });
  }
}

/** The server could not be reached, or did not answer in time: no HTTP answer at all. */
export class ApiNetworkError extends Error {
  override readonly name = 'ApiNetworkError';
  constructor(
    message: string,
    readonly url: string,
    readonly timedOut: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const isApiError = (error: unknown, code?: ApiErrorCode): error is ApiError =>
  error instanceof ApiError && (code === undefined || error.code === code);

function isErrorPayload(body: unknown): body is ErrorPayload & { details?: unknown; existing_id?: unknown } {
  if (!body || typeof body !== 'object') return false;
  const candidate = body as Record<string, unknown>;
  return typeof candidate['error'] === 'string' && typeof candidate['code'] === 'string';
}

function isDetail(value: unknown): value is ApiErrorDetail {
  return Boolean(value) && typeof value === 'object' && typeof (value as ApiErrorDetail).message === 'string';
}

/** `Retry-After` as whole seconds: a delay (`120`) or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  // An HTTP date names its day and month (`Wed, 21 Oct 2015 07:28:00 GMT`); Date.parse would read "-3" as a year.
  const at = /[A-Za-z]/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
