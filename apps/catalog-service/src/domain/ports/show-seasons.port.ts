import type { Id } from '../ids';

/** One episode of a season as a metadata provider gives it. */
export interface SeasonEpisodeInput {
  number: number;
  title: string | null;
  air_date: string | null;
  runtime_minutes: number | null;
  external_ids: Record<string, string>;
}

/** Where a show's seasons are written (the episodes store): a season replaced whole, ids of numbers that stay kept. */
export interface ShowSeasonsWriter {
  replaceSeason(showId: Id, season: number, episodes: readonly SeasonEpisodeInput[]): Promise<void>;
}
