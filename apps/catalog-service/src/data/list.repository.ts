import { isDuplicateKeyError } from '@mt/stores';
import { mongo } from 'mongoose';
import type { Session } from './atomic';
import type { StoreProfile } from './store-profile/store-profile';
import { ENTRY_RESPONSE_PROJECTION } from './entry.document';
import { COLLECTIONS, type CatalogDatabase } from './database';
import { feedFilter, type FeedResume } from '../domain/feed-position';
import type { ListPosition } from '../domain/list-cursor';
import { MAX_HISTORY_PER_ENTRY, type HistoryEvent } from '../domain/list-history';
import type { ListSort, ListStatus, NewListEntryFields } from '../domain/list-entry';
import { afterPositionFilter, byEntryIds, changeUpdate, EXPORTED_LIST_ENTRY_PROJECTION, itemCopy, LIST_ENTRY_INDEXES, listSortSpec, newListEntryDocument, withRange, type ListEntryFilter, type ListRange, type ListRangeField } from './list-entry.document';
import type { ListStore } from '../domain/ports/list-store.port';
import { DuplicateListEntryError, type ExportedListEntry, type ListedItem, type ListEntryChange, type ListEntryDocument } from '../domain/records/list-entry.record';

export class ListRepository implements ListStore {

  constructor(
    private readonly db: CatalogDatabase,
    /** Says what reads of whole entries leave out (the history, unless the server sorts every match). */
    private readonly profile: StoreProfile,
  ) {}

  /** Responses leave the history out either way: they name their fields. */
  private get entryProjection() {
    return this.profile.listEntryProjection;
  }

  private get entries() {
    return this.db.collection<ListEntryDocument>(COLLECTIONS.listEntries);
  }

  async ensureIndexes(): Promise<void> {
    await this.entries.createIndexes(LIST_ENTRY_INDEXES);
  }

  /**
   * Inserts the user's entry of `item` as of write `seq`, its history starting with `events`;
   * DuplicateListEntryError when it is already on the list.
   */
  async insertNew(userId: string, item: ListedItem, fields: NewListEntryFields, now: Date, seq: number, events: readonly HistoryEvent[], session: Session): Promise<ListEntryDocument> {
    const doc = newListEntryDocument(userId, item, fields, now, seq, events);
    try {
      await this.entries.insertOne(doc, { session });
    } catch (error) {
      throw isDuplicateKeyError(error) ? new DuplicateListEntryError('already on the list', { cause: error }) : error;
    }
    return doc;
  }

  find(userId: string, itemId: mongo.ObjectId, session?: Session): Promise<ListEntryDocument | null> {
    return this.entries.findOne({ user_id: userId, item_id: itemId }, { projection: this.entryProjection, session });
  }

  /** The entry's history (newest first) and creation time, or null when it is not on the list. */
  historyOf(userId: string, itemId: mongo.ObjectId): Promise<Pick<ListEntryDocument, 'created_at' | 'history'> | null> {
    return this.entries.findOne({ user_id: userId, item_id: itemId }, { projection: { _id: 0, created_at: 1, history: 1 } });
  }

  /**
   * Writes `change` (and adds `events` to the history) only if nobody wrote the entry since revision `rev`
   * was read; null otherwise.
   */
  updateAtRevision(
    userId: string,
    itemId: mongo.ObjectId,
    rev: number,
    change: ListEntryChange,
    events: readonly HistoryEvent[],
    session: Session,
  ): Promise<ListEntryDocument | null> {
    return this.entries.findOneAndUpdate({ user_id: userId, item_id: itemId, rev }, changeUpdate(change, events), {
      returnDocument: 'after',
      projection: this.entryProjection,
      session,
    });
  }

  /** The removed entry, or null when it was not on the list. */
  delete(userId: string, itemId: mongo.ObjectId, session: Session): Promise<ListEntryDocument | null> {
    return this.entries.findOneAndDelete({ user_id: userId, item_id: itemId }, { projection: this.entryProjection, session });
  }

  /** How many entries the user has (with `status`): a count over the index (range hints size a list with it). */
  count(userId: string, status: ListStatus | undefined): Promise<number> {
    return this.entries.countDocuments(status ? { user_id: userId, status } : { user_id: userId });
  }

  page(userId: string, status: ListStatus | undefined, sort: ListSort, direction: 1 | -1, window: { skip: number; limit: number }, range?: ListRange): Promise<ListEntryDocument[]> {
    const filter: ListEntryFilter = { user_id: userId };
    if (status) filter.status = status;
    return this.entries.find(withRange(filter, range), { projection: this.entryProjection }).sort(listSortSpec(sort, direction)).skip(window.skip).limit(window.limit).toArray();
  }

