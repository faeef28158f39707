import { ApiError } from '@mt/api-client';
import type { WebApi } from './web-api';

type Query = Record<string, string | number | undefined>;
interface Loose {
  (path: string, init?: { params?: { query?: Query }; body?: unknown; signal?: AbortSignal }): Promise<{ data?: unknown; error?: unknown; response: Response }>;
}

/**
 * Calls an endpoint by its concrete path, through the shared client so errors, credentials and 429s behave
 * like every other call: for the routes the generated document does not type by category (plays, providers,
 * hooks), whose paths are built here with each segment encoded.
 */
export async function call<T>(api: WebApi, method: 'GET' | 'POST' | 'DELETE', path: string, init: { query?: Query; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const send = (api.http as unknown as Record<typeof method, Loose>)[method];
  const { data, error, response } = await send(path, { params: { query: init.query }, body: init.body, signal: init.signal });
  if (!response.ok) throw ApiError.fromResponse(response, error);
  return data as T;
}
