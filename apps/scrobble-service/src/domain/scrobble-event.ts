/** The media servers a hook can be made for: each has its own parser (./parsers). */
export const SERVERS = ['jellyfin', 'plex', 'emby', 'generic'] as const;
export type Server = (typeof SERVERS)[number];
export const isServer = (value: string): value is Server => (SERVERS as readonly string[]).includes(value);

/**
 * What happened, whatever server said it: `played` is a server's own "viewed" verdict (Plex's scrobble, a
 * mark-played, Jellyfin's and Emby's completion flag on a stop); `other` is any event that is not playback.
 */
export type EventKind = 'start' | 'stop' | 'played' | 'pause' | 'other';
export type MediaType = 'movie' | 'episode' | 'other';

/** The external ids the catalog knows for movies and shows (docs/api.md "External ids and lookup"). */
export interface MediaIds {
  imdb?: string;
  tmdb?: string;
  tvdb?: string;
}

/** One server event, normalised: the parsers' only output. */
export interface ScrobbleEvent {
  kind: EventKind;
  media: MediaType;
  /** A movie's title, or an episode's own title. */
  title: string | null;
  year: number | null;
  /** Episodes: the series' title, season and episode number. */
  showTitle: string | null;
  season: number | null;
  number: number | null;
  /** A movie's ids, or the show's ids for an episode (only the generic format sends those). */
  ids: MediaIds;
  /** An episode's own ids (what Jellyfin, Plex and Emby send for an episode). */
  episodeIds: MediaIds;
  /** Position ÷ runtime, 0–1, when the server sent both. */
  progress: number | null;
  /** The media server's user the event is about. */
  user: string | null;
  /** The sender's own id of this event (generic `event_id`): a repeated one is a repeated delivery. */
  eventId: string | null;
}

/** A body that is not the named server's format (a 400). */
export class NotServerFormatError extends Error {}

/**
 * The event of a media server, which sends the ids of the item played: a movie's ids, or an episode's own.
 * An episode's show, season and number are kept for episodes only.
 */
export function mediaServerEvent(fields: Omit<ScrobbleEvent, 'ids' | 'episodeIds' | 'eventId'> & { itemIds: MediaIds }): ScrobbleEvent {
  const { itemIds, ...event } = fields;
  const episode = fields.media === 'episode';
  return {
    ...event,
    showTitle: episode ? fields.showTitle : null,
    season: episode ? fields.season : null,
    number: episode ? fields.number : null,
    ids: fields.media === 'movie' ? itemIds : {},
    episodeIds: episode ? itemIds : {},
    eventId: null,
  };
}
