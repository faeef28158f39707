import type { CategoryRecord } from '@mt/contracts';
import type { CategoryClient } from './category-client';
import type { SearchResults } from './aggregate.schemas';
import { expectOk, fanOut } from './fan-out';
import { listMarks } from './list-marks.service';

interface CatalogHit {
  id: string;
  title: string;
  year: number | null;
  description?: string | null;
  poster_url?: string | null;
  poster?: string | null;
}

export interface SearchInput {
  q: string;
  limit: number;
  /** The caller may read their lists: each hit says whether it is on theirs. */
  withListMarks: boolean;
}

/**
 * One search over every category: each category's own search (same matching and relevance), then, for a
 * caller who may read their lists, each hit's list entry (a 404 means not on the list).
 */
export async function searchEverywhere(client: CategoryClient, categories: readonly CategoryRecord[], timeoutMs: number, input: SearchInput): Promise<SearchResults> {
  const query = new URLSearchParams({ q: input.q, limit: String(input.limit) }).toString();
  const { parts, unavailable } = await fanOut(categories, timeoutMs, async (category, signal) => {
    const page = expectOk(category.id, await client.get<{ data: CatalogHit[]; total: number }>(category.id, `?${query}`, signal));
    const marks = input.withListMarks ? await listMarks(client, category.id, page.data.map((hit) => hit.id), signal) : [];
    return {
      category: category.id,
      display_name: category.display_name,
      total: page.total,
      results: page.data.map((hit, index) => ({
        id: hit.id,
        title: hit.title,
        year: hit.year,
        description: typeof hit.description === 'string' ? hit.description : null,
        poster_url: typeof hit.poster_url === 'string' ? hit.poster_url : null,
        poster: typeof hit.poster === 'string' ? hit.poster : null,
        on_list: marks[index] ?? null,
      })),
    };
  });
  return { q: input.q, groups: parts.map((part) => part.value), unavailable };
}
