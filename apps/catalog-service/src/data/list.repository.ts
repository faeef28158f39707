import { mongo } from 'mongoose';
import { retryTransient } from '@mt/stores';
import type { Session } from './atomic';
import type { StoreProfile } from './store-profile/store-profile';
import { ENTRY_RESPONSE_PROJECTION, type EntryResponseSource } from './entry.document';
import { COLLECTIONS, type CatalogDatabase } from './database';
import { isDuplicateKeyError } from './mongo-errors';
import { feedFilter, type FeedResume } from '../domain/feed-position';
import type { ListPosition } from '../domain/list-cursor';
import { MAX_HISTORY_PER_ENTRY, newestFirst, type HistoryEvent } from '../domain/list-history';
import type { ListSort, ListStatus, NewListEntryFields } from '../domain/list-entry';
import type { ItemSummaryRow } from './catalog.repository';

/** The catalog entry a list entry points at, with what the entry keeps of it (title sort key, title, year). */
export interface ListedItem {
  id: mongo.ObjectId;
  titleKey: string;
  title: string;
  year: number | null;
}

export const listedItem = (row: ItemSummaryRow): ListedItem => ({ id: row._id, titleKey: row.title_key, title: row.title, year: row.year });

/** Who takes guards of a catalog entry (ListRepository.touchGuards): an import batch of the user, or a change of the entry (all). */
export type GuardHolder = { userId: string } | 'all';

/** Guards per catalog entry: batches of users in different shards do not conflict with each other. */
const GUARD_SHARDS = 8;

function guardKeys(itemIds: readonly mongo.ObjectId[], holder: GuardHolder): string[] {
  const shards = holder === 'all' ? Array.from({ length: GUARD_SHARDS }, (_, shard) => shard) : [shardOf(holder.userId)];
  return itemIds.flatMap((id) => shards.map((shard) => `${id.toHexString()}:${shard}`));
}

const shardOf = (userId: string) => [...userId].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 0) % GUARD_SHARDS;

/** A transaction met guards that do not exist yet (touchGuards): it is abandoned; see withItemGuards. */
export class ItemGuardsMissingError extends Error {}

/**
 * Runs `change`, a transaction that writes guards; when they are missing, creates them (`ensure`, outside any
 * transaction) and runs it once more. Guards are thus created only for a change that got as far as writing
 * them: an entry that exists and a caller allowed to change it (a refused request leaves nothing behind).
 */
export async function withItemGuards<T>(change: () => Promise<T>, ensure: () => Promise<void>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (!(error instanceof ItemGuardsMissingError)) throw error;
  }
  await ensure();
  return change();
}

/** The fields of a list entry that copy its catalog entry. */
const itemCopy = (item: ListedItem) => ({ item_title_key: item.titleKey, item_title: item.title, item_year: item.year });

/**
 * One entry of a user's list. `item_title_key` (the item's folded title, renamed with it) serves the
 * title sort; `item_title` and `item_year` are what responses show of the item, so a page reads no
 * catalog entry; `score_missing` puts entries without a score last in both orders; `rev` counts writes for
 * optimistic concurrency on PATCH. The three `item_*` copies change with the catalog entry in its own
 * transactions (an edit of its title or year, a merge): see `ListRepository.retitleItem`, `moveItem`.
 */
export interface ListEntryDocument {
  _id: mongo.ObjectId;
  user_id: string;
  item_id: mongo.ObjectId;
  item_title_key: string;
  /** Absent on entries stored before 2026-11-29: responses join the catalog entry for those. */
  item_title?: string;
  item_year?: number | null;
  status: ListStatus;
  score: number | null;
  score_missing: 0 | 1;
  progress: number | null;
  notes: string | null;
  started_at: string | null;
  finished_at: string | null;
  created_at: Date;
  updated_at: Date;
  rev: number;
  /**
   * The entry's place in its owner's change feed: the list's sequence number (`list_owners.seq`) of the
   * write that last changed it (0: not changed since before the feed numbered entries). Tombstones of
   * removed entries are in `list_changes`.
   */
  seq: number;
  /** Times the entry went from `completed` back to `watching` (absent on entries stored before it: 0). */
  repeat_count?: number;
  /**
   * Its changes of status, score and progress, newest first, at most MAX_HISTORY_PER_ENTRY (API.md §10):
   * written by the same statement as the change, removed with the entry. Only `historyOf` reads it; every
   * other read leaves it out (`StoreProfile.listEntryProjection`). Absent on entries stored before it (see list_history).
   */
  history?: HistoryEvent[];
}


