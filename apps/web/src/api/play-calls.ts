import type { ListEntry } from '@mt/api-client';
import { call } from './route-call';
import type { WebApi } from './web-api';

/** A show's episode as the catalog lists it (docs/api.md "Episodes, plays and rewatches"). */
export interface EpisodeProgress {
  id: string;
  number: number;
  title: string | null;
  air_date: string | null;
  plays: number;
  last_watched_at: string | null;
}

export interface NextEpisode {
  id: string;
  season: number;
  number: number;
  title: string | null;
  air_date: string | null;
}

/** Where a person stands in a show: the current cycle's played episodes, season by season. */
export interface ShowProgress {
  cycle: number;
  aired: number;
  completed: number;
  next_episode: NextEpisode | null;
  last_played_at: string | null;
  seasons: Array<{ number: number; aired: number; completed: number; episodes: EpisodeProgress[] }>;
}

export type Precision = 'exact' | 'day' | 'unknown' | 'release';

export interface Play {
  id: string;
  item_id: string;
  item?: { id: string; title: string; year: number | null; poster?: string | null };
  episode: { id: string; season: number; number: number } | null;
  season: number | null;
  number: number | null;
  watched_at: string | null;
  precision: Precision;
  cycle: number;
  source: string;
  created_at: string;
}

export interface UpNext {
  item: { id: string; title: string; year: number | null };
  next_episode: NextEpisode;
  completed: number;
  aired: number;
  last_played_at: string | null;
}

/** When it was watched: an ISO date-time, a calendar date, or one of the words the API knows. */
export type WatchedAt = 'now' | 'release' | 'unknown' | string;

export interface PlaysRequest {
  watched_at?: WatchedAt;
  episodes?: Array<{ season: number; number: number } | { episode_id: string }>;
  seasons?: number[];
  all_aired?: true;
}

export interface CursorList<T> {
  data: T[];
  next_cursor?: string | null;
}

const listPath = (category: string, itemId: string) => `/api/v1/${encodeURIComponent(category)}/list/${encodeURIComponent(itemId)}`;

export const fetchShowProgress = (api: WebApi, itemId: string, signal?: AbortSignal) =>
  call<ShowProgress>(api, 'GET', `${listPath('tvshows', itemId)}/progress`, { signal });

export const addPlays = (api: WebApi, category: string, itemId: string, body: PlaysRequest) =>
  call<{ added: Play[]; existing: number }>(api, 'POST', `${listPath(category, itemId)}/plays`, { body });

export const fetchItemPlays = (api: WebApi, category: string, itemId: string, cursor?: string, signal?: AbortSignal) =>
  call<CursorList<Play>>(api, 'GET', `${listPath(category, itemId)}/plays`, { query: { limit: 100, cursor }, signal });

export const deletePlay = (api: WebApi, category: string, itemId: string, playId: string) =>
  call<{ message: string }>(api, 'DELETE', `${listPath(category, itemId)}/plays/${encodeURIComponent(playId)}`);

export const startRewatch = (api: WebApi, category: string, itemId: string) => call<ListEntry>(api, 'POST', `${listPath(category, itemId)}/rewatch`);

export const fetchDiary = (api: WebApi, category: string, range: { from?: string; to?: string; cursor?: string }, signal?: AbortSignal) =>
  call<CursorList<Play>>(api, 'GET', `/api/v1/${encodeURIComponent(category)}/list/plays`, { query: { ...range, limit: 50 }, signal });

/** Every play of an item (cursor pages, read to the end): what an unmark looks through. */
export async function allItemPlays(api: WebApi, category: string, itemId: string): Promise<Play[]> {
  const plays: Play[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetchItemPlays(api, category, itemId, cursor);
    plays.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return plays;
}

/** "S1 · E3" — how a show's episode is named in short. */
export const episodeCode = (episode: { season: number | null; number: number | null }) =>
  episode.season === null || episode.number === null ? '' : `S${episode.season} · E${episode.number}`;
