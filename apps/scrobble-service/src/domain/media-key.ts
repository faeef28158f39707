import { titleKey } from '@mt/domain';
import { idPairs } from './media-ids';
import type { ScrobbleEvent } from './scrobble-event';

/**
 * Keys that name what an event is about before it is matched to the catalog:
 * - the subject: a movie, or an episode's show — what a resolved inbox entry is remembered by, per hook;
 * - the media: the movie, or the show's one episode — what the 6-hour duplicate rule and the inbox group by.
 * Ids win over titles, so the same item keeps its key whatever its title says on another server.
 */
export function subjectKey(event: ScrobbleEvent): string {
  const ids = idPairs(event.ids);
  if (event.media === 'movie') {
    return ids.length ? `movie|${ids.map(([key, value]) => `${key}:${value}`).join('|')}` : `movie|title:${titleKey(event.title ?? '')}|${event.year ?? ''}`;
  }
  if (event.showTitle) return `show|title:${titleKey(event.showTitle)}`;
  if (ids.length) return `show|${ids.map(([key, value]) => `${key}:${value}`).join('|')}`;
  return `show|episode:${idPairs(event.episodeIds).map(([key, value]) => `${key}:${value}`).join('|')}`;
}

export function mediaKey(event: ScrobbleEvent): string {
  const subject = subjectKey(event);
  if (event.media === 'movie') return subject;
  if (event.season !== null && event.number !== null) return `${subject}|s${event.season}e${event.number}`;
  return `${subject}|${idPairs(event.episodeIds).map(([key, value]) => `${key}:${value}`).join('|')}`;
}
