import type { mongo } from 'mongoose';
import { genreKey, searchWords } from '@mt/domain';
import { pageWindow, type PageWindow } from '../domain/offset-page';
import type { CatalogListQuery, CatalogSort } from '../domain/catalog-query';
import type { EntryDocument } from './entry.document';
import type { Direction, SortValue } from './store-profile/range-hints';

export type EntryFilter = mongo.Filter<EntryDocument>;
/** A stored key that a listing sorts by (then by `_id` in the same direction). */
export type SortField = 'title_key' | 'year' | 'created_at' | 'updated_at';
export const SORT_KEY_FIELDS: readonly SortField[] = ['title_key', 'year', 'created_at', 'updated_at'];
export type { Direction, SortValue } from './store-profile/range-hints';

/** A part of the matches that is returned as one ordered run. */
export interface OrderedSegment {
  filter: EntryFilter;
  field: SortField;
  direction: Direction;
}

/**
 * How one listing request is answered: `filter` selects every match (what `total` counts); `segments`
 * split the matches into disjoint runs, concatenated in response order. A plain sort is one segment;
 * relevance is two (whole-word matches, then prefix-only matches), each ordered by title then id.
 */
export interface ListingPlan {
  filter: EntryFilter;
  segments: OrderedSegment[];
  window: PageWindow;
}

const SORT_FIELDS: Record<Exclude<CatalogSort, 'relevance'>, SortField> = {
  title: 'title_key',
  year: 'year',
  created_at: 'created_at',
  updated_at: 'updated_at',
};

export function planListing(query: CatalogListQuery): ListingPlan {
  const window = pageWindow(query.page, query.limit);
  const words = query.q === undefined ? [] : searchWords(query.q);
  const filter: EntryFilter = {};
  // Every query word must be a title word or a prefix of one: served by the multikey prefix index.
  if (words.length) filter.title_prefixes = { $all: words };
  if (query.genre !== undefined) filter.genre_keys = genreKey(query.genre);
  if (query.year !== undefined) filter.year = query.year;
  // person=: every word a word (prefix) of the person fields, like q on titles (multikey prefix index).
  if (query.person !== undefined) filter.person_prefixes = { $all: searchWords(query.person) };
  // isbn=: the derived, uniquely indexed isbn13 pair, so ISBN-10 and ISBN-13 spellings find the same book.
  if (query.isbn !== undefined) filter.external_keys = `isbn13:${query.isbn}`;

  const sort = query.sort ?? (words.length ? 'relevance' : 'title');
  const order = query.order ?? (sort === 'title' ? 'asc' : 'desc');
  const direction: Direction = order === 'asc' ? 1 : -1;

  if (sort !== 'relevance') return { filter, window, segments: [{ filter, field: SORT_FIELDS[sort], direction }] };

  const wholeWords: EntryFilter = { title_words: { $all: words } };
  const best: OrderedSegment = { filter: { ...filter, ...wholeWords }, field: 'title_key', direction: 1 };
  const rest: OrderedSegment = { filter: { ...filter, $nor: [wholeWords] }, field: 'title_key', direction: 1 };
  // `desc` = most relevant first; `asc` is the exact reverse of that order.
  const segments = direction === -1 ? [best, rest] : [rest, best].map((segment) => ({ ...segment, direction: -1 as const }));
  return { filter, window, segments };
}

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

/** How many rows of each segment fall in the window [skip, skip + limit), given each segment's size. */
export function windowPerSegment(window: PageWindow, segmentTotals: readonly number[]): Array<{ skip: number; limit: number }> {
  let offset = 0;
  return segmentTotals.map((size) => {
    const start = Math.max(window.skip, offset);
    const end = Math.min(window.skip + window.limit, offset + size);
    offset += size;
    return end > start ? { skip: start - (offset - size), limit: end - start } : { skip: 0, limit: 0 };
  });
}
