import { ApiError, type CatalogEntry, type ListEntry, type SearchResults } from '@mt/api-client';
import type { WebApi } from './web-api';

/** Results per category on the home's search: a glance; the category's own search pages the rest. */
export const SEARCH_EVERYWHERE_LIMIT = 5;

/** One search over every category, cancellable: typing supersedes the previous query. */
export async function searchEverywhere(api: WebApi, q: string, signal?: AbortSignal): Promise<SearchResults> {
  const { data, error, response } = await api.http.GET('/api/v1/search', { params: { query: { q, limit: SEARCH_EVERYWHERE_LIMIT } }, signal });
  if (!response.ok) throw ApiError.fromResponse(response, error);
  return data as SearchResults;
}

/** A catalog entry with the person's list entry for it (null when not on the list: no 404 in the console). */
export async function fetchEntryPage(api: WebApi, category: string, id: string): Promise<{ item: CatalogEntry; listEntry: ListEntry | null }> {
  const { data, error, response } = await api.http.GET('/api/v1/entries/{category}/{id}', { params: { path: { category, id } } });
  if (!response.ok) throw ApiError.fromResponse(response, error);
  const page = data as { item: CatalogEntry; list_entry: ListEntry | null };
  return { item: page.item, listEntry: page.list_entry };
}

export type ListMarks = Record<string, { status: ListEntry['status']; progress: number | null; score: number | null } | null>;

/** Which of a page of results are on the person's list (GET /api/v1/entries/{category}?ids=). */
export async function fetchListMarks(api: WebApi, category: string, ids: readonly string[], signal?: AbortSignal): Promise<ListMarks> {
  if (ids.length === 0) return {};
  const { data, error, response } = await api.http.GET('/api/v1/entries/{category}', { params: { path: { category }, query: { ids: ids.join(',') } }, signal });
  if (!response.ok) throw ApiError.fromResponse(response, error);
  return data as ListMarks;
}
