import { INTERNAL_SECRET_HEADER } from '@mt/identity';

export interface RegistryResponse {
  status: number;
  body: unknown;
  /** The answer's `ETag` (the route table names its version with one). */
  etag?: string;
}

export interface RegistryRequest {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  body?: unknown;
  timeoutMs: number;
  /** `If-None-Match`: the registry answers 304 without a body when the resource is still this one. */
  ifNoneMatch?: string;
  /** Aborts the request early (stop()). */
  signal?: AbortSignal;
}

/** One call to the registry's internal API, authenticated with the internal secret and bounded in time. */
export async function callRegistry(
  registryUrl: string,
  internalSecret: string,
  path: string,
  request: RegistryRequest,
): Promise<RegistryResponse> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const response = await fetch(`${registryUrl.replace(/\/+$/, '')}${path}`, {
    method: request.method,
    headers: {
      [INTERNAL_SECRET_HEADER]: internalSecret,
      accept: 'application/json',
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(request.ifNoneMatch === undefined ? {} : { 'if-none-match': request.ifNoneMatch }),
    },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    signal: request.signal ? AbortSignal.any([request.signal, timeout]) : timeout,
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, body, etag: response.headers.get('etag') ?? undefined };
}

export const reasonOf = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