/** Prepends one write's events (oldest first) to a stored history, dropping the oldest beyond the cap. */
function pushHistory(events: readonly HistoryEvent[]) {
  return { history: { $each: newestFirst(events), $position: 0, $slice: MAX_HISTORY_PER_ENTRY } };
}

export type ListEntryFilter = mongo.Filter<ListEntryDocument>;

/** What the export writes of a list entry, with its catalog entry (none when it was removed meanwhile). */
export type ExportedListEntry = Pick<
  ListEntryDocument,
  'item_id' | 'status' | 'score' | 'progress' | 'notes' | 'started_at' | 'finished_at' | 'created_at' | 'updated_at'
> & { item: [EntryResponseSource] | [] };

const EXPORTED_LIST_ENTRY_PROJECTION: Readonly<Record<Exclude<keyof ExportedListEntry, 'item'> | '_id', 0 | 1>> = {
  _id: 0,
  item_id: 1,
  status: 1,
  score: 1,
  progress: 1,
  notes: 1,
  started_at: 1,
  finished_at: 1,
  created_at: 1,
  updated_at: 1,
};


/** The fields a PATCH sets (the repository derives `score_missing` and bumps `rev`). */
export type ListEntryChange = Partial<Pick<ListEntryDocument, 'status' | 'score' | 'progress' | 'notes' | 'started_at' | 'finished_at' | 'repeat_count'>> & {
  updated_at: Date;
  seq: number;
};

/**
 * The user is the first key of every index: a list is only ever read and written through its owner, and
 * a page costs the same for a list of 100 or 50 000 entries. The default order (`updated_at`) has an index
 * without and one with the status (each status filter), every other sort its own (both directions walk it).
 */
export const LIST_ENTRY_INDEXES: mongo.IndexDescription[] = [
  // One entry per (user, item): concurrent adds of one item give one insert and one E11000.
  { name: 'user_item_unique', key: { user_id: 1, item_id: 1 }, unique: true },
  { name: 'user_updated', key: { user_id: 1, updated_at: 1, item_id: 1 } },
  { name: 'user_status_updated', key: { user_id: 1, status: 1, updated_at: 1, item_id: 1 } },
  { name: 'user_created', key: { user_id: 1, created_at: 1, item_id: 1 } },
  { name: 'user_title', key: { user_id: 1, item_title_key: 1, item_id: 1 } },
  { name: 'user_score', key: { user_id: 1, score_missing: 1, score: 1, item_id: 1 } },
  // Renaming an item updates its entries in every list.
  { name: 'item', key: { item_id: 1 } },
  // The change feed: the user's entries after a position, in commit order (ties of one write by item id).
  { name: 'user_seq', key: { user_id: 1, seq: 1, item_id: 1 } },
];

export class DuplicateListEntryError extends Error {
  override name = 'DuplicateListEntryError';
}

const SORT_FIELD = { updated_at: 'updated_at', created_at: 'created_at', title: 'item_title_key' } as const;

/** Entries strictly after `position` in the sort's order (key, then item id, in the sort's direction). */
function afterPositionFilter(sort: ListSort, direction: 1 | -1, position: ListPosition): ListEntryFilter {
  const beyond = direction === 1 ? '$gt' : '$lt';
  const itemId = new mongo.ObjectId(position.itemId);
  if (sort === 'score') {
    const [missing, score] = Array.isArray(position.key) ? position.key : [1, null];
    // score_missing ascends in both directions (unscored last): they come after every scored entry.
    if (missing === 1) return { score_missing: 1, item_id: { [beyond]: itemId } } as ListEntryFilter;
    return {
      $or: [{ score_missing: 0, score: { [beyond]: score } }, { score_missing: 0, score, item_id: { [beyond]: itemId } }, { score_missing: 1 }],
    } as ListEntryFilter;
  }
  const field = SORT_FIELD[sort];
  const value = field === 'item_title_key' ? position.key : new Date(position.key as number);
  return { $or: [{ [field]: { [beyond]: value } }, { [field]: value, item_id: { [beyond]: itemId } }] } as ListEntryFilter;
}

