import { toId } from '../domain/ids';
import { withRange } from './listing-plan';
import type { Direction, EntryFilter, ListingPosition, SortField } from '../domain/catalog-listing';
import type { CursorRead } from '../domain/ports/catalog-listing.port';

/** Rows strictly after `position` in the segment's order (sort key, then id, in the segment's direction). */
/** The stored value of a cursor's single-valued sort key (a title key, or a date kept as epoch ms). */
export function cursorKeyValue(field: Exclude<SortField, 'year'>, key: ListingPosition['key']): string | Date {
  return field === 'title_key' ? (key as string) : new Date(key as number);
}

export function afterPositionFilter(field: SortField, direction: Direction, key: ListingPosition['key'], id: unknown): EntryFilter {
  const beyond = direction === 1 ? '$gt' : '$lt';
  if (field === 'year') {
    const [missing, year] = Array.isArray(key) ? key : [1, null];
    // year_missing ascends in both directions (nulls last): rows without a year come after every dated row.
    if (missing === 1) return { year_missing: 1, _id: { [beyond]: id } } as EntryFilter;
    return {
      $or: [{ year_missing: 0, year: { [beyond]: year } }, { year_missing: 0, year, _id: { [beyond]: id } }, { year_missing: 1 }],
    } as EntryFilter;
  }
  const value = cursorKeyValue(field, key);
  return { $or: [{ [field]: { [beyond]: value } }, { [field]: value, _id: { [beyond]: id } }] } as EntryFilter;
}

/** The filter of one query of a cursor read: the segment's matches after `start`, and unchanged since `changedUpTo` when it is set. */
export function cursorReadFilter({ segment, start, changedUpTo }: CursorRead): EntryFilter {
  let filter = segment.filter;
  if (start) filter = withRange(filter, afterPositionFilter(segment.field, segment.direction, start.key, toId(start.id)));
  if (changedUpTo) filter = withRange(filter, { updated_at: { $lte: changedUpTo } });
  return filter;
}
