import type { Session } from './atomic.port';
import type { Id } from '../ids';
import type { FeedResume } from '../feed-position';
import type { PlayDeletionDocument, PlayDocument } from '../records/play.record';

/** Where a page of plays resumes: after this play in the order newest `watched_at` first, unknown last, then `created_at`, then id. */
export interface PlayPosition {
  watchedAt: number | null;
  createdAt: number;
  id: string;
}

/** Which plays a page reads: one item's, or the diary's (a `watched_at` range, days inclusive). */
export type PlaysScope = { itemId: Id } | { from?: Date; before?: Date };

/** A user's plays (data/plays.repository.ts). */
export interface PlaysStore {
  insertMany(plays: readonly PlayDocument[], session: Session): Promise<void>;
  /** How many plays the user recorded with this `source_event_id`. */
  countOfEvent(userId: string, sourceEventId: string, session: Session): Promise<number>;
  /** The user's plays of the item at one of these instants (what a repeated request would add again). */
  atInstants(userId: string, itemId: Id, instants: readonly Date[], session: Session): Promise<Array<Pick<PlayDocument, 'season' | 'number' | 'watched_at'>>>;
  /** The plays of the item in `cycle`: their episodes. */
  ofCycle(userId: string, itemId: Id, cycle: number, session?: Session): Promise<Array<Pick<PlayDocument, 'episode_id' | 'season' | 'number' | 'watched_at'>>>;
  /** The latest known `watched_at` of the item's plays. */
  lastPlayedAt(userId: string, itemId: Id, session?: Session): Promise<Date | null>;
  page(userId: string, scope: PlaysScope, after: PlayPosition | null, limit: number): Promise<PlayDocument[]>;
  delete(userId: string, itemId: Id, playId: Id, session: Session): Promise<PlayDocument | null>;
  /** Entries removed from the list take their plays. */
  deleteOfItems(userId: string, itemIds: readonly Id[], session: Session): Promise<void>;
  deleteAllOfUser(userId: string, session: Session): Promise<void>;
  /** A catalog entry was removed: every list's plays of it go with their entries. */
  deleteOfItem(itemId: Id, session: Session): Promise<void>;
  /** A catalog merge: every play of `from` now names `into` (at its owner's `seq`), episodes replaced by the survivor's. */
  moveItem(from: Id, into: Id, episodes: ReadonlyMap<string, Id>, seqs: ReadonlyMap<string, number>, session: Session): Promise<void>;
  /** The change feed: plays after `after`, up to `maxSeq`, at least `limit` of them, never part of one (seq, item). */
  feedPage(userId: string, after: FeedResume | null, maxSeq: number, limit: number): Promise<PlayDocument[]>;
  recordDeletion(deletion: PlayDeletionDocument, session: Session): Promise<void>;
  deletionsFeedPage(userId: string, after: FeedResume | null, maxSeq: number, limit: number): Promise<PlayDeletionDocument[]>;
}