  /**
   * A cursor page: up to `limit` entries after `position` (from the start without it); with `changedUpTo`,
   * entries changed after it are left out (they may have moved behind the cursor: seen at most once).
   */
  pageAfter(
    userId: string,
    status: ListStatus | undefined,
    sort: ListSort,
    direction: 1 | -1,
    position: ListPosition | null,
    changedUpTo: Date | null,
    limit: number,
    range?: ListRange,
  ): Promise<ListEntryDocument[]> {
    const filter: ListEntryFilter = { user_id: userId };
    if (status) filter.status = status;
    const and: ListEntryFilter[] = [];
    if (position) and.push(afterPositionFilter(sort, direction, position));
    if (changedUpTo) and.push({ updated_at: { $lte: changedUpTo } });
    if (and.length) filter.$and = and;
    return this.entries.find(withRange(filter, range), { projection: this.entryProjection }).sort(listSortSpec(sort, direction)).limit(limit).toArray();
  }

  /** A random sample of the user's sort keys (range hints, on servers that sort instead of walking indexes). */
  sampleSortKeys(userId: string, size: number): Promise<Array<Record<ListRangeField, string | Date>>> {
    return this.entries
      .aggregate<Record<ListRangeField, string | Date>>([
        { $match: { user_id: userId } },
        { $sample: { size } },
        { $project: { _id: 0, updated_at: 1, created_at: 1, item_title_key: 1 } },
      ])
      .toArray();
  }

  /**
   * The user's entries among `itemIds` (document ids, dates and tracked fields: what the bulk rules and the
   * history need). The bulk statements that follow address the entries by document id.
   */
  findMany(userId: string, itemIds: readonly mongo.ObjectId[], session: Session) {
    return this.entries
      .find(
        { user_id: userId, item_id: { $in: [...itemIds] } },
        // One batch: the default first batch (101) would cost a getMore for a bulk request of 500 ids.
        { projection: { _id: 1, item_id: 1, started_at: 1, finished_at: 1, status: 1, score: 1, progress: 1 }, batchSize: Math.max(itemIds.length, 1), session },
      )
      .toArray();
  }

  /**
   * Sets `status` on the user's entries `entryIds` (document ids, read by `findMany` in the same
   * transaction) in one statement, filling an empty start (watching) or finish (completed) date with
   * `today`, and adding the change of status to the history of each entry that had another. Entries for
   * which that filled date would contradict the other date are left alone (the caller finds and reports
   * them). Returns how many entries were changed.
   */
  async setStatus(userId: string, entryIds: readonly mongo.ObjectId[], status: ListStatus, today: string, now: Date, seq: number, session: Session): Promise<number> {
    // Expressions of one $set stage see the document before it: `$status` is the status being left.
    const event = { at: now, field: 'status', from: '$status', to: { $literal: status } };
    const history = { $slice: [{ $concatArrays: [[event], { $ifNull: ['$history', []] }] }, MAX_HISTORY_PER_ENTRY] };
    const set: Record<string, unknown> = {
      status: { $literal: status },
      updated_at: now,
      seq: { $literal: seq },
      rev: { $add: ['$rev', 1] },
      history: { $cond: [{ $eq: ['$status', status] }, { $ifNull: ['$history', []] }, history] },
    };
    const repeats = { $ifNull: ['$repeat_count', 0] };
    if (status === 'watching') set['repeat_count'] = { $cond: [{ $eq: ['$status', 'completed'] }, { $add: [repeats, 1] }, repeats] };
    const filter = byEntryIds(userId, entryIds);
    if (status === 'watching') {
      set['started_at'] = { $ifNull: ['$started_at', { $literal: today }] };
      filter.$nor = [{ started_at: null, finished_at: { $lt: today } }];
    }
    if (status === 'completed') {
      set['finished_at'] = { $ifNull: ['$finished_at', { $literal: today }] };
      filter.$nor = [{ finished_at: null, started_at: { $gt: today } }];
    }
    const result = await this.entries.updateMany(filter, [{ $set: set }], { session });
    return result.matchedCount;
  }

  /** Removes the user's entries `entryIds` (document ids, read by `findMany` in the same transaction). */
  async deleteMany(userId: string, entryIds: readonly mongo.ObjectId[], session: Session): Promise<number> {
    const result = await this.entries.deleteMany(byEntryIds(userId, entryIds), { session });
    return result.deletedCount;
  }

  /** The user's whole entries among `itemIds` (an import's dry run). */
  findEntries(userId: string, itemIds: readonly mongo.ObjectId[]): Promise<ListEntryDocument[]> {
    if (!itemIds.length) return Promise.resolve([]);
    return this.entries.find({ user_id: userId, item_id: { $in: [...itemIds] } }, { projection: this.entryProjection }).toArray();
  }

