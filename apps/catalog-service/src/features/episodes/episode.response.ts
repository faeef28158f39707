import type { Episode } from '../../domain/episodes';

/** An episode as the API answers it. */
export interface EpisodeResponse {
  id: string;
  season: number;
  number: number;
  title: string | null;
  air_date: string | null;
  runtime_minutes: number | null;
  external_ids: Record<string, string>;
}

export const toEpisodeResponse = (episode: Episode): EpisodeResponse => ({
  id: episode.id.toHexString(),
  season: episode.season,
  number: episode.number,
  title: episode.title,
  air_date: episode.airDate,
  runtime_minutes: episode.runtimeMinutes,
  external_ids: { ...episode.externalIds },
});
