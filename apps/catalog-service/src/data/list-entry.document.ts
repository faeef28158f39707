import type { ShardingDeclaration } from '@mt/stores';
import { mongo } from 'mongoose';
import { COLLECTIONS } from './database';
import type { ExportedListEntry, ListedItem, ListEntryChange, ListEntryDocument } from '../domain/records/list-entry.record';
import type { ListPosition } from '../domain/list-cursor';
import { MAX_HISTORY_PER_ENTRY, newestFirst, type HistoryEvent } from '../domain/list-history';
import type { ListSort, NewListEntryFields } from '../domain/list-entry';

/** The fields of a list entry that copy its catalog entry. */
export const itemCopy = (item: ListedItem) => ({ item_title_key: item.titleKey, item_title: item.title, item_year: item.year, item_pages: item.pages, item_poster_url: item.posterUrl });

/** Prepends one write's events (oldest first) to a stored history, dropping the oldest beyond the cap. */
export function pushHistory(events: readonly HistoryEvent[]) {
  return { history: { $each: newestFirst(events), $position: 0, $slice: MAX_HISTORY_PER_ENTRY } };
}

export type ListEntryFilter = mongo.Filter<ListEntryDocument>;

export const EXPORTED_LIST_ENTRY_PROJECTION: Readonly<Record<Exclude<keyof ExportedListEntry, 'item'> | '_id', 0 | 1>> = {
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
  // Up next: the user's watching shows, most recently played first.
  { name: 'user_up_next', key: { user_id: 1, status: 1, last_played_at: -1, item_id: -1 } },
  // Renaming an item updates its entries in every list.
  { name: 'item', key: { item_id: 1 } },
  // The change feed: the user's entries after a position, in commit order (ties of one write by item id).
  { name: 'user_seq', key: { user_id: 1, seq: 1, item_id: 1 } },
];

/** By owner, then item: a list's reads and writes go to one shard, and a large list can still be split. */
export const LIST_ENTRY_SHARDING: ShardingDeclaration = {
  collection: COLLECTIONS.listEntries,
  shardKey: { user_id: 1, item_id: 1 },
  scatterGather: ['a catalog entry renamed, merged or removed: its entries in every list (index `item`)', 'moderation by document id (after the `item` read, in the same transaction)'],
};

export const SORT_FIELD = { updated_at: 'updated_at', created_at: 'created_at', title: 'item_title_key' } as const;

/** Entries strictly after `position` in the sort's order (key, then item id, in the sort's direction). */
export function afterPositionFilter(sort: ListSort, direction: 1 | -1, position: ListPosition): ListEntryFilter {
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

export function withRange(filter: ListEntryFilter, range: ListRange | undefined): ListEntryFilter {
  if (!range) return filter;
  const bound = range.direction === 1 ? { $lte: range.value } : { $gte: range.value };
  return { ...filter, [range.field]: bound } as ListEntryFilter;
}

export function listSortSpec(sort: ListSort, direction: 1 | -1): mongo.Sort {
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
 * document id is cheaper than by (user, item) on the test server; the
 * owner stays in the filter so a statement can never touch another user's entry.
 */
export function byEntryIds(userId: string, entryIds: readonly mongo.ObjectId[]): ListEntryFilter {
  return { _id: { $in: [...entryIds] }, user_id: userId };
}

/** The update of a PATCH or an import row: the fields, the derived key, the revision, the history. */
export function changeUpdate(change: ListEntryChange, events: readonly HistoryEvent[]): mongo.UpdateFilter<ListEntryDocument> {
  const set: Partial<ListEntryDocument> = { ...change };
  if (change.score !== undefined) set.score_missing = change.score === null ? 1 : 0;
  return events.length ? { $set: set, $inc: { rev: 1 }, $push: pushHistory(events) } : { $set: set, $inc: { rev: 1 } };
}

/** A new entry of the user's list: the derived keys (`score_missing`), counters and history start here. */
export function newListEntryDocument(userId: string, item: ListedItem, fields: NewListEntryFields, now: Date, seq: number, events: readonly HistoryEvent[]): ListEntryDocument {
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
