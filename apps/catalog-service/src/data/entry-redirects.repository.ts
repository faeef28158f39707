import type { ShardingDeclaration } from '@mt/stores';
import type { mongo } from 'mongoose';
import type { Session } from './atomic';
import { COLLECTIONS, type CatalogDatabase } from './database';
import type { EntryRedirectsStore } from '../domain/ports/entry-redirects-store.port';

/** What a merge leaves behind: the merged id answers 301 to `into`. A few dozen bytes, kept for good. */
export interface EntryRedirectDocument {
  _id: mongo.ObjectId;
  into: mongo.ObjectId;
  merged_at: Date;
}

/** Unsharded: one small record per merge, read beside the unsharded catalog entries. */
export const ENTRY_REDIRECT_SHARDING: ShardingDeclaration = { collection: COLLECTIONS.entryRedirects, unsharded: 'one small record per merge, beside the unsharded catalog entries' };

/** Redirect records of merged catalog entries (collection `entry_redirects`). */
export class EntryRedirectsRepository implements EntryRedirectsStore {
  constructor(private readonly db: CatalogDatabase) {}

  private get redirects() {
    return this.db.collection<EntryRedirectDocument>(COLLECTIONS.entryRedirects);
  }

  async ensureIndexes(): Promise<void> {
    // Merging or removing a survivor finds the redirects pointing at it.
    await this.redirects.createIndexes([{ name: 'into', key: { into: 1 } }]);
  }

  /**
   * In the merge's transaction: `from` now leads to `into`, and so does every id that led to `from` (no
   * chains: one hop whatever the history of merges).
   */
  async record(from: mongo.ObjectId, into: mongo.ObjectId, at: Date, session: Session): Promise<void> {
    await this.redirects.updateMany({ into: from }, { $set: { into } }, { session });
    await this.redirects.updateOne({ _id: from }, { $set: { into, merged_at: at } }, { upsert: true, session });
  }

  /** In a removal's transaction: ids that led to the removed entry answer 404 from now on, like it. */
  async forgetInto(into: mongo.ObjectId, session: Session): Promise<void> {
    await this.redirects.deleteMany({ into }, { session });
  }

  /** Where a merged id leads, or null (never merged). */
  async target(from: mongo.ObjectId): Promise<mongo.ObjectId | null> {
    const found = await this.redirects.findOne({ _id: from }, { projection: { into: 1 } });
    return found?.into ?? null;
  }
}
