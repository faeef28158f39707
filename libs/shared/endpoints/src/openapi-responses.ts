import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { HeaderObject, HeadersObject } from 'openapi3-ts/oas30';
import { ErrorPayloadSchema } from '@mt/contracts';
import type { HeaderSpec, ResponseSpec } from './endpoint';

type HeaderRef = { $ref: string };

/** Headers every API response carries (the gateway adds the rate-limit ones; probes are never limited). */
export const RESPONSE_HEADERS: Record<string, HeaderSpec> = {
  'X-Request-Id': {
    description: "The request's id: the client's own when it sent a valid one (at most 128 visible characters), else generated. It appears in every service's log line for the request.",
    schema: { type: 'string' },
  },
  'RateLimit-Limit': { description: 'Requests allowed per window for this caller (user when authenticated, else client address)', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the current window ends', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed JSON, failed validation, missing or unknown fields, unknown or invalid query parameters',
  401: 'Missing, malformed, expired, revoked or otherwise invalid bearer credential',
  403: 'Valid credential that may not do this (missing scope, not the owner)',
  404: 'Unknown id, or a resource of another user',
  405: 'Known path, wrong method (see the Allow header)',
  408: 'The request (headers or body) did not arrive within the request timeout',
  409: 'Unique conflict',
  410: 'Gone: the cursor is older than what is retained',
  413: 'Request body too large',
  415: 'Request body of an unsupported content type',
  422: 'The request is well-formed but cannot be processed as sent',
  429: 'Rate limit hit (see Retry-After)',
  500: 'Unexpected fault',
  502: 'An upstream service answered garbage',
  503: 'No live instance of the service, or a database is down',
  504: 'An upstream service was too slow',
};

/** Errors any request through the gateway can meet, whatever the operation. */
export const COMMON_ERROR_STATUSES = [408, 429, 500, 502, 503, 504] as const;

const headerRef = (name: string): HeaderRef => ({ $ref: `#/components/headers/${name}` });

/** Registers the shared headers once per fragment, so responses refer to them instead of repeating them. */
export function registerResponseHeaders(registry: OpenAPIRegistry): void {
  for (const [name, header] of Object.entries(RESPONSE_HEADERS)) registry.registerComponent('headers', name, header as HeaderObject);
}

export interface ResponseHeaderOptions {
  /** API operations behind the gateway carry the rate-limit headers; probes do not. */
  rateLimited: boolean;
}

function standardHeaders(status: number, options: ResponseHeaderOptions): Record<string, HeaderRef> {
  const names = ['X-Request-Id'];
  if (options.rateLimited) names.push('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset');
  if (status === 429 || status === 503) names.push('Retry-After');
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
}

export function successResponse(status: number, spec: ResponseSpec, options: ResponseHeaderOptions): ResponseConfig {
  const headers: HeadersObject = { ...standardHeaders(status, options), ...(spec.headers as HeadersObject | undefined) };
  if (spec.content) {
    const content = Object.fromEntries(Object.entries(spec.content).map(([type, schema]) => [type, { schema }]));
    return { description: spec.description, headers, content };
  }
  if (!spec.schema) return { description: spec.description, headers };
  return { description: spec.description, headers, content: { [spec.contentType ?? 'application/json']: { schema: spec.schema } } };
}

export function errorResponse(status: number, options: ResponseHeaderOptions, description = ERROR_DESCRIPTIONS[status] ?? 'Error'): ResponseConfig {
  return { description, headers: standardHeaders(status, options), content: { 'application/json': { schema: ErrorPayloadSchema } } };
}

/** The `responses` of an operation: its successes, then every error status it can answer, in order. */
export function operationResponses(
  successes: Record<number, ResponseSpec>,
  errorStatuses: Iterable<number>,
  options: ResponseHeaderOptions,
): Record<number, ResponseConfig> {
  const out: Record<number, ResponseConfig> = {};
  for (const [status, spec] of Object.entries(successes)) out[Number(status)] = successResponse(Number(status), spec, options);
  for (const status of [...new Set(errorStatuses)].sort((a, b) => a - b)) out[status] ??= errorResponse(status, options);
  return out;
}
