import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { ErrorPayloadSchema } from './error-payload.schema';
import type { z } from './zod';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed JSON, failed validation, missing or unknown fields, bad query parameters',
  401: 'Missing, malformed, expired, revoked or otherwise invalid bearer credential',
  403: 'Valid credential that may not do this',
  404: 'Unknown route or id, or a resource of another user',
  405: 'Known path, wrong method (see the Allow header)',
  408: 'The request (headers and body) was not received within the request timeout (REQUEST_TIMEOUT_MS, default 30 s); the connection is closed',
  409: 'Unique conflict',
  413: 'Request body over 1 MiB',
  415: 'Body is not application/json',
  422: 'The Idempotency-Key was already used for a different request (other method, path, query or body)',
  429: 'Rate limit hit (see Retry-After)',
  500: 'Unexpected fault',
  502: 'Upstream answered garbage',
  503: 'No live upstream, or a database is down',
  504: 'Upstream too slow',
};

export const errorResponse = (status: number, description = ERROR_DESCRIPTIONS[status] ?? 'Error'): ResponseConfig => ({
  description,
  content: { 'application/json': { schema: ErrorPayloadSchema } },
});

/** Errors any request through the gateway can meet, whatever the operation (408: a client too slow to send it). */
export const COMMON_ERROR_STATUSES = [408, 429, 500, 502, 503, 504] as const;

/** The `responses` map of an operation: its success plus every error status it can return. */
export function responses(
  success: Record<number, { description: string; schema?: z.ZodType }>,
  errorStatuses: readonly number[],
): Record<number, ResponseConfig> {
  const out: Record<number, ResponseConfig> = {};
  for (const [status, { description, schema }] of Object.entries(success)) {
    out[Number(status)] = schema ? { description, content: { 'application/json': { schema } } } : { description };
  }
  for (const status of new Set([...errorStatuses, ...COMMON_ERROR_STATUSES])) out[status] = errorResponse(status);
  return out;
}
