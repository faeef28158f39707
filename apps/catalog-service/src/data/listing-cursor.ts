import { isObjectIdHex } from '@mt/validation';
import type { CursorPosition } from '@mt/pagination';
import { toId } from '../domain/ids';
import type { EntryListingRow } from './entry.document';
import { withRange, type Direction, type EntryFilter, type OrderedSegment, type SortField } from './listing-plan';

/**
 * Where a cursor page resumes: after the row with sort key `key` and id `id` in segment `segment` of the
 * listing plan; `served` rows came before it (gives the page object its `page` number).
 */
export interface ListingPosition {
  segment: number;
  key: string | number | [number, number | null];
  id: string;
  served: number;
}

/**
 * One cursor page's read of one ordered segment: up to `limit` rows after `start` (from the segment's
 * beginning when null), leaving out rows changed after `changedUpTo` (null: none left out). `depth`: rows of
 * the segment before `start`, with the totals range hints aim by.
 */
export interface CursorRead {
  segment: OrderedSegment;
  start: Pick<ListingPosition, 'key' | 'id'> | null;
  changedUpTo: Date | null;
  limit: number;
  depth?: { depth: number; segmentTotal: number; entries: number };
}

/** The sort key of a row as a cursor stores it (JSON: dates as epoch ms; year as [year_missing, year]). */
export function sortKeyOf(doc: EntryListingRow, field: SortField): ListingPosition['key'] {
  switch (field) {
    case 'title_key':
      return doc.title_key;
    case 'year':
      return [doc.year_missing, doc.year];
    case 'created_at':
      return doc.created_at.getTime();
    case 'updated_at':
      return doc.updated_at.getTime();
  }
}

export function positionAfter(doc: EntryListingRow, segmentIndex: number, segment: OrderedSegment, served: number): CursorPosition {
  return { s: segmentIndex, k: sortKeyOf(doc, segment.field), i: doc._id.toHexString(), n: served };
}

/** The position of a decoded (HMAC-checked, so ours) cursor; null when its shape does not fit this plan. */
export function readPosition(after: CursorPosition, segments: number): ListingPosition | null {
  if (after === null || typeof after !== 'object' || Array.isArray(after)) return null;
  const { s, k, i, n } = after as Record<string, CursorPosition>;
  if (typeof s !== 'number' || !Number.isInteger(s) || s < 0 || s >= segments) return null;
  if (typeof i !== 'string' || !isObjectIdHex(i) || typeof n !== 'number' || n < 0) return null;
  if (typeof k !== 'string' && typeof k !== 'number' && !Array.isArray(k)) return null;
  return { segment: s, key: k as ListingPosition['key'], id: i, served: n };
}

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
