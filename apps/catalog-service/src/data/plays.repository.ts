import { mongo } from 'mongoose';
import type { Session } from './atomic';
import { COLLECTIONS, type CatalogDatabase } from './database';
import { feedFilter, type FeedResume } from '../domain/feed-position';
import type { Id } from '../domain/ids';
import type { PlayDeletionDocument, PlayDocument } from '../domain/records/play.record';
import type { PlayPosition, PlaysScope, PlaysStore } from '../domain/ports/plays-store.port';

export const PLAY_INDEXES: mongo.IndexDescription[] = [
  // One event per user: 20 identical scrobbles racing give one set of plays.
  { name: 'user_event_unique', key: { user_id: 1, source_event_id: 1, event_part: 1 }, unique: true, partialFilterExpression: { source_event_id: { $exists: true } } },
  // One item's plays newest first (its page, its cycle, its latest play): the user and the item lead.
  { name: 'user_item_watched', key: { user_id: 1, item_id: 1, watched_at: -1, created_at: -1, _id: -1 } },
  { name: 'user_item_cycle', key: { user_id: 1, item_id: 1, cycle: 1 } },
  // The diary across items.
  { name: 'user_watched', key: { user_id: 1, watched_at: -1, created_at: -1, _id: -1 } },
  // The change feed, in commit order.
  { name: 'user_seq', key: { user_id: 1, seq: 1, item_id: 1, _id: 1 } },
  // Catalog merges move an item's plays in every list.
  { name: 'item', key: { item_id: 1 } },
];

export const PLAY_DELETION_INDEXES: mongo.IndexDescription[] = [
  { name: 'user_seq', key: { user_id: 1, seq: 1, item_id: 1, play_id: 1 } },
  { name: 'ttl', key: { expires_at: 1 }, expireAfterSeconds: 0 },
];

const NEWEST_FIRST = { watched_at: -1, created_at: -1, _id: -1 } as const;
const FEED_ORDER = { seq: 1, item_id: 1, _id: 1 } as const;

/** Plays strictly after `position` in NEWEST_FIRST order (an unknown `watched_at` sorts last). */
function afterPosition(position: PlayPosition): mongo.Filter<PlayDocument> {
  const createdAt = new Date(position.createdAt);
  const id = new mongo.ObjectId(position.id);
  const tie = { $or: [{ created_at: { $lt: createdAt } }, { created_at: createdAt, _id: { $lt: id } }] };
  if (position.watchedAt === null) return { watched_at: null, ...tie };
  const watchedAt = new Date(position.watchedAt);
  return { $or: [{ watched_at: { $lt: watchedAt } }, { watched_at: null }, { watched_at: watchedAt, ...tie }] };
}

export class PlaysRepository implements PlaysStore {
  constructor(private readonly db: CatalogDatabase) {}

  private get plays() {
    return this.db.collection<PlayDocument>(COLLECTIONS.plays);
  }

  private get deletions() {
    return this.db.collection<PlayDeletionDocument>(COLLECTIONS.playDeletions);
  }

  async ensureIndexes(): Promise<void> {
    await Promise.all([this.plays.createIndexes(PLAY_INDEXES), this.deletions.createIndexes(PLAY_DELETION_INDEXES)]);
  }

  async insertMany(plays: readonly PlayDocument[], session: Session): Promise<void> {
    if (plays.length) await this.plays.insertMany([...plays], { session, ordered: true });
  }

  countOfEvent(userId: string, sourceEventId: string, session: Session): Promise<number> {
    return this.plays.countDocuments({ user_id: userId, source_event_id: sourceEventId }, { session });
  }

  atInstants(userId: string, itemId: Id, instants: readonly Date[], session: Session) {
    if (!instants.length) return Promise.resolve([]);
    return this.plays.find({ user_id: userId, item_id: itemId, watched_at: { $in: [...instants] } }, { session, projection: { _id: 0, season: 1, number: 1, watched_at: 1 } }).toArray();
  }

  ofCycle(userId: string, itemId: Id, cycle: number, session?: Session) {
    return this.plays.find({ user_id: userId, item_id: itemId, cycle }, { session, projection: { _id: 0, episode_id: 1, season: 1, number: 1, watched_at: 1 } }).toArray();
  }

