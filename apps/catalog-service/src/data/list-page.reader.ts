import type { StoreProfile } from './store-profile/store-profile';
import type { ListPosition } from '../domain/list-cursor';
import { type ListRepository } from './list.repository';
import { rangeFieldOf, type ListRange } from './list-entry.document';
import type { ListSort, ListStatus } from '../domain/list-entry';
import type { ListCounts, ListPages } from '../domain/ports/list-pages.port';
import type { ListEntryDocument } from '../domain/records/list-entry.record';

/**
 * Reads the rows of a list page. On MongoDB the sort indexes (user first) make every page cost the same for
 * any list size, and this is a plain read. On a server that sorts every match instead, the store profile
 * narrows the read to a range of the sort key that very probably holds the page (the rows are the same).
 */
export class ListPageReader implements ListPages {
  constructor(
    private readonly lists: ListRepository,
    private readonly profile: StoreProfile,
  ) {}

  offsetPage(userId: string, status: ListStatus | undefined, sort: ListSort, direction: 1 | -1, window: { skip: number; limit: number }, counts: ListCounts): Promise<ListEntryDocument[]> {
    const expected = Math.min(window.limit, counts.matching - window.skip);
    return this.narrowed(userId, sort, direction, window.skip + expected, expected, counts, (range) => this.lists.page(userId, status, sort, direction, window, range));
  }

  /** `limit` rows after `position` (the `served` rows before it are the depth of the page in the order). */
  cursorPage(
    userId: string,
    status: ListStatus | undefined,
    sort: ListSort,
    direction: 1 | -1,
    after: { position: ListPosition | null; served: number; changedUpTo: Date | null },
    limit: number,
    counts: ListCounts,
  ): Promise<ListEntryDocument[]> {
    const expected = Math.min(limit, counts.matching - after.served);
    return this.narrowed(userId, sort, direction, after.served + expected, expected, counts, (range) =>
      this.lists.pageAfter(userId, status, sort, direction, after.position, after.changedUpTo, limit, range),
    );
  }

  private narrowed(
    userId: string,
    sort: ListSort,
    direction: 1 | -1,
    needed: number,
    expected: number,
    counts: ListCounts,
    read: (range: ListRange | undefined) => Promise<ListEntryDocument[]>,
  ): Promise<ListEntryDocument[]> {
    const field = rangeFieldOf(sort);
    if (!field) return read(undefined);
    return this.profile.readListRange(userId, {
      field,
      direction,
      needed,
      entries: counts.entries,
      matching: counts.matching,
      expected,
      read: (value) => read(value === undefined ? undefined : { field, direction, value }),
    });
  }
}