/** A sort key of the list that range hints can narrow (score sorts by two keys and is left whole). */
export type ListRangeField = 'updated_at' | 'created_at' | 'item_title_key';
export const LIST_RANGE_FIELDS: readonly ListRangeField[] = ['updated_at', 'created_at', 'item_title_key'];

/** Only keys up to `value` in the sort's direction (see RangeHints): narrows a sorted read, never its first rows. */
export interface ListRange {
  field: ListRangeField;
  direction: 1 | -1;
  value: string | number | Date;
}

/** The field a sort's range hints bound, if any. */
export function rangeFieldOf(sort: ListSort): ListRangeField | undefined {
  return sort === 'score' ? undefined : SORT_FIELD[sort];
}

function withRange(filter: ListEntryFilter, range: ListRange | undefined): ListEntryFilter {
  if (!range) return filter;
  const bound = range.direction === 1 ? { $lte: range.value } : { $gte: range.value };
  return { ...filter, [range.field]: bound } as ListEntryFilter;
}

function listSortSpec(sort: ListSort, direction: 1 | -1): mongo.Sort {
  switch (sort) {
    case 'title':
      return { item_title_key: direction, item_id: direction };
    case 'score':
      return { score_missing: 1, score: direction, item_id: direction };
    default:
      return { [sort]: direction, item_id: direction };
  }
}

/**
 * The user's entries by document id: bulk statements address what their transaction read. A lookup by
 * document id is cheaper than by (user, item) (on the test server about 20 ms less for 500 entries); the
 * owner stays in the filter so a statement can never touch another user's entry.
 */
function byEntryIds(userId: string, entryIds: readonly mongo.ObjectId[]): ListEntryFilter {
  return { _id: { $in: [...entryIds] }, user_id: userId };
}

/** The update of a PATCH or an import row: the fields, the derived key, the revision, the history. */
function changeUpdate(change: ListEntryChange, events: readonly HistoryEvent[]): mongo.UpdateFilter<ListEntryDocument> {
  const set: Partial<ListEntryDocument> = { ...change };
  if (change.score !== undefined) set.score_missing = change.score === null ? 1 : 0;
  return events.length ? { $set: set, $inc: { rev: 1 }, $push: pushHistory(events) } : { $set: set, $inc: { rev: 1 } };
}

/** A new entry of the user's list: the derived keys (`score_missing`), counters and history start here. */
function newListEntryDocument(userId: string, item: ListedItem, fields: NewListEntryFields, now: Date, seq: number, events: readonly HistoryEvent[]): ListEntryDocument {
  return {
    _id: new mongo.ObjectId(),
    user_id: userId,
    item_id: item.id,
    ...itemCopy(item),
    ...fields,
    score_missing: fields.score === null ? 1 : 0,
    created_at: now,
    updated_at: now,
    rev: 0,
    seq,
    repeat_count: 0,
    history: newestFirst(events),
  };
}

export class ListRepository {

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

