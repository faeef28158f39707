import { hasIds } from './media-ids';
import type { ScrobbleEvent } from './scrobble-event';

/** What a hook says about the events it receives. */
export interface HookRules {
  /** Only events of these media-server users count (compared case-insensitively); empty: all. */
  usernames: readonly string[];
  /** Percent of the runtime a stop must reach to count as a play. */
  threshold: number;
}

export type Decision = { action: 'play' } | { action: 'start' } | { action: 'ignore'; reason: string };

/** Events closer than this on the same item through the same hook are one viewing. */
export const DUPLICATE_WINDOW_MS = 6 * 60 * 60 * 1000;

const identifiable = (event: ScrobbleEvent): boolean =>
  event.media === 'movie'
    ? Boolean(event.title) || hasIds(event.ids)
    : Boolean(event.showTitle) || hasIds(event.ids) || hasIds(event.episodeIds);

/**
 * The rules of docs/api.md "Scrobbling from media servers", in order: whose event it is, whether it names
 * something we can track, then what it means. A scrobble, a mark-played or a server's completion flag is a
 * play whatever the position; a plain stop is one only at or above the hook's threshold.
 */
export function decide(event: ScrobbleEvent, hook: HookRules): Decision {
  if (hook.usernames.length && !hook.usernames.some((name) => name.toLowerCase() === event.user?.toLowerCase())) {
    return { action: 'ignore', reason: 'event of a media-server user this hook does not follow' };
  }
  if (event.media === 'other') return { action: 'ignore', reason: 'not a movie or an episode' };
  if (!identifiable(event)) return { action: 'ignore', reason: 'the event names no title and no external id' };
  switch (event.kind) {
    case 'start':
      return { action: 'start' };
    case 'played':
      return { action: 'play' };
    case 'stop':
      if (event.progress !== null && event.progress * 100 >= hook.threshold) return { action: 'play' };
      return { action: 'ignore', reason: event.progress === null ? 'stopped without a known position' : `stopped below the hook's threshold (${hook.threshold}%)` };
    case 'pause':
      return { action: 'ignore', reason: 'a pause is not a play' };
    default:
      return { action: 'ignore', reason: 'not a playback event' };
  }
}
