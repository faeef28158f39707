import type { mongo } from 'mongoose';
import type { Session } from './atomic';
import { COLLECTIONS, type CatalogDatabase } from './database';
import { changeUpdate, newListEntryDocument } from './list-entry.document';
import type { StoreProfile } from './store-profile/store-profile';
import type { HistoryEvent } from '../domain/list-history';
import type { NewListEntryFields } from '../domain/list-entry';
import type { ListEntryImportsStore } from '../domain/ports/list-entry-imports-store.port';
import type { ListedItem, ListEntryChange, ListEntryDocument } from '../domain/records/list-entry.record';

/** What an import batch reads and writes of a list, in the batch's transaction. */
export class ListEntryImportsRepository implements ListEntryImportsStore {
  constructor(
    private readonly db: CatalogDatabase,
    private readonly profile: StoreProfile,
  ) {}

  private get entries() {
    return this.db.collection<ListEntryDocument>(COLLECTIONS.listEntries);
  }

  private get entryProjection() {
    return this.profile.listEntryProjection;
  }

  /** The user's whole entries among `itemIds`, read in the caller's transaction (the import compares them). */
  findEntriesIn(userId: string, itemIds: readonly mongo.ObjectId[], session: Session): Promise<ListEntryDocument[]> {
    if (!itemIds.length) return Promise.resolve([]);
    return this.entries.find({ user_id: userId, item_id: { $in: [...itemIds] } }, { projection: this.entryProjection, session }).toArray();
  }

  /**
   * The import's writes of one batch, in the caller's transaction: new entries (their history starting with
   * `events`) in one `insertMany`, replaced fields of existing ones (`events` added to their history) in one
   * `bulkWrite`.
   */
  async writeImported(
    userId: string,
    inserts: Readonly<Array<{ item: ListedItem; fields: NewListEntryFields; events: readonly HistoryEvent[] }>>,
    updates: Readonly<Array<{ itemId: mongo.ObjectId; change: ListEntryChange; events: readonly HistoryEvent[] }>>,
    now: Date,
    seq: number,
    session: Session,
  ): Promise<void> {
    const docs = inserts.map(({ item, fields, events }) => newListEntryDocument(userId, item, fields, now, seq, events));
    if (docs.length) await this.entries.insertMany(docs, { session, ordered: true });
    if (updates.length) {
      await this.entries.bulkWrite(
        updates.map(({ itemId, change, events }) => ({ updateOne: { filter: { user_id: userId, item_id: itemId }, update: changeUpdate(change, events) } })),
        { session, ordered: true },
      );
    }
  }
}
