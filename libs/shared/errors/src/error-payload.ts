import type { ErrorCode } from './error-catalog';
import type { ErrorDetail } from './app-error';

/** The one error body of every component (docs/api.md "Errors"). */
export interface ErrorPayload {
  error: string;
  status: number;
  timestamp: string;
  code: ErrorCode;
  request_id: string;
  details?: ErrorDetail[];
  [extra: string]: unknown;
}

export function buildErrorPayload(input: {
  message: string;
  status: number;
  code: ErrorCode;
  requestId: string;
  details?: ErrorDetail[];
  extra?: Record<string, unknown>;
}): ErrorPayload {
  return {
    ...input.extra,
    error: input.message,
    status: input.status,
    timestamp: new Date().toISOString(),
    code: input.code,
    request_id: input.requestId,
    ...(input.details ? { details: input.details } : {}),
  };
}
