import type { mongo } from 'mongoose';
import type { Id } from '../domain/ids';
import type { WatchingItems } from '../domain/ports/watching-items.port';
import type { ListEntryDocument } from '../domain/records/list-entry.record';
import { COLLECTIONS, type CatalogDatabase } from './database';

/**
 * The items someone is watching. Read once a day by the show refresh: a scan of the list entries is
 * acceptable there, so no index is kept for it on every list write.
 */
export class WatchingItemsReader implements WatchingItems {
  constructor(private readonly db: CatalogDatabase) {}

  async watchingItemIds(limit: number): Promise<Id[]> {
    const rows = await this.db
      .collection<ListEntryDocument>(COLLECTIONS.listEntries)
      .aggregate<{ _id: mongo.ObjectId }>([{ $match: { status: 'watching' } }, { $group: { _id: '$item_id' } }, { $limit: limit }])
      .toArray();
    return rows.map((row) => row._id);
  }
}
