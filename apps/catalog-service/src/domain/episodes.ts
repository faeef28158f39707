/** The vocabulary of a show's episodes (categories whose definition says `episodic`). */
import type { EpisodicCapability } from '@mt/domain';
import type { Id } from './ids';

/** Season 0 holds the specials: listed, never counted. */
export const SPECIALS_SEASON = 0;
export const MAX_SEASON = 1000;
export const MAX_EPISODE_NUMBER = 10000;
export const MAX_EPISODES_PER_SEASON = 1000;
export const MAX_EPISODES_PAGE = 500;
export const DEFAULT_EPISODES_PAGE = 100;

/** The external id keys an episode may carry (the providers' ids of that episode). */
export const EPISODE_EXTERNAL_ID_KEYS = ['imdb', 'tmdb', 'tvdb'] as const;
export type EpisodeExternalIdKey = (typeof EPISODE_EXTERNAL_ID_KEYS)[number];

/** One episode as a season is written (PUT of a season, a provider's import). */
export interface EpisodeInput {
  number: number;
  title?: string | null;
  air_date?: string | null;
  runtime_minutes?: number | null;
  external_ids?: Partial<Record<EpisodeExternalIdKey, string>>;
}

/** One episode of a show, as stored. */
export interface Episode {
  id: Id;
  showId: Id;
  season: number;
  number: number;
  title: string | null;
  /** `YYYY-MM-DD`, null when unknown (then never counted as aired). */
  airDate: string | null;
  runtimeMinutes: number | null;
  externalIds: Partial<Record<EpisodeExternalIdKey, string>>;
}

/** Regular seasons are counted (the show's counts, aired, completion); specials only when played. */
export const isRegularSeason = (season: number): boolean => season > SPECIALS_SEASON;

/** Aired: a regular episode whose air date is known and not after `today` (`YYYY-MM-DD`). */
export const isAired = (episode: Pick<Episode, 'season' | 'airDate'>, today: string): boolean =>
  isRegularSeason(episode.season) && episode.airDate !== null && episode.airDate <= today;

/** The show's `seasons` / `episodes` counts: regular seasons that have episodes, and their episodes. */
export function episodeCounts(episodes: ReadonlyArray<Pick<Episode, 'season'>>): { seasons: number; episodes: number } {
  const regular = episodes.filter((episode) => isRegularSeason(episode.season));
  return { seasons: new Set(regular.map((episode) => episode.season)).size, episodes: regular.length };
}

/** The `$set` of a show's own count fields, as the category's episodic capability names them. */
export function episodeCountFields(capability: EpisodicCapability, episodes: ReadonlyArray<Pick<Episode, 'season'>>): Record<string, number> {
  const counts = episodeCounts(episodes);
  return { [`own.${capability.seasonsField}`]: counts.seasons, [`own.${capability.episodesField}`]: counts.episodes };
}

/** Episode order everywhere: season, then number. */
export const bySeasonAndNumber = (a: Pick<Episode, 'season' | 'number'>, b: Pick<Episode, 'season' | 'number'>): number => a.season - b.season || a.number - b.number;

/** Who writes a season: a user (the show's creator, unless `moderator`), or a provider import (`userId` null, acting as moderator). */
export interface SeasonEditor {
  userId: string | null;
  moderator: boolean;
}
