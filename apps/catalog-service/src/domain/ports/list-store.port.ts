import type { Session } from './atomic.port';
import type { Id } from '../ids';
import type { HistoryEvent } from '../list-history';
import type { ListStatus, NewListEntryFields } from '../list-entry';
import type { ExportedListEntry, ListedItem, ListEntryChange, ListEntryDocument } from '../records/list-entry.record';

/** What the bulk rules and the history read of each entry of a bulk request (it is addressed by `_id` after). */
export type BulkEntryFields = Pick<ListEntryDocument, '_id' | 'item_id' | 'started_at' | 'finished_at' | 'status' | 'score' | 'progress'>;

/** The users' list entries (collection `list_entries`, data/list.repository.ts). */
export interface ListStore {
  /** DuplicateListEntryError when the item is already on the list. */
  insertNew(userId: string, item: ListedItem, fields: NewListEntryFields, now: Date, seq: number, events: readonly HistoryEvent[], session: Session): Promise<ListEntryDocument>;
  find(userId: string, itemId: Id, session?: Session): Promise<ListEntryDocument | null>;
  historyOf(userId: string, itemId: Id): Promise<Pick<ListEntryDocument, 'created_at' | 'history'> | null>;
  updateAtRevision(userId: string, itemId: Id, rev: number, change: ListEntryChange, events: readonly HistoryEvent[], session: Session): Promise<ListEntryDocument | null>;
  delete(userId: string, itemId: Id, session: Session): Promise<ListEntryDocument | null>;
  findMany(userId: string, itemIds: readonly Id[], session: Session): Promise<BulkEntryFields[]>;
  setStatus(userId: string, entryIds: readonly Id[], status: ListStatus, today: string, now: Date, seq: number, session: Session): Promise<number>;
  deleteMany(userId: string, entryIds: readonly Id[], session: Session): Promise<number>;
  findEntries(userId: string, itemIds: readonly Id[]): Promise<ListEntryDocument[]>;
  entriesOfItem(itemId: Id, session: Session, userIds?: readonly string[]): Promise<ListEntryDocument[]>;
  deleteByIds(ids: readonly Id[], session: Session): Promise<number>;
  moveItem(from: Id, into: ListedItem, now: Date, seqs: ReadonlyMap<string, number>, session: Session): Promise<number>;
  copyItemIntoEntries(item: ListedItem, session: Session): Promise<void>;
  streamForExport(userId: string): AsyncIterable<ExportedListEntry>;
  deleteAllOfUser(userId: string, session: Session): Promise<number>;
  /** A play write that changed nothing visible: only the up-next fields, no new revision or feed position. */
  setPlayState(userId: string, itemId: Id, state: Pick<ListEntryDocument, 'next_episode' | 'last_played_at'>, session: Session): Promise<void>;
  /** Up-next: the user's `watching` entries that have a next episode, most recently played first, after `after`. */
  upNextCandidates(userId: string, after: { lastPlayedAt: number | null; itemId: string } | null, limit: number): Promise<ListEntryDocument[]>;
}