  private get guards() {
    return this.db.collection<{ _id: string; n: number }>(COLLECTIONS.listItemGuards);
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

  /** What the statistics count, for every entry of the user (a one-time recount). */
  statsFieldsOfUser(userId: string, session: Session) {
    return this.entries
      .find({ user_id: userId }, { projection: { _id: 0, status: 1, score: 1, progress: 1, finished_at: 1 }, session })
      .toArray();
  }

  /** How many entries the user has (with `status`): a count over the index, for lists without counters. */
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

  /** The user's whole entries among `itemIds` (an import's dry run; the change feed's legacy upsert records). */
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
   * Keeps every entry's copy of the catalog entry (title sort key, title, year) in step with it, in the edit's
   * transaction; with the entry's guards (ensureGuards first), so an import batch adding it meanwhile runs again.
   */
  async retitleItem(item: ListedItem, session: Session): Promise<void> {
    await this.touchGuards([item.id], 'all', session);
    await this.entries.updateMany({ item_id: item.id }, { $set: itemCopy(item) }, { session });
  }

  /**
   * Creates the missing guards of these catalog entries, outside any transaction, before those that touch
   * them (withItemGuards): two transactions inserting one guard would meet on its _id as a duplicate key (an
   * error), where two updating it meet as a conflict, and one runs again.
   */
  async ensureGuards(itemIds: readonly mongo.ObjectId[], holder: GuardHolder): Promise<void> {
    if (!itemIds.length) return;
    const upserts = guardKeys(itemIds, holder).map((key) => ({ updateOne: { filter: { _id: key }, update: { $setOnInsert: { n: 0 } }, upsert: true } }));
    await retryTransient(async () => {
      try {
        await this.guards.bulkWrite(upserts, { ordered: false });
      } catch (error) {
        // Those a concurrent ensureGuards inserted first exist: that is all this is for.
        const writeErrors = (error as { writeErrors?: unknown[] }).writeErrors;
        if (!writeErrors?.length || !writeErrors.every(isDuplicateKeyError)) throw error;
      }
    });
  }

  /**
   * Writes guards of these catalog entries in the caller's transaction (`list_item_guards`, `{ _id:
   * "<entry id>:<shard>", n }`). An import batch adding entries to a list writes the guard of its user's
   * shard; a change that lists follow (an edit of title or year, a removal, a merge) writes every shard. So
   * a batch and a change that overlap conflict, and one runs again after the other and sees the entry
   * renamed, gone or merged, or the list entries the batch added; two batches of different users conflict
   * only when their users share a shard (1 in GUARD_SHARDS). (A single addition claims the catalog entry
   * itself, CatalogRepository.claimForList, in the statement that reads it.) Not the catalog entry for a
   * batch: on the test server a write of one rewrites its dozen index entries (500 of them 150–250 ms,
   * 500 guards 30–60 ms).
   */
  async touchGuards(itemIds: readonly mongo.ObjectId[], holder: GuardHolder, session: Session): Promise<void> {
    if (!itemIds.length) return;
    const keys = guardKeys(itemIds, holder);
    const touched = await this.guards.updateMany({ _id: { $in: keys } }, { $inc: { n: 1 } }, { session });
    if (touched.matchedCount < keys.length) throw new ItemGuardsMissingError(`${keys.length - touched.matchedCount} guards missing`);
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

  /**
   * Up to `limit` of the user's entries strictly after `after` (from the start without it; after all of
   * `after.seq` when it names no item) and numbered at most `maxSeq`, in feed order: the change feed's upserts.
   */
  feedPage(userId: string, after: FeedResume | null, maxSeq: number, limit: number): Promise<ListEntryDocument[]> {
    return this.entries.find(feedFilter<ListEntryDocument>(userId, after, maxSeq), { projection: this.entryProjection }).sort({ seq: 1, item_id: 1 }).limit(limit).toArray();
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

  /** Start-up migration: entries stored before the feed numbered entries, and without a legacy record, get 0. */
  async numberUnnumbered(): Promise<number> {
    const result = await this.entries.updateMany({ seq: { $exists: false } }, { $set: { seq: 0 } });
    return result.modifiedCount;
  }

  /** Start-up: up to `limit` entries after `after` (in _id order) that keep no copy of their catalog entry (stored before they did). */
  withoutItemCopy(after: mongo.ObjectId | null, limit: number): Promise<Array<Pick<ListEntryDocument, '_id' | 'item_id'>>> {
    const filter: mongo.Filter<ListEntryDocument> = after ? { item_title: { $exists: false }, _id: { $gt: after } } : { item_title: { $exists: false } };
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
        updateOne: { filter: { _id: entryId, item_id: item.id, item_title: { $exists: false } }, update: { $set: itemCopy(item) } },
      })),
      { ordered: false },
    );
    return result.modifiedCount;
  }

  /** Account deletion: the whole list of the user. Idempotent. */
  async deleteAllOfUser(userId: string, session: Session): Promise<number> {
    const result = await this.entries.deleteMany({ user_id: userId }, { session });
    return result.deletedCount;
  }
}
