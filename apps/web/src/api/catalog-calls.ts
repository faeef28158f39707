import { ApiError, type CatalogEntry, type Page, type SearchQuery } from '@mt/api-client';
import type { WebApi } from './web-api';

/** A page that may carry the cursor of the next one (docs/api.md "Conventions", once the server sends it). */
export type CursorPage<T> = Page<T> & { next_cursor?: string | null };

export interface SearchPosition {
  page?: number;
  cursor?: string;
}

/**
 * One page of the catalog search, cancellable: typing supersedes the previous query, whose request is
 * aborted rather than left to overwrite newer results.
 */
export async function searchCatalog(
  api: WebApi,
  category: string,
  query: { q?: string; limit: number } & SearchPosition,
  signal?: AbortSignal,
): Promise<CursorPage<CatalogEntry>> {
  const { q, limit, page, cursor } = query;
  const params = { ...(q ? { q } : {}), limit, ...(cursor ? { cursor } : { page: page ?? 1 }) };
  const { data, error, response } = await api.categoryHttp.GET('/api/v1/{category}', {
    params: { path: { category }, query: params as SearchQuery },
    signal,
  });
  if (!response.ok) throw ApiError.fromResponse(response, error);
  return data as CursorPage<CatalogEntry>;
}
