import type { CategoryRecord } from '@mt/contracts';
import { LIST_STATUSES, PROGRESS_LENGTH_FIELDS, type ListStatus } from '@mt/domain';
import type { CategoryClient } from './category-client';
import { HOME_PLANNED_PER_CATEGORY, HOME_RECENTLY_FINISHED, HOME_UP_NEXT_PER_CATEGORY, type Home, type HomeEntry, type WorkSummary } from './aggregate.schemas';
import { expectOk, fanOut } from './fan-out';

/** What the home reads of a list entry and a catalog entry (the categories' own schemas have more). */
interface ListEntryAnswer {
  item_id: string;
  item: { id: string; title: string; year: number | null };
  status: ListStatus;
  score: number | null;
  progress: number | null;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
}
interface CatalogEntryAnswer {
  description?: string | null;
  poster_url?: string | null;
  poster?: string | null;
  [field: string]: unknown;
}
interface ListStatsAnswer {
  total: number;
  by_status: Record<ListStatus, number>;
}
interface Page<T> {
  data: T[];
}
type NextEpisode = NonNullable<HomeEntry['next_episode']>;
interface UpNextAnswer {
  item: { id: string };
  next_episode: NextEpisode;
}

/** Completed entries read per category to find the recently finished ones and count this month's. */
const COMPLETED_SCAN = 100;

const monthOf = (now: Date) => now.toISOString().slice(0, 7);

function workSummary(entry: ListEntryAnswer, catalog: CatalogEntryAnswer | undefined, category: CategoryRecord): WorkSummary {
  const lengthField = category.progress_unit ? PROGRESS_LENGTH_FIELDS[category.progress_unit] : undefined;
  const length = lengthField ? catalog?.[lengthField] : undefined;
  return {
    id: entry.item.id,
    title: entry.item.title,
    year: entry.item.year,
    description: typeof catalog?.description === 'string' ? catalog.description : null,
    poster_url: typeof catalog?.poster_url === 'string' ? catalog.poster_url : null,
    poster: typeof catalog?.poster === 'string' ? catalog.poster : null,
    progress_total: typeof length === 'number' ? length : null,
  };
}

function homeEntry(category: CategoryRecord, entry: ListEntryAnswer, catalog?: CatalogEntryAnswer, next?: NextEpisode): HomeEntry {
  const { status, score, progress, started_at, finished_at, updated_at } = entry;
  return { category: category.id, item: workSummary(entry, catalog, category), status, score, progress, started_at, finished_at, updated_at, next_episode: next ?? null };
}

/**
 * The next aired episode of each show being watched, in an episodic category (`/list/up-next`); none elsewhere.
 * A category that does not answer it (a version without plays) only costs the cards their next episode.
 */
async function nextEpisodes(client: CategoryClient, category: CategoryRecord, signal: AbortSignal): Promise<Map<string, NextEpisode>> {
  if (category.progress_unit !== 'episodes') return new Map();
  const answer = await client.get<Page<UpNextAnswer>>(category.id, `/list/up-next?limit=${HOME_UP_NEXT_PER_CATEGORY}`, signal);
  if (answer.status !== 200) return new Map();
  return new Map(answer.body.data.map((show) => [show.item.id, show.next_episode]));
}

const latestFinishedFirst = (a: HomeEntry, b: HomeEntry) =>
  (b.finished_at ?? '').localeCompare(a.finished_at ?? '') || b.updated_at.localeCompare(a.updated_at);

/**
 * The caller's home from each category's existing endpoints, every category at once: entries being watched
 * or planned (with their catalog entry, for the length and description), completed ones, and the list's counters.
 */
export async function buildHome(client: CategoryClient, categories: readonly CategoryRecord[], timeoutMs: number, now = new Date()): Promise<Home> {
  const month = monthOf(now);
  const { parts, unavailable } = await fanOut(categories, timeoutMs, async (category, signal) => {
    const get = async <T>(path: string) => expectOk(category.id, await client.get<T>(category.id, path, signal));
    const [watching, planned, completed, stats, next] = await Promise.all([
      get<Page<ListEntryAnswer>>(`/list?status=watching&limit=${HOME_UP_NEXT_PER_CATEGORY}`),
      get<Page<ListEntryAnswer>>(`/list?status=plan_to_watch&limit=${HOME_PLANNED_PER_CATEGORY}`),
      get<Page<ListEntryAnswer>>(`/list?status=completed&limit=${COMPLETED_SCAN}`),
      get<ListStatsAnswer>('/list/stats'),
      nextEpisodes(client, category, signal),
    ]);
    // A catalog entry that cannot be read (removed meanwhile) only costs its card the description and length.
    const withCatalog = (entries: ListEntryAnswer[]) =>
      Promise.all(
        entries.map(async (entry) => {
          const answer = await client.get<CatalogEntryAnswer>(category.id, `/${entry.item_id}`, signal);
          return homeEntry(category, entry, answer.status === 200 ? answer.body : undefined, next.get(entry.item_id));
        }),
      );
    const [upNext, toStart] = await Promise.all([withCatalog(watching.data), withCatalog(planned.data)]);
    return {
      upNext,
      planned: toStart,
      finished: completed.data.map((entry) => homeEntry(category, entry)),
      glance: {
        category: category.id,
        total: stats.total,
        by_status: Object.fromEntries(LIST_STATUSES.map((status) => [status, stats.by_status[status] ?? 0])) as Record<ListStatus, number>,
        finished_this_month: completed.data.filter((entry) => entry.finished_at?.startsWith(month)).length,
      },
    };
  });
  const glances = parts.map((part) => part.value.glance);
  const lastChangedFirst = (a: HomeEntry, b: HomeEntry) => b.updated_at.localeCompare(a.updated_at);
  return {
    up_next: parts.flatMap((part) => part.value.upNext).sort(lastChangedFirst),
    planned: parts.flatMap((part) => part.value.planned).sort(lastChangedFirst),
    recently_finished: parts
      .flatMap((part) => part.value.finished)
      .sort(latestFinishedFirst)
      .slice(0, HOME_RECENTLY_FINISHED),
    month: { month, finished: glances.reduce((sum, glance) => sum + glance.finished_this_month, 0), by_category: glances },
    unavailable,
  };
}
