import type { mongo } from 'mongoose';
import { isObjectIdHex } from '@mt/validation';
import type { CursorPosition } from '@mt/pagination';
import { genreKey, searchWords } from '@mt/domain';
import { pageWindow, type PageWindow } from './offset-page';
import type { CatalogListQuery, CatalogSort } from './catalog-query';
import type { EntryDocument, EntryListingRow } from './records/catalog-entry.record';

export type Direction = 1 | -1;
/** A plan's filters, in the store's query language: features only hand them back to the listing reader. */
export type EntryFilter = mongo.Filter<EntryDocument>;
/** A stored key that a listing sorts by (then by `_id` in the same direction). */
export type SortField = 'title_key' | 'year' | 'created_at' | 'updated_at';
export const SORT_KEY_FIELDS: readonly SortField[] = ['title_key', 'year', 'created_at', 'updated_at'];

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
