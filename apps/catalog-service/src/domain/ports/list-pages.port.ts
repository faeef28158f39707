import type { ListPosition } from '../list-cursor';
import type { ListSort, ListStatus } from '../list-entry';
import type { ListEntryDocument } from '../records/list-entry.record';

/** How many entries the user has, and how many of them the page's filter selects. */
export interface ListCounts {
  entries: number;
  matching: number;
}

/** The rows of a list page (data/list-page.reader.ts). */
export interface ListPages {
  offsetPage(userId: string, status: ListStatus | undefined, sort: ListSort, direction: 1 | -1, window: { skip: number; limit: number }, counts: ListCounts): Promise<ListEntryDocument[]>;
  /** `limit` rows after `position` (the `served` rows before it are the depth of the page in the order). */
  cursorPage(
    userId: string,
    status: ListStatus | undefined,
    sort: ListSort,
    direction: 1 | -1,
    after: { position: ListPosition | null; served: number; changedUpTo: Date | null },
    limit: number,
    counts: ListCounts,
  ): Promise<ListEntryDocument[]>;
}
