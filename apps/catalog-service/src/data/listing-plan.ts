import type { mongo } from 'mongoose';
import type { SortValue } from './store-profile/range-hints';
import type { Direction, EntryFilter, SortField } from '../domain/catalog-listing';

/** The MongoDB sort of a segment; a nullable key sorts its nulls last in both directions. */
export function sortSpec(field: SortField, direction: Direction): mongo.Sort {
  if (field === 'year') return { year_missing: 1, year: direction, _id: direction };
  return { [field]: direction, _id: direction };
}

/**
 * Restricts a segment to the keys up to `bound` in its direction (see RangeHints): the first rows of
 * the order all lie in that range whenever it holds enough of them.
 */
export function rangeFilter(field: SortField, direction: Direction, bound: SortValue): EntryFilter {
  const range = direction === 1 ? { $lte: bound } : { $gte: bound };
  if (field === 'year') return { year_missing: 0, year: range } as EntryFilter;
  return { [field]: range } as EntryFilter;
}

/** Both conditions; a plain merge unless they constrain the same field (e.g. a year filter and a year range). */
export function withRange(filter: EntryFilter, range: EntryFilter): EntryFilter {
  return Object.keys(range).some((key) => key in filter) ? { $and: [filter, range] } : { ...filter, ...range };
}
