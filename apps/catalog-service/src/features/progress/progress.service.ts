import { errors } from '@mt/errors';
import { nextCursor, resumeWalk, type CursorCodec } from '@mt/pagination';
import { toId } from '../../domain/ids';
import { utcToday } from '../../domain/list-dates';
import { episodeKey } from '../../domain/plays';
import { isAired, isRegularSeason, type Episode } from '../../domain/episodes';
import { airedEpisodes, nextEpisodeSlot, regularPlayed } from '../../domain/play-state';
import type { EpisodesStore } from '../../domain/ports/episodes-store.port';
import type { ListStore } from '../../domain/ports/list-store.port';
import type { PlaysStore } from '../../domain/ports/plays-store.port';
import type { ListEntryDocument } from '../../domain/records/list-entry.record';

export interface NextEpisode {
  id: string;
  season: number;
  number: number;
  title: string | null;
  air_date: string | null;
}

const nextOf = (episode: Episode): NextEpisode => ({ id: episode.id.toHexString(), season: episode.season, number: episode.number, title: episode.title, air_date: episode.airDate });

export interface ProgressServiceDeps {
  lists: ListStore;
  plays: PlaysStore;
  episodes: EpisodesStore;
  cursors: CursorCodec;
  now?: () => Date;
}

/** Up-next reads candidates in batches of this size until its page is full. */
const CANDIDATE_BATCH = 50;

/** Where a show stands for its watcher (episodic categories): its progress, and the user's shows up next. */
export class ProgressService {
  private readonly now: () => Date;

  constructor(private readonly deps: ProgressServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** The show's progress in the entry's current cycle, season by season (specials listed, not counted). */
  async progress(userId: string, itemId: string) {
    const id = toId(itemId);
    const entry = await this.deps.lists.find(userId, id);
    if (!entry) throw errors.notFound('entry not on your list');
    const cycle = entry.cycle ?? 1;
    const [episodes, plays, lastPlayedAt] = await Promise.all([this.deps.episodes.allOf(id), this.deps.plays.ofCycle(userId, id, cycle), this.deps.plays.lastPlayedAt(userId, id)]);
    const today = utcToday(this.now());
    const perEpisode = new Map<string, { plays: number; last: Date | null }>();
    for (const play of plays) {
      const key = episodeKey(play.season, play.number);
      const seen = perEpisode.get(key) ?? { plays: 0, last: null };
      const later = play.watched_at && (!seen.last || play.watched_at > seen.last) ? play.watched_at : seen.last;
      perEpisode.set(key, { plays: seen.plays + 1, last: later });
    }
    const played = regularPlayed(plays);
    const next = nextEpisodeSlot(episodes, played) as Episode | null;
    const seasons = [...new Set(episodes.map((episode) => episode.season))].map((number) => {
      const ofSeason = episodes.filter((episode) => episode.season === number);
      const isPlayed = (episode: Episode) => perEpisode.has(episodeKey(episode.season, episode.number));
      return {
        number,
        aired: ofSeason.filter((episode) => episode.airDate !== null && episode.airDate <= today).length,
        completed: ofSeason.filter(isPlayed).length,
        episodes: ofSeason.map((episode) => {
          const seen = perEpisode.get(episodeKey(episode.season, episode.number));
          return { id: episode.id.toHexString(), number: episode.number, title: episode.title, air_date: episode.airDate, plays: seen?.plays ?? 0, last_watched_at: seen?.last?.toISOString() ?? null };
        }),
      };
    });
    return {
      cycle,
      aired: airedEpisodes(episodes, today).length,
      completed: played.size,
      next_episode: next && nextOf(next),
      last_played_at: lastPlayedAt?.toISOString() ?? null,
      seasons,
    };
  }

  /**
   * The user's `watching` shows whose next episode (the first regular one unplayed in the cycle) has aired,
   * most recently played first. Each entry keeps its next episode (written with its plays), so a page reads
   * one index range and the page's own episodes, whatever the number of plays.
   */
  async upNext(userId: string, query: { cursor?: string; limit?: number }) {
    const limit = query.limit ?? 20;
    const bound = { owner: userId, view: 'up-next' };
    const walk = resumeWalk(this.deps.cursors, query.cursor ?? '', bound, this.now().getTime());
    let after = walk.after as { lastPlayedAt: number | null; itemId: string } | null;
    const today = utcToday(this.now());
    const shown: Array<{ entry: ListEntryDocument; next: Episode }> = [];
    let exhausted = false;
    while (shown.length <= limit && !exhausted) {
      // A first batch the size of the page: usually every candidate's next episode has aired.
      const batch = Math.min(Math.max(limit + 1 - shown.length, 10), CANDIDATE_BATCH);
      const candidates = await this.deps.lists.upNextCandidates(userId, after, batch);
      exhausted = candidates.length < batch;
      const places = candidates.flatMap((entry) => (entry.next_episode ? [{ showId: entry.item_id, ...entry.next_episode }] : []));
      const found = new Map((await this.deps.episodes.atPlaces(places)).map((episode) => [`${episode.showId.toHexString()}:${episode.season}x${episode.number}`, episode]));
      for (const entry of candidates) {
        const next = entry.next_episode && found.get(`${entry.item_id.toHexString()}:${entry.next_episode.season}x${entry.next_episode.number}`);
        if (next && isRegularSeason(next.season) && isAired(next, today)) shown.push({ entry, next });
        if (shown.length > limit) break;
        after = { lastPlayedAt: entry.last_played_at?.getTime() ?? null, itemId: entry.item_id.toHexString() };
      }
    }
    const page = shown.slice(0, limit);
    const aired = await this.deps.episodes.airedCounts(page.map(({ entry }) => entry.item_id), today);
    const last = page.at(-1)?.entry;
    const position = last && { lastPlayedAt: last.last_played_at?.getTime() ?? null, itemId: last.item_id.toHexString() };
    return {
      data: page.map(({ entry, next }) => ({
        item: { id: entry.item_id.toHexString(), title: entry.item_title ?? '', year: entry.item_year ?? null },
        next_episode: nextOf(next),
        completed: entry.progress ?? 0,
        aired: aired.get(entry.item_id.toHexString()) ?? 0,
        last_played_at: entry.last_played_at?.toISOString() ?? null,
      })),
      limit,
      next_cursor: nextCursor(this.deps.cursors, bound, walk, position as never, shown.length > limit),
    };
  }
}
