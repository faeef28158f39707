import { COLLECTIONS, type CatalogDatabase } from './database';
import { COUNTER_SHARDS, type CounterDocument } from './catalog-counter';
import { ENTRY_LISTING_PROJECTION } from './entry.document';
import { VersionedCache } from './versioned-cache';
import { cursorKeyValue, cursorReadFilter } from './listing-cursor';
import { rangeFilter, sortSpec, withRange } from './listing-plan';
import type { SortKeyRow } from './store-profile/range-hints';
import type { StoreProfile } from './store-profile/store-profile';
import type { EntryDocument, EntryListingRow } from '../domain/records/catalog-entry.record';
import type { CatalogListing, CatalogState, CursorRead } from '../domain/ports/catalog-listing.port';
import type { EntryFilter, OrderedSegment, SortField } from '../domain/catalog-listing';

/** How long a cached count or page is served at most, whatever the version says (see VersionedCache). */
const CACHED_LISTING_MAX_AGE_MS = 60_000;
/** The most rows all cached pages hold together (a row is about 1 kB in memory). */
const CACHED_PAGE_ROWS = 5_000;

const isSearch = (filter: EntryFilter) => filter.title_prefixes !== undefined || filter.title_words !== undefined || filter.person_prefixes !== undefined;

/** The reads of catalog listings: the entry counter, counts of filters, ordered pages by offset and by cursor. */
export class CatalogListingReader implements CatalogListing {
  /** Counting is the one part of a listing that grows with the number of matches: repeated searches of an unchanged catalog skip it. */
  private readonly countCache = new VersionedCache<number[]>({ maxEntries: 1000, maxAgeMs: CACHED_LISTING_MAX_AGE_MS });
  /**
   * The rows of browsing pages by offset: clients ask for the same few pages of a catalog that changes far
   * less often than it is read, so an unchanged catalog's page costs one read of its counter.
   */
  private readonly pageCache = new VersionedCache<EntryListingRow[]>({
    maxEntries: 500,
    maxSize: CACHED_PAGE_ROWS,
    sizeOf: (rows) => rows.length,
    maxAgeMs: CACHED_LISTING_MAX_AGE_MS,
  });

  constructor(
    private readonly db: CatalogDatabase,
    /** What differs on the connected server: narrowed sorted reads, the changed-since-walk filter. */
    private readonly profile: StoreProfile,
  ) {}

  private get entries() {
    return this.db.collection<EntryDocument>(COLLECTIONS.entries);
  }

  private get counters() {
    return this.db.collection<CounterDocument>(COLLECTIONS.counters);
  }

  /** The number of entries and the catalog version, from the counter shards (one indexed read). */
  async state(): Promise<CatalogState> {
    const state = await this.readCounter();
    this.profile.observeCatalog(state.entries);
    return state;
  }

  async entryCount(): Promise<number> {
    return (await this.readCounter()).entries;
  }

  private async readCounter(): Promise<CatalogState> {
    const shards = await this.counters.find({ _id: { $in: COUNTER_SHARDS } }).toArray();
    const state = { entries: 0, version: 0 };
    for (const shard of shards) {
      state.entries += shard.count ?? 0;
      state.version += shard.version ?? 0;
    }
    return state;
  }

  /**
   * The number of matches of each filter (index-served counts), cached for the catalog version `state`
   * was read at. An empty filter is the whole collection: the counter already knows.
   */
  async countMatches(filters: readonly EntryFilter[], state: CatalogState): Promise<number[]> {
    return this.countCache.getOrLoad(JSON.stringify(filters), state.version, () =>
      Promise.all(filters.map((filter) => (Object.keys(filter).length ? this.entries.countDocuments(filter) : state.entries))),
    );
  }

  /**
   * Rows [skip, skip + limit) of one ordered segment that holds `segmentTotal` rows. With a sort key hint
   * the query reads only a range of the sort index; if the range proves too small, it is widened, and
   * finally the plain query runs. The answer is the same either way.
   */
  async findSegment(
    segment: OrderedSegment,
    window: { skip: number; limit: number },
    segmentTotal: number,
    state: CatalogState,
  ): Promise<EntryListingRow[]> {
    const { skip, limit } = window;
    const expected = Math.min(limit, segmentTotal - skip);
    if (expected <= 0) return [];
    // Searches are typed and rarely asked twice: only browsing pages (filters and sorts without words) are kept.
    if (isSearch(segment.filter)) return this.readSegment(segment, window, segmentTotal, state.entries, expected);
    const key = JSON.stringify([segment.filter, segment.field, segment.direction, skip, limit]);
    return this.pageCache.getOrLoad(key, state.version, () => this.readSegment(segment, window, segmentTotal, state.entries, expected));
  }

  private readSegment(
    segment: OrderedSegment,
    window: { skip: number; limit: number },
    segmentTotal: number,
    entries: number,
    expected: number,
  ): Promise<EntryListingRow[]> {
    const { skip, limit } = window;
    const sort = sortSpec(segment.field, segment.direction);
    return this.profile.readCatalogRange({
      field: segment.field,
      direction: segment.direction,
      needed: skip + expected,
      entries,
      matching: segmentTotal,
      expected,
      read: (bound) => {
        const filter = bound === undefined ? segment.filter : withRange(segment.filter, rangeFilter(segment.field, segment.direction, bound));
        return this.listingRows(filter).sort(sort).skip(skip).limit(limit).toArray();
      },
    });
  }

  /**
   * Cursor pages: the rows of one `CursorRead` (rows changed after `changedUpTo` are left out: they may have
   * moved behind the cursor, so each is seen at most once; how depends on the store profile). Index-ordered range
   * reads; their cost does not grow with the depth of the page. With `depth`, narrowed by range hints where the
   * server sorts every match, like findSegment.
   */
  findAfter(read: CursorRead): Promise<EntryListingRow[]> {
    return this.profile.changedSinceWalk(read, (part) => this.readAfter(part));
  }

  private readAfter(read: CursorRead): Promise<EntryListingRow[]> {
    const { segment, start, limit, depth } = read;
    const filter = cursorReadFilter(read);
    const sort = sortSpec(segment.field, segment.direction);
    const expected = depth ? Math.min(limit, depth.segmentTotal - depth.depth) : 0;
    if (!depth || expected <= 0) return this.listingRows(filter).sort(sort).limit(limit).toArray();
    // As findSegment: on servers that sort every match, a range of the sort key that probably holds the rows —
    // counted from the cursor's key when it is a single value (the rows after it), else from the segment's start.
    const from = start && segment.field !== 'year' ? cursorKeyValue(segment.field, start.key) : undefined;
    return this.profile.readCatalogRange({
      field: segment.field,
      direction: segment.direction,
      needed: from === undefined ? depth.depth + expected : expected,
      entries: depth.entries,
      matching: depth.segmentTotal,
      expected,
      from,
      read: (bound) => {
        const bounded = bound === undefined ? filter : withRange(filter, rangeFilter(segment.field, segment.direction, bound));
        return this.listingRows(bounded).sort(sort).limit(limit).toArray();
      },
    });
  }

  private listingRows(filter: EntryFilter) {
    return this.entries.find<EntryListingRow>(filter, { projection: ENTRY_LISTING_PROJECTION });
  }

  loadSortKeySample(size: number): Promise<SortKeyRow<SortField>[]> {
    return this.entries
      .aggregate<SortKeyRow<SortField>>([{ $sample: { size } }, { $project: { _id: 0, title_key: 1, year: 1, created_at: 1, updated_at: 1 } }])
      .toArray();
  }
}
