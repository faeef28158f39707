import { errors, type ErrorDetail } from '@mt/errors';
import { toId, type Id } from '../../domain/ids';
import type { Episode } from '../../domain/episodes';
import { isAired, isRegularSeason } from '../../domain/episodes';
import { resolvePlayTime, yearRelease, type PlayPrecision } from '../../domain/plays';
import { utcToday } from '../../domain/list-dates';

/** What a play names: an episode by place or by id. */
export type EpisodeRef = { season: number; number: number } | { episode_id: string };

/** The plays part of a request (the public body, a batch item, a scrobble). */
export interface PlaysInput {
  watched_at?: string;
  episodes?: EpisodeRef[];
  seasons?: number[];
  all_aired?: true;
  source_event_id?: string;
}

/** One play about to be written. */
export interface PlannedPlay {
  episodeId: Id | null;
  season: number | null;
  number: number | null;
  watchedAt: Date | null;
  precision: PlayPrecision;
}

/** The work played: its year (release plays of works without episodes) and, for shows, its episodes. */
export interface PlayedWork {
  year: number | null;
  episodic: boolean;
  episodes: readonly Episode[];
}

/** Thrown for a request naming an episode or a season the catalog does not know: a 404 naming it. */
export const unknownEpisode = (what: string) => errors.notFound(`${what} is not an episode of this show`);

const refName = (ref: EpisodeRef) => ('episode_id' in ref ? `episode ${ref.episode_id}` : `season ${ref.season} episode ${ref.number}`);

function pickEpisodes(input: PlaysInput, work: PlayedWork, today: string): Episode[] {
  const picked = new Map<string, Episode>();
  const add = (episode: Episode) => picked.set(episode.id.toHexString(), episode);
  for (const ref of input.episodes ?? []) {
    const found = 'episode_id' in ref ? work.episodes.find((episode) => episode.id.equals(toId(ref.episode_id))) : work.episodes.find((episode) => episode.season === ref.season && episode.number === ref.number);
    if (!found) throw unknownEpisode(refName(ref));
    add(found);
  }
  for (const season of input.seasons ?? []) {
    const ofSeason = work.episodes.filter((episode) => episode.season === season);
    if (!ofSeason.length) throw unknownEpisode(`season ${season}`);
    // Specials count only when played explicitly: a season form names them, all_aired does not.
    ofSeason.filter((episode) => episode.airDate !== null && episode.airDate <= today).forEach(add);
  }
  if (input.all_aired) work.episodes.filter((episode) => isRegularSeason(episode.season) && isAired(episode, today)).forEach(add);
  return [...picked.values()].sort((a, b) => a.season - b.season || a.number - b.number);
}

/**
 * The plays a request asks for, validated as a whole before anything is written: episode forms only for
 * episodic works (400), an episode or season the show does not have (404 naming it), `watched_at` resolved
 * per play (`release`: each episode's air date, a work's 1 January of its year).
 */
export function planPlays(input: PlaysInput, work: PlayedWork, now: Date): PlannedPlay[] {
  const names = (['episodes', 'seasons', 'all_aired'] as const).filter((key) => input[key] !== undefined);
  if (!work.episodic) {
    if (names.length) throw errors.validation('only episodic works (tvshows) have episodes', names.map((path): ErrorDetail => ({ path, message: 'episodes can be named only in tvshows' })));
    return [{ episodeId: null, season: null, number: null, ...timeOf(resolvePlayTime(input.watched_at, now, () => yearRelease(work.year))) }];
  }
  if (!names.length) throw errors.validation('name what was played', [{ path: 'episodes', message: 'a show is played by episodes: give episodes, seasons or all_aired' }]);
  return pickEpisodes(input, work, utcToday(now)).map((episode) => ({
    episodeId: episode.id,
    season: episode.season,
    number: episode.number,
    ...timeOf(resolvePlayTime(input.watched_at, now, () => episode.airDate)),
  }));
}

const timeOf = (time: { watchedAt: Date | null; precision: PlayPrecision }) => ({ watchedAt: time.watchedAt, precision: time.precision });
