import type { mongo } from 'mongoose';
import type { Session } from '../data/atomic';
import { COLLECTIONS, type CatalogDatabase } from '../data/database';
import { itemCopy } from '../data/list-entry.document';
import type { HistoryEvent } from '../domain/list-history';
import type { StatsFields } from '../domain/list-stats';
import type { ListedItem, ListEntryDocument } from '../domain/records/list-entry.record';

/** No copy of the catalog entry, or one from before the copy had the poster (its last field). */
const WITHOUT_CURRENT_COPY: mongo.Filter<ListEntryDocument> = { $or: [{ item_title: { $exists: false } }, { item_poster_url: { $exists: false } }] };

/** The writes of the start-up migrations to `list_entries`: older entries brought to the current shape. */
export class LegacyListEntriesRepository {
  constructor(private readonly db: CatalogDatabase) {}

  private get entries() {
    return this.db.collection<ListEntryDocument>(COLLECTIONS.listEntries);
  }

  /** Start-up migration: each entry's `seq` is raised to its legacy feed record's (idempotent). */
  async raiseSeqs(records: ReadonlyArray<{ user_id: string; item_id: mongo.ObjectId; seq: number }>): Promise<void> {
    if (!records.length) return;
    await this.entries.bulkWrite(
      records.map((record) => ({ updateOne: { filter: { user_id: record.user_id, item_id: record.item_id }, update: { $max: { seq: record.seq } } } })),
      { ordered: false },
    );
  }

  /** Start-up fold of list_history: the entries of these (user, item) pairs, with their history. */
  entriesWithHistory(pairs: ReadonlyArray<{ user_id: string; item_id: mongo.ObjectId }>, session: Session) {
    if (!pairs.length) return Promise.resolve([]);
    return this.entries
      .find({ $or: pairs.map((pair) => ({ user_id: pair.user_id, item_id: pair.item_id })) }, { projection: { user_id: 1, item_id: 1, created_at: 1, history: 1 }, session })
      .toArray();
  }

  /** Start-up fold of list_history: replaces the histories of these entries (by document id). */
  async setHistories(histories: ReadonlyArray<{ id: mongo.ObjectId; history: HistoryEvent[] }>, session: Session): Promise<void> {
    if (!histories.length) return;
    await this.entries.bulkWrite(
      histories.map(({ id, history }) => ({ updateOne: { filter: { _id: id }, update: { $set: { history } } } })),
      { session, ordered: false },
    );
  }

  /** Step 006: every user who has list entries (the index `user_item_unique` gives them without reading entries). */
  usersWithEntries(): Promise<string[]> {
    return this.entries.distinct('user_id');
  }

  /** Step 006: the highest feed position among the user's entries (0 without any). */
  async highestSeqOfUser(userId: string): Promise<number> {
    const [top] = await this.entries.find({ user_id: userId }, { projection: { _id: 0, seq: 1 } }).sort({ seq: -1 }).limit(1).toArray();
    return top?.seq ?? 0;
  }

  /** Start-up recount of a list without counters (step 006): what the statistics count of each of its entries. */
  statsFieldsOfUser(userId: string, session: Session): Promise<StatsFields[]> {
    return this.entries.find({ user_id: userId }, { projection: { _id: 0, status: 1, score: 1, progress: 1, finished_at: 1 }, session }).toArray();
  }

  /** Start-up migration: entries stored before the feed numbered entries, and without a legacy record, get 0. */
  async numberUnnumbered(): Promise<number> {
    const result = await this.entries.updateMany({ seq: { $exists: false } }, { $set: { seq: 0 } });
    return result.modifiedCount;
  }

  /**
   * Start-up: up to `limit` entries after `after` (in _id order) that keep no copy of their catalog entry, or a
   * copy from before it had the poster.
   */
  withoutItemCopy(after: mongo.ObjectId | null, limit: number): Promise<Array<Pick<ListEntryDocument, '_id' | 'item_id'>>> {
    const filter: mongo.Filter<ListEntryDocument> = after ? { ...WITHOUT_CURRENT_COPY, _id: { $gt: after } } : WITHOUT_CURRENT_COPY;
    return this.entries.find(filter, { projection: { _id: 1, item_id: 1 } }).sort({ _id: 1 }).limit(limit).toArray();
  }

  /**
   * Gives each entry its copy of `item`, unless it has one by now or points elsewhere: an edit or a merge of
   * the catalog entry since it was read wrote the current copy itself, which this must not overwrite.
   */
  async setItemCopies(copies: ReadonlyArray<{ entryId: mongo.ObjectId; item: ListedItem }>): Promise<number> {
    if (!copies.length) return 0;
    const result = await this.entries.bulkWrite(
      copies.map(({ entryId, item }) => ({
        updateOne: { filter: { _id: entryId, item_id: item.id, ...WITHOUT_CURRENT_COPY }, update: { $set: itemCopy(item) } },
      })),
      { ordered: false },
    );
    return result.modifiedCount;
  }
}
