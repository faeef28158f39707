import type { mongo } from 'mongoose';
import { COLLECTIONS, type CatalogDatabase } from '../data/database';

/** An upsert record of the feed as the version before entries carried their `seq` kept it in `list_changes`. */
export interface LegacyUpsert {
  user_id: string;
  item_id: mongo.ObjectId;
  seq: number;
}

/** The reads and writes of migrations/002-legacy-upserts.ts to `list_changes`; the live feed reads only tombstones. */
export class LegacyListChangesRepository {
  constructor(private readonly db: CatalogDatabase) {}

  private get changes() {
    return this.db.collection<LegacyUpsert & { type: 'upsert' }>(COLLECTIONS.listChanges);
  }

  /** Up to `limit` legacy upsert records. */
  upserts(limit: number): Promise<LegacyUpsert[]> {
    return this.changes.find({ type: 'upsert' }, { projection: { _id: 0, user_id: 1, item_id: 1, seq: 1 } }).limit(limit).toArray();
  }

  /** Step 006: the highest feed position among the user's change records (0 without any). */
  async highestSeqOfUser(userId: string): Promise<number> {
    const [top] = await this.changes.find({ user_id: userId }, { projection: { _id: 0, seq: 1 } }).sort({ seq: -1 }).limit(1).toArray();
    return top?.seq ?? 0;
  }

  /** Removes these upsert records, unless one was written again since it was read (it is then folded next time). */
  async deleteFolded(records: readonly LegacyUpsert[]): Promise<void> {
    if (!records.length) return;
    await this.changes.bulkWrite(
      records.map((record) => ({ deleteOne: { filter: { user_id: record.user_id, item_id: record.item_id, type: 'upsert', seq: record.seq } } })),
      { ordered: false },
    );
  }
}
