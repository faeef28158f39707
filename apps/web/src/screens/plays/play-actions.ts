import type { Category, ListEntry } from '@mt/api-client';
import { UserFacingError } from '../../api/describe-error';
import { addPlays, allItemPlays, deletePlay, episodeCode, fetchShowProgress } from '../../api/play-calls';
import type { WebApi } from '../../api/web-api';
import { progressUnit } from '../../categories/labels';

/** Aired by today (UTC, as the API judges it); an unknown air date has not aired. */
export const hasAired = (episode: { air_date: string | null }) => episode.air_date !== null && episode.air_date <= new Date().toISOString().slice(0, 10);

/** Shows count progress in episodes, and their episodes are plays: +1 plays the next one. */
export const tracksEpisodes = (category: Category | undefined) => progressUnit(category) === 'episodes';

/**
 * Unticks an episode: deletes its plays of the current cycle (what made it ticked). A play of an earlier
 * cycle stays in the diary: unticking is about where the person stands now, not about rewriting history.
 */
export async function unmarkEpisode(api: WebApi, category: string, itemId: string, episodeId: string, cycle: number): Promise<void> {
  const plays = (await allItemPlays(api, category, itemId)).filter((play) => play.episode?.id === episodeId);
  const current = plays.filter((play) => play.cycle === cycle);
  for (const play of current.length ? current : plays.slice(0, 1)) await deletePlay(api, category, itemId, play.id);
}

/** What +1 did: the entry as it now is, what to tell the person, and how to take it back (Undo). */
export interface PlusOne {
  entry: ListEntry;
  said: string;
  undo: () => Promise<ListEntry>;
}

/**
 * +1 on an entry: for a show with listed episodes, a play of its next aired one (progress and status follow
 * from it, and Undo deletes that play); otherwise progress + 1, moving something planned to watching.
 */
export async function plusOne(api: WebApi, category: Category, entry: ListEntry): Promise<PlusOne> {
  const title = entry.item.title;
  // A show whose episodes the catalog does not list yet counts its progress by hand, like any other work.
  const show = tracksEpisodes(category) ? await fetchShowProgress(api, entry.item_id) : undefined;
  if (show && show.seasons.length > 0) {
    const next = show.next_episode;
    if (!next || !hasAired(next)) throw new UserFacingError(`Every aired episode of “${title}” is already watched.`);
    const { added } = await addPlays(api, category.id, entry.item_id, { watched_at: 'now', episodes: [{ episode_id: next.id }] });
    return {
      entry: await api.getListEntry(category.id, entry.item_id),
      said: `${episodeCode(next)} of “${title}” marked as watched.`,
      undo: async () => {
        for (const play of added) await deletePlay(api, category.id, entry.item_id, play.id);
        return api.getListEntry(category.id, entry.item_id);
      },
    };
  }
  const progress = (entry.progress ?? 0) + 1;
  const starting = entry.status === 'plan_to_watch';
  const updated = await api.updateListEntry(category.id, entry.item_id, starting ? { progress, status: 'watching' } : { progress });
  return {
    entry: updated,
    said: `Progress of “${title}”: ${progress}.`,
    undo: () => api.updateListEntry(category.id, entry.item_id, starting ? { progress: entry.progress, status: entry.status } : { progress: entry.progress }),
  };
}
