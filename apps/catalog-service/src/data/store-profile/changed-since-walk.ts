import type { EntryListingRow } from '../../domain/records/catalog-entry.record';
import { sortKeyOf } from '../../domain/catalog-listing';
import type { CursorRead } from '../../domain/ports/catalog-listing.port';

/** One index-ordered query of a cursor read; its filter is `cursorReadFilter(read)` (`changedUpTo`, when set, a condition of it). */
export type CursorQuery = (read: CursorRead) => Promise<EntryListingRow[]>;

/**
 * How a cursor page leaves out the rows changed since its walk began (`read.changedUpTo`). Chosen once at
 * start-up with the store profile (store-profile.ts), which holds it.
 */
export type ChangedSinceWalk = (read: CursorRead, query: CursorQuery) => Promise<EntryListingRow[]>;

/** The default (MongoDB): `updated_at <= changedUpTo` is a condition of the one query, which still walks the sort index. */
export const changedSinceWalkInQuery: ChangedSinceWalk = (read, query) => query(read);

/**
 * The adapter for servers that sort every match instead of walking an index in order (the DocumentDB test
 * sandbox): the query reads the sort order without the condition, the rows read are filtered here, and reading
 * goes on until the page is full.
 *
 * Why: there, a range on `updated_at` beside the sort key's range leads the planner to the `updated_at` index,
 * which reads every row changed before the walk began (figures in the README, "Cursor pages").
 */
export const changedSinceWalkInCode: ChangedSinceWalk = async (read, query) => {
  const { segment, changedUpTo, limit } = read;
  // Ordered by updated_at itself, the condition is a range of the index walked anyway: it stays in the query.
  if (!changedUpTo || segment.field === 'updated_at') return query(read);
  const rows: EntryListingRow[] = [];
  let start = read.start;
  let depth = read.depth;
  for (;;) {
    const batch = await query({ segment, start, changedUpTo: null, limit, depth });
    rows.push(...batch.filter((doc) => doc.updated_at <= changedUpTo));
    const last = batch[batch.length - 1];
    if (rows.length >= limit || batch.length < limit || !last) return rows.slice(0, limit);
    start = { key: sortKeyOf(last, segment.field), id: last._id.toHexString() };
    depth = depth && { ...depth, depth: depth.depth + batch.length };
  }
};