  /** Every list entry of `itemId` (moderation), or only those of `userIds`, read in the moderation's transaction. */
  entriesOfItem(itemId: mongo.ObjectId, session: Session, userIds?: readonly string[]): Promise<ListEntryDocument[]> {
    const filter: ListEntryFilter = userIds ? { item_id: itemId, user_id: { $in: [...userIds] } } : { item_id: itemId };
    return this.entries.find(filter, { projection: this.entryProjection, session }).toArray();
  }

  /** Moderation: removes these entries (by document id) in one statement. */
  async deleteByIds(ids: readonly mongo.ObjectId[], session: Session): Promise<number> {
    if (!ids.length) return 0;
    const result = await this.entries.deleteMany({ _id: { $in: [...ids] } }, { session });
    return result.deletedCount;
  }

  /**
   * A catalog merge, after the entries that lose to an entry of `into` are gone: every remaining entry of
   * `from` now refers to `into`, each at its owner's sequence number in `seqs`, in one bulk write.
   */
  async moveItem(from: mongo.ObjectId, into: ListedItem, now: Date, seqs: ReadonlyMap<string, number>, session: Session): Promise<number> {
    if (!seqs.size) return 0;
    const result = await this.entries.bulkWrite(
      [...seqs].map(([userId, seq]) => ({
        updateOne: {
          filter: { user_id: userId, item_id: from },
          update: { $set: { item_id: into.id, ...itemCopy(into), updated_at: now, seq }, $inc: { rev: 1 } },
        },
      })),
      { session, ordered: false },
    );
    return result.modifiedCount;
  }

  /**
   * Keeps every entry's copy of the catalog entry (title sort key, title, year, pages, poster) in step with it, in the edit's
   * transaction (which writes the entry's guards first, so an import batch adding it meanwhile runs again).
   */
  async copyItemIntoEntries(item: ListedItem, session: Session): Promise<void> {
    await this.entries.updateMany({ item_id: item.id }, { $set: itemCopy(item) }, { session });
  }

  /**
   * Every entry of the user in creation order (index `user_created`), only the fields the export writes,
   * each joined to what responses show of its catalog entry (`item`: empty when the entry is gone), in one
   * aggregation: the server joins, so a batch of `batchSize` joined rows is one round trip. Read through a
   * cursor: the caller pulls as fast as it consumes, so memory does not grow with the list.
   */
  streamForExport(userId: string, batchSize = 500): AsyncIterable<ExportedListEntry> {
    return this.entries.aggregate<ExportedListEntry>(
      [
        { $match: { user_id: userId } },
        { $sort: { created_at: 1, item_id: 1 } },
        { $project: EXPORTED_LIST_ENTRY_PROJECTION },
        {
          $lookup: {
            from: COLLECTIONS.entries,
            localField: 'item_id',
            foreignField: '_id',
            as: 'item',
            pipeline: [{ $project: ENTRY_RESPONSE_PROJECTION }],
          },
        },
      ],
      { batchSize },
    );
  }

  /**
   * Up to `limit` of the user's entries strictly after `after` (from the start without it; after all of
   * `after.seq` when it names no item) and numbered at most `maxSeq`, in feed order: the change feed's upserts.
   */
  feedPage(userId: string, after: FeedResume | null, maxSeq: number, limit: number): Promise<ListEntryDocument[]> {
    return this.entries.find(feedFilter<ListEntryDocument>(userId, after, maxSeq), { projection: this.entryProjection }).sort({ seq: 1, item_id: 1 }).limit(limit).toArray();
  }

  async setPlayState(userId: string, itemId: mongo.ObjectId, state: Pick<ListEntryDocument, 'next_episode' | 'last_played_at'>, session: Session): Promise<void> {
    await this.entries.updateOne({ user_id: userId, item_id: itemId }, { $set: state }, { session });
  }

  upNextCandidates(userId: string, after: { lastPlayedAt: number | null; itemId: string } | null, limit: number): Promise<ListEntryDocument[]> {
    const filter: ListEntryFilter = { user_id: userId, status: 'watching', next_episode: { $type: 'object' } };
    if (after) {
      const itemId = new mongo.ObjectId(after.itemId);
      if (after.lastPlayedAt === null) Object.assign(filter, { last_played_at: null, item_id: { $lt: itemId } });
      else {
        const at = new Date(after.lastPlayedAt);
        filter.$or = [{ last_played_at: { $lt: at } }, { last_played_at: null }, { last_played_at: at, item_id: { $lt: itemId } }];
      }
    }
    return this.entries.find(filter, { projection: this.entryProjection }).sort({ last_played_at: -1, item_id: -1 }).limit(limit).toArray();
  }

  /** Account deletion: the whole list of the user. Idempotent. */
  async deleteAllOfUser(userId: string, session: Session): Promise<number> {
    const result = await this.entries.deleteMany({ user_id: userId }, { session });
    return result.deletedCount;
  }
}