  async lastPlayedAt(userId: string, itemId: Id, session?: Session): Promise<Date | null> {
    const latest = await this.plays.findOne({ user_id: userId, item_id: itemId, watched_at: { $ne: null } }, { session, sort: NEWEST_FIRST, projection: { _id: 0, watched_at: 1 } });
    return latest?.watched_at ?? null;
  }

  page(userId: string, scope: PlaysScope, after: PlayPosition | null, limit: number): Promise<PlayDocument[]> {
    const filter: mongo.Filter<PlayDocument> = { user_id: userId };
    if ('itemId' in scope) filter.item_id = scope.itemId;
    else if (scope.from || scope.before) filter.watched_at = { ...(scope.from ? { $gte: scope.from } : {}), ...(scope.before ? { $lt: scope.before } : {}) };
    const query = after ? { $and: [filter, afterPosition(after)] } : filter;
    return this.plays.find(query).sort(NEWEST_FIRST).limit(limit).toArray();
  }

  delete(userId: string, itemId: Id, playId: Id, session: Session): Promise<PlayDocument | null> {
    return this.plays.findOneAndDelete({ _id: playId, user_id: userId, item_id: itemId }, { session });
  }

  async deleteOfItems(userId: string, itemIds: readonly Id[], session: Session): Promise<void> {
    if (itemIds.length) await this.plays.deleteMany({ user_id: userId, item_id: { $in: [...itemIds] } }, { session });
  }

  async deleteOfItem(itemId: Id, session: Session): Promise<void> {
    await this.plays.deleteMany({ item_id: itemId }, { session });
  }

  async deleteAllOfUser(userId: string, session: Session): Promise<void> {
    await this.plays.deleteMany({ user_id: userId }, { session });
    await this.deletions.deleteMany({ user_id: userId }, { session });
  }

  async moveItem(from: Id, into: Id, episodes: ReadonlyMap<string, Id>, seqs: ReadonlyMap<string, number>, session: Session): Promise<void> {
    const writes: mongo.AnyBulkWriteOperation<PlayDocument>[] = [...seqs].map(([userId, seq]) => ({
      updateMany: { filter: { user_id: userId, item_id: from }, update: { $set: { item_id: into, seq } } },
    }));
    for (const [old, survivor] of episodes) writes.push({ updateMany: { filter: { item_id: into, episode_id: new mongo.ObjectId(old) }, update: { $set: { episode_id: survivor } } } });
    if (writes.length) await this.plays.bulkWrite(writes, { session, ordered: true });
  }

  async feedPage(userId: string, after: FeedResume | null, maxSeq: number, limit: number): Promise<PlayDocument[]> {
    const rows = await this.plays.find(feedFilter<PlayDocument>(userId, after, maxSeq)).sort(FEED_ORDER).limit(limit).toArray();
    return this.withWholeLastGroup(rows, limit, (last) => this.plays.find({ user_id: userId, seq: last.seq, item_id: last.item_id, _id: { $gt: last._id } }).sort(FEED_ORDER).toArray());
  }

  async recordDeletion(deletion: PlayDeletionDocument, session: Session): Promise<void> {
    await this.deletions.insertOne({ ...deletion }, { session });
  }

  async deletionsFeedPage(userId: string, after: FeedResume | null, maxSeq: number, limit: number): Promise<PlayDeletionDocument[]> {
    const order = { seq: 1, item_id: 1, play_id: 1 } as const;
    const rows = await this.deletions.find(feedFilter<PlayDeletionDocument>(userId, after, maxSeq), { projection: { _id: 0 } }).sort(order).limit(limit).toArray();
    return this.withWholeLastGroup(rows, limit, (last) =>
      this.deletions.find({ user_id: userId, seq: last.seq, item_id: last.item_id, play_id: { $gt: last.play_id } }, { projection: { _id: 0 } }).sort(order).toArray(),
    );
  }

  /** A feed page never ends inside one write's rows of one item (its position names an item, not a play). */
  private async withWholeLastGroup<T>(rows: T[], limit: number, rest: (last: T) => Promise<T[]>): Promise<T[]> {
    const last = rows.at(-1);
    if (!last || rows.length < limit) return rows;
    return [...rows, ...(await rest(last))];
  }
}
