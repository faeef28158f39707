import type { mongo } from 'mongoose';
import type { Session } from '../data/atomic';
import type { CatalogDatabase } from '../data/database';
import type { HistoryEvent } from '../domain/list-history';

/** Where the version before entries carried their history kept it; dropped by the step once emptied. */
export const LEGACY_HISTORY_COLLECTION = 'list_history';

/** The server's answer to dropping a collection that does not exist (MongoDB before 7 and compatible servers). */
const NAMESPACE_NOT_FOUND = 26;

/** One entry's history as that version kept it: one document per (user, item), events newest first. */
export interface LegacyHistoryDocument {
  _id: mongo.ObjectId;
  user_id: string;
  item_id: mongo.ObjectId;
  events: HistoryEvent[];
}

/** The reads and writes of migrations/003-legacy-history.ts to `list_history`; the live services never read it. */
export class LegacyHistoryRepository {
  constructor(private readonly db: CatalogDatabase) {}

  private get history() {
    return this.db.collection<LegacyHistoryDocument>(LEGACY_HISTORY_COLLECTION);
  }

  /** Up to `limit` documents after `afterId`, in id order (each is folded, then removed). */
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

  /**
   * Drops the collection (with its index) when it exists and holds nothing; returns whether this call dropped it.
   * Another instance running the step at the same time may drop it first: that is not an error.
   */
  async dropWhenEmpty(): Promise<boolean> {
    const db = this.db.connection.db;
    if (!db || !(await db.listCollections({ name: LEGACY_HISTORY_COLLECTION }, { nameOnly: true }).hasNext())) return false;
    if (await this.history.countDocuments({}, { limit: 1 })) return false;
    try {
      await this.history.drop();
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === NAMESPACE_NOT_FOUND) return false;
      throw error;
    }
  }
}
