import type { EntryFilter, ListingPosition, OrderedSegment } from '../catalog-listing';
import type { EntryListingRow } from '../records/catalog-entry.record';

/** The number of entries and the catalog's version (it changes with every write), as one read gives them. */
export interface CatalogState {
  entries: number;
  version: number;
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

/** The reads of catalog listings (data/catalog-listing.reader.ts). */
export interface CatalogListing {
  state(): Promise<CatalogState>;
  /** The number of matches of each filter, cached for the catalog version `state` was read at. */
  countMatches(filters: readonly EntryFilter[], state: CatalogState): Promise<number[]>;
  /** Rows [skip, skip + limit) of one ordered segment that holds `segmentTotal` rows, cached for the catalog version `state` was read at. */
  findSegment(segment: OrderedSegment, window: { skip: number; limit: number }, segmentTotal: number, state: CatalogState): Promise<EntryListingRow[]>;
  /** The rows of one cursor read (rows changed after `changedUpTo` left out). */
  findAfter(read: CursorRead): Promise<EntryListingRow[]>;
}
