import type { mongo } from 'mongoose';
import type { Session } from '../shared/atomic';
import { COLLECTIONS, type CatalogDatabase } from '../shared/database';

/** API.md §10: at most this many changes are kept per entry (the oldest go first). */
export const MAX_HISTORY_PER_ENTRY = 1000;

export type HistoryField = 'status' | 'score' | 'progress';

export interface HistoryEvent {
  at: Date;
  field: HistoryField;
  from: string | number | null;
  to: string | number | null;
}

/**
 * The history of one list entry: one document per (user, item), its events newest first, capped by
 * `$push … $position: 0, $slice` in the same statement (no separate trim, no unbounded growth). Written
 * in the list write's transaction; removed with the entry.
 */
interface ListHistoryDocument {
  user_id: string;
  item_id: mongo.ObjectId;
  events: HistoryEvent[];
}

export interface HistoryAppend {
  itemId: mongo.ObjectId;
  /** Oldest first, as they happened (the events of one write share `at`). */
  events: HistoryEvent[];
}

export const LIST_HISTORY_INDEXES: mongo.IndexDescription[] = [{ name: 'user_item_unique', key: { user_id: 1, item_id: 1 }, unique: true }];

export class ListHistoryRepository {
  constructor(private readonly db: CatalogDatabase) {}

  private get history() {
    return this.db.collection<ListHistoryDocument>(COLLECTIONS.listHistory);
  }

  async ensureIndexes(): Promise<void> {
    await this.history.createIndexes(LIST_HISTORY_INDEXES);
  }

  async append(userId: string, appends: readonly HistoryAppend[], session: Session): Promise<void> {
    const writes = appends.filter((append) => append.events.length);
    if (!writes.length) return;
    await this.history.bulkWrite(
      writes.map(({ itemId, events }) => ({
        updateOne: {
          filter: { user_id: userId, item_id: itemId },
          update: { $push: { events: { $each: [...events].reverse(), $position: 0, $slice: MAX_HISTORY_PER_ENTRY } } },
          upsert: true,
        },
      })),
      { session, ordered: false },
    );
  }

  /**
   * The same result as `append`, for a write that gives many entries the same events (bulk-status: one
   * status change per status being left): one `updateMany` per distinct list of events instead of an upsert
   * per entry (each costs a round of index work on the store), and, only when some entries have no
   * history document yet (entries older than the history), one read and one insert for those.
   */
  async appendMany(userId: string, appends: readonly HistoryAppend[], session: Session): Promise<void> {
    const groups = new Map<string, { events: HistoryEvent[]; itemIds: mongo.ObjectId[] }>();
    for (const { itemId, events } of appends) {
      if (!events.length) continue;
      const key = JSON.stringify(events.map((event) => [event.at.getTime(), event.field, event.from, event.to]));
      const group = groups.get(key) ?? { events, itemIds: [] };
      group.itemIds.push(itemId);
      groups.set(key, group);
    }
    const missing: HistoryAppend[] = [];
    for (const { events, itemIds } of groups.values()) {
      const filter = { user_id: userId, item_id: { $in: itemIds } };
      const result = await this.history.updateMany(filter, { $push: { events: { $each: [...events].reverse(), $position: 0, $slice: MAX_HISTORY_PER_ENTRY } } }, { session });
      if (result.matchedCount === itemIds.length) continue;
      const existing = new Set((await this.history.find(filter, { projection: { _id: 0, item_id: 1 }, session }).toArray()).map((doc) => doc.item_id.toHexString()));
      for (const itemId of itemIds) if (!existing.has(itemId.toHexString())) missing.push({ itemId, events });
    }
    if (missing.length) {
      const docs = missing.map(({ itemId, events }) => ({ user_id: userId, item_id: itemId, events: [...events].reverse().slice(0, MAX_HISTORY_PER_ENTRY) }));
      await this.history.insertMany(docs, { session, ordered: false });
    }
  }

  /**
   * The first events of entries that were just added (the import): any older history of those items is
   * replaced (a re-added entry starts afresh), in one delete and one insert rather than an upsert per item.
   */
  async startAfresh(userId: string, appends: readonly HistoryAppend[], session: Session): Promise<void> {
    if (!appends.length) return;
    await this.history.deleteMany({ user_id: userId, item_id: { $in: appends.map((append) => append.itemId) } }, { session });
    const docs = appends.filter((append) => append.events.length).map(({ itemId, events }) => ({ user_id: userId, item_id: itemId, events: [...events].reverse().slice(0, MAX_HISTORY_PER_ENTRY) }));
    if (docs.length) await this.history.insertMany(docs, { session, ordered: false });
  }

  /** Newest first; empty when the entry has no recorded change. */
  async events(userId: string, itemId: mongo.ObjectId): Promise<HistoryEvent[]> {
    const doc = await this.history.findOne({ user_id: userId, item_id: itemId }, { projection: { _id: 0, events: 1 } });
    return doc?.events ?? [];
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
