import type { Id } from '../ids';
import type { PlayPrecision } from '../plays';

/**
 * One play (a finished viewing or reading) of a user. `season` / `number` are kept when the episode is later
 * removed (`episode_id` stays, pointing nowhere); both null for works without episodes. `seq` is the place of
 * the write that recorded it in the user's change feed. A request's `source_event_id` is on each of its plays,
 * `event_part` numbering them, under a unique index: the same event twice per user adds nothing.
 */
export interface PlayDocument {
  _id: Id;
  user_id: string;
  item_id: Id;
  episode_id: Id | null;
  season: number | null;
  number: number | null;
  watched_at: Date | null;
  precision: PlayPrecision;
  cycle: number;
  source: string;
  source_event_id?: string;
  event_part?: number;
  created_at: Date;
  seq: number;
}

/** The removal of a play, kept for the change feed like an entry's tombstone. */
export interface PlayDeletionDocument {
  user_id: string;
  item_id: Id;
  play_id: Id;
  seq: number;
  changed_at: Date;
  expires_at: Date;
}
