import type { ListStatus } from '@mt/domain';
import type { CategoryClient } from './category-client';

export interface ListMark {
  status: ListStatus;
  progress: number | null;
  score: number | null;
}

/**
 * Which of these works are on the caller's list, and how: one read of the list per work, all at once (a 404
 * is "not on the list"). The category offers no read of several list entries by id, so the callers bound
 * the ids (a page of results).
 */
export async function listMarks(client: CategoryClient, category: string, ids: readonly string[], signal: AbortSignal): Promise<Array<ListMark | null>> {
  return Promise.all(
    ids.map(async (id) => {
      const answer = await client.get<ListMark>(category, `/list/${id}`, signal);
      return answer.status === 200 ? { status: answer.body.status, progress: answer.body.progress, score: answer.body.score } : null;
    }),
  );
}
