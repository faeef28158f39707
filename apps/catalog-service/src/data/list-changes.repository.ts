import type { ShardingDeclaration } from '@mt/stores';
import type { mongo } from 'mongoose';
import type { Session } from './atomic';
import { COLLECTIONS, type CatalogDatabase } from './database';
import { feedFilter, type FeedResume } from '../domain/feed-position';
import type { ListChangeDocument } from '../domain/records/list-change.record';
import type { ListChangesStore } from '../domain/ports/list-changes-store.port';

export const LIST_CHANGE_INDEXES: mongo.IndexDescription[] = [
  // One record per (user, item): the compaction key, also how a removal finds the record it replaces.
  { name: 'user_item_unique', key: { user_id: 1, item_id: 1 }, unique: true },
  // The feed: a user's records after a position, in commit order (ties of one write by item id).
  { name: 'user_seq', key: { user_id: 1, seq: 1, item_id: 1 } },
  // Each tombstone lives until its expires_at.
  { name: 'tombstone_ttl', key: { expires_at: 1 }, expireAfterSeconds: 0 },
];

/** The feed, by owner like the list it follows: a user's feed reads and compacts on one shard. */
export const LIST_CHANGE_SHARDING: ShardingDeclaration = {
  collection: COLLECTIONS.listChanges,
  shardKey: { user_id: 1, item_id: 1 },
  scatterGather: ['the start-up migration of legacy upsert records (`type: upsert`, once per upgrade)'],
};

export class ListChangesRepository implements ListChangesStore {
  constructor(private readonly db: CatalogDatabase) {}

  private get changes() {
    return this.db.collection<ListChangeDocument>(COLLECTIONS.listChanges);
  }

  async ensureIndexes(): Promise<void> {
    await this.changes.createIndexes(LIST_CHANGE_INDEXES);
  }

  /** Inside a list write's transaction: the items left the list as of `seq`; the tombstone lives until `expiresAt`. */
  async recordDeletes(
    userId: string,
    seq: number,
    itemIds: readonly mongo.ObjectId[],
    at: Date,
    expiresAt: Date,
    session: Session,
  ): Promise<void> {
    await this.recordDeletesOfMany(itemIds.map((itemId) => ({ userId, seq, itemId })), at, expiresAt, session);
  }

  /**
   * Inside a list write's or a moderation's transaction: one tombstone per (user, item), each at its user's
   * own `seq`, in one bulk write whatever the number of lists touched.
   */
  async recordDeletesOfMany(records: ReadonlyArray<{ userId: string; seq: number; itemId: mongo.ObjectId }>, at: Date, expiresAt: Date, session: Session): Promise<void> {
    if (!records.length) return;
    await this.changes.bulkWrite(
      records.map(({ userId, seq, itemId }) => ({
        updateOne: {
          filter: { user_id: userId, item_id: itemId },
          update: { $set: { seq, type: 'delete', changed_at: at, expires_at: expiresAt } },
          upsert: true,
        },
      })),
      { session, ordered: false },
    );
  }

  /**
   * Up to `limit` records of the user strictly after `after` (from the start without it; after all of
   * `after.seq` when it names no item) and numbered at most `maxSeq`, in feed order.
   */
  page(userId: string, after: FeedResume | null, maxSeq: number, limit: number): Promise<Array<Pick<ListChangeDocument, 'item_id' | 'seq' | 'changed_at'>>> {
    return this.changes
      .find(feedFilter<ListChangeDocument>(userId, after, maxSeq), { projection: { _id: 0, item_id: 1, seq: 1, changed_at: 1 } })
      .sort({ seq: 1, item_id: 1 })
      .limit(limit)
      .toArray();
  }

  /** Account deletion: the feed goes with the list (deletion is not a change of the list). */
  async deleteAllOfUser(userId: string, session: Session): Promise<void> {
    await this.changes.deleteMany({ user_id: userId }, { session });
  }
}
