import type { Session } from './atomic.port';
import type { Id } from '../ids';
import type { HistoryEvent } from '../list-history';
import type { NewListEntryFields } from '../list-entry';
import type { ListedItem, ListEntryChange, ListEntryDocument } from '../records/list-entry.record';

/** An import batch's reads and writes of the list (data/list-entry-imports.repository.ts). */
export interface ListEntryImportsStore {
  findEntriesIn(userId: string, itemIds: readonly Id[], session: Session): Promise<ListEntryDocument[]>;
  writeImported(
    userId: string,
    inserts: Readonly<Array<{ item: ListedItem; fields: NewListEntryFields; events: readonly HistoryEvent[] }>>,
    updates: Readonly<Array<{ itemId: Id; change: ListEntryChange; events: readonly HistoryEvent[] }>>,
    now: Date,
    seq: number,
    session: Session,
  ): Promise<void>;
}
