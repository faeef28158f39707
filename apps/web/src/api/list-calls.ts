import { ApiError, type ListEntry, type ListEntryCreate, type ListQuery } from '@mt/api-client';
import type { CursorPage } from './catalog-calls';
import type { WebApi } from './web-api';

export type ListSort = 'updated_at' | 'created_at' | 'title' | 'score';

export interface ListPageQuery {
  status?: ListEntry['status'];
  sort: ListSort;
  order: 'asc' | 'desc';
  page: number;
  limit: number;
}

/** One page of the person's list, cancellable when the tab or sort changes before it arrives. */
export async function fetchListPage(api: WebApi, category: string, query: ListPageQuery, signal?: AbortSignal): Promise<CursorPage<ListEntry>> {
  const { data, error, response } = await api.categoryHttp.GET('/api/v1/{category}/list', {
    params: { path: { category }, query: query as ListQuery },
    signal,
  });
  if (!response.ok) throw ApiError.fromResponse(response, error);
  return data as CursorPage<ListEntry>;
}

/** What it takes to put a deleted entry back (Undo): everything the person set, not the timestamps. */
export const restorable = (entry: ListEntry): ListEntryCreate => ({
  item_id: entry.item_id,
  status: entry.status,
  score: entry.score,
  progress: entry.progress,
  notes: entry.notes,
  started_at: entry.started_at,
  finished_at: entry.finished_at,
});

/** Runs `task` over `items`, a few at a time (a restore of 200 entries must not open 200 requests at once). */
export async function eachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
