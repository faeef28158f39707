import type { PlayDocument } from '../../domain/records/play.record';
import type { PlayPrecision } from '../../domain/plays';

export interface PlayResponse {
  id: string;
  item_id: string;
  episode: { id: string; season: number; number: number } | null;
  season: number | null;
  number: number | null;
  watched_at: string | null;
  precision: PlayPrecision;
  cycle: number;
  source: string;
  created_at: string;
}

/** A play as the API answers it; `episodeExists` says whether the episode it names is still in the catalog. */
export function toPlayResponse(play: PlayDocument, episodeExists: (id: string) => boolean): PlayResponse {
  const episodeId = play.episode_id?.toHexString();
  return {
    id: play._id.toHexString(),
    item_id: play.item_id.toHexString(),
    episode: episodeId && play.season !== null && play.number !== null && episodeExists(episodeId) ? { id: episodeId, season: play.season, number: play.number } : null,
    season: play.season,
    number: play.number,
    watched_at: play.watched_at?.toISOString() ?? null,
    precision: play.precision,
    cycle: play.cycle,
    source: play.source,
    created_at: play.created_at.toISOString(),
  };
}
