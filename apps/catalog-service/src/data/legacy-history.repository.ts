import type { ShardingDeclaration } from '@mt/stores';
import type { mongo } from 'mongoose';
import type { Session } from './atomic';
import { COLLECTIONS, type CatalogDatabase } from './database';
import type { HistoryEvent } from '../domain/list-history';
import type { LegacyHistoryStore } from '../domain/ports/legacy-history-store.port';

/**
 * `list_history`, where the previous version kept each entry's history (one document per (user, item),
 * events newest first). Entries now carry their own (`list_entries.history`); this store is only read
 * (an instance of the previous version may still write it during a rolling upgrade), folded into the
 * entries at start-up (migrations/003-legacy-history.ts), and cleared where the entry goes. A read shim,
 * with its readers and writers: removable after 1.0.0, with the step.
 */
export interface LegacyHistoryDocument {
  _id: mongo.ObjectId;
  user_id: string;
  item_id: mongo.ObjectId;
  events: HistoryEvent[];
}

export const LEGACY_HISTORY_INDEXES: mongo.IndexDescription[] = [{ name: 'user_item_unique', key: { user_id: 1, item_id: 1 }, unique: true }];

/** The previous version's history, by owner like the entries it belongs to. */
export const LEGACY_HISTORY_SHARDING: ShardingDeclaration = {
  collection: COLLECTIONS.listHistory,
  shardKey: { user_id: 1, item_id: 1 },
  scatterGather: ['a catalog entry merged or removed: its history in every list (by `item_id`)', 'the start-up fold into the entries (by document id)'],
};

export class LegacyHistoryRepository implements LegacyHistoryStore {
  constructor(private readonly db: CatalogDatabase) {}

  private get history() {
    return this.db.collection<LegacyHistoryDocument>(COLLECTIONS.listHistory);
  }

  /** Kept while instances of the previous version may write here (they rely on its uniqueness). */
  async ensureIndexes(): Promise<void> {
    await this.history.createIndexes(LEGACY_HISTORY_INDEXES);
  }

  /** Newest first; empty when nothing of the entry is kept here. */
  async events(userId: string, itemId: mongo.ObjectId): Promise<HistoryEvent[]> {
    const doc = await this.history.findOne({ user_id: userId, item_id: itemId }, { projection: { _id: 0, events: 1 } });
    return doc?.events ?? [];
  }

  /** Start-up fold: up to `limit` documents after `afterId`, in id order (each is folded, then removed). */
  batch(afterId: mongo.ObjectId | null, limit: number, session: Session): Promise<LegacyHistoryDocument[]> {
    return this.history
      .find(afterId ? { _id: { $gt: afterId } } : {}, { session })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
  }

  async deleteByIds(ids: readonly mongo.ObjectId[], session: Session): Promise<void> {
    if (ids.length) await this.history.deleteMany({ _id: { $in: [...ids] } }, { session });
  }

  async deleteOf(userId: string, itemIds: readonly mongo.ObjectId[], session: Session): Promise<void> {
    if (itemIds.length) await this.history.deleteMany({ user_id: userId, item_id: { $in: [...itemIds] } }, { session });
  }

  /** Moderation: the histories of these (user, item) pairs, in one statement per item. */
  async deletePairs(pairs: ReadonlyArray<{ userId: string; itemId: mongo.ObjectId }>, session: Session): Promise<void> {
    const byItem = new Map<string, { itemId: mongo.ObjectId; users: string[] }>();
    for (const { userId, itemId } of pairs) {
      const group = byItem.get(itemId.toHexString()) ?? { itemId, users: [] };
      group.users.push(userId);
      byItem.set(itemId.toHexString(), group);
    }
    for (const { itemId, users } of byItem.values()) await this.history.deleteMany({ item_id: itemId, user_id: { $in: users } }, { session });
  }

  /** A catalog merge, after the losing entries' histories are gone: every history of `from` follows its entry to `into`. */
  async moveItem(from: mongo.ObjectId, into: mongo.ObjectId, session: Session): Promise<void> {
    await this.history.updateMany({ item_id: from }, { $set: { item_id: into } }, { session });
  }

  async deleteAllOfUser(userId: string, session: Session): Promise<void> {
    await this.history.deleteMany({ user_id: userId }, { session });
  }
}
