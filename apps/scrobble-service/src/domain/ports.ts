import type { MediaIds, ScrobbleEvent, Server } from './scrobble-event';

/** The categories a scrobble lands in. */
export type ScrobbleCategory = 'movies' | 'tvshows';

export interface Hook {
  id: string;
  userId: string;
  server: Server;
  name: string;
  usernames: string[];
  threshold: number;
  createdAt: Date;
  lastEventAt: Date | null;
}

export type EventAction = 'play' | 'start';
export type EventStatus = 'pending' | 'recorded' | 'watching' | 'unmatched' | 'gone';

/** An accepted event, stored before the 202 so that a crash after it loses nothing. */
export interface StoredEvent {
  id: string;
  hookId: string;
  userId: string;
  server: Server;
  action: EventAction;
  event: ScrobbleEvent;
  mediaKey: string;
  subjectKey: string;
  status: EventStatus;
  receivedAt: Date;
}

/** Where an event landed in the catalog: the item, and for an episode which one. */
export interface CatalogMatch {
  category: ScrobbleCategory;
  itemId: string;
  episode: { episode_id: string } | { season: number; number: number } | null;
}

export interface InboxEntry {
  id: string;
  hookId: string;
  server: Server;
  subjectKey: string;
  category: ScrobbleCategory;
  title: string | null;
  year: number | null;
  season: number | null;
  number: number | null;
  externalIds: MediaIds;
  firstSeenAt: Date;
  lastSeenAt: Date;
  count: number;
  /** The plays that wait for this entry to be resolved (the newest ones, bounded). */
  eventIds: string[];
}

/** A failure worth retrying later (no live instance, a 5xx, a timeout): the queue retries the job. */
export class CatalogUnavailable extends Error {
  override readonly name = 'CatalogUnavailable';
}

/** The catalog's metadata provider failed (its 502): worth retrying while the event is young (scrobble-rules). */
export class ProviderUnavailable extends Error {
  override readonly name = 'ProviderUnavailable';
}

/** The catalog refused a request of ours for good (a 4xx other than 404): retrying would not help. */
export class CatalogRefused extends Error {
  override readonly name = 'CatalogRefused';
}

/** The catalog's answers the matcher and the recorder need (through its instances' HTTP API). */
export interface CatalogPort {
  findByExternalId(category: ScrobbleCategory, key: string, value: string): Promise<string | null>;
  /** Entries whose folded title equals `title` (and whose year equals `year` when given). */
  findByTitle(category: ScrobbleCategory, title: string, year: number | null): Promise<string | null>;
  findEpisode(query: { externalId: string } | { showId: string; season: number; number: number }): Promise<{ itemId: string; episodeId: string } | null>;
  /**
   * The catalog entry of a work its providers find (by an id, else by its exact title and year), added as created
   * by the user when the catalog lacks it; null when no provider finds it. A failing provider is ProviderUnavailable.
   */
  addFromProvider(userId: string, category: ScrobbleCategory, work: { title: string | null; year: number | null; externalIds: MediaIds }): Promise<string | null>;
  /** Records one play under the user's identity; the same sourceEventId twice records it once. Null: the item or episode is unknown. */
  recordPlay(userId: string, match: CatalogMatch, play: { watchedAt: Date; sourceEventId: string; source: string }): Promise<{ playId: string | null } | null>;
  /** Puts the item on the user's list as watching unless it is there. Null: the item is unknown. */
  startWatching(userId: string, match: CatalogMatch, source: string): Promise<true | null>;
}
