import type { Logger } from '@mt/logging';
import { sortsInsteadOfWalkingIndexes } from '@mt/stores';
import type { mongo } from 'mongoose';
import { changedSinceWalkInCode, changedSinceWalkInQuery, type CursorQuery } from './changed-since-walk';
import { KeyedRangeHints, RangeHints, type Direction, type RangeHintsOptions, type SortKeyRow, type SortValue } from './range-hints';
import type { EntryListingRow } from '../../domain/records/catalog-entry.record';
import type { CursorRead } from '../../domain/ports/catalog-listing.port';

export const STORE_PROFILES = ['mongodb', 'sorting'] as const;
/**
 * `mongodb`: a server that walks a `{key, _id}` index in order and stops after a page (MongoDB ≥ 6).
 * `sorting`: a MongoDB-compatible server that reads every match and sorts it (DocumentDB, FerretDB).
 */
export type StoreProfileName = (typeof STORE_PROFILES)[number];
/** STORE_PROFILE: a profile, or `auto` to probe the connected server at start-up. */
export type StoreProfileSetting = StoreProfileName | 'auto';

/** The projection of whole list-entry reads that leaves out the history (only the history endpoint reads it). */
export const WITHOUT_HISTORY = { history: 0 } as const;

/**
 * A read of rows in one sort order that a profile may narrow to a range of the sort key. `read(undefined)`
 * is the plain read; `read(bound)` the same read stopped at `bound`. The rows are the same either way.
 */
export interface RangeRead<T> {
  field: string;
  direction: Direction;
  /** Rows of the filtered order up to the last one the page needs (its depth plus its rows). */
  needed: number;
  /** Rows of the whole order (the collection, or the owner's list). */
  entries: number;
  /** Rows the filter selects among them. */
  matching: number;
  /** Rows the read should return: fewer means a bound proved too tight. */
  expected: number;
  /** A cursor's key the read starts after; `needed` then counts from it. */
  from?: SortValue;
  read: (bound: SortValue | undefined) => Promise<T[]>;
}

/** How a feed page reads: up to `maxSeq`, the page's `limit` rows after the position. */
export type FeedPageRead<T> = (upTo: number) => Promise<T[]>;

/**
 * Everything that differs between the servers the catalog runs on, in one adapter chosen once at start-up;
 * repositories and readers call it and never ask which server they are on.
 */
export interface StoreProfile {
  readonly name: StoreProfileName;
  /** A sorted read of the catalog's entries. */
  readCatalogRange<T>(read: RangeRead<T>): Promise<T[]>;
  /** The catalog's current number of entries, seen by a read. */
  observeCatalog(entries: number): void;
  /** A sorted read of one owner's list. */
  readListRange<T>(userId: string, read: RangeRead<T>): Promise<T[]>;
  /** A catalog cursor page without the rows changed since its walk began (`read.changedUpTo`). */
  changedSinceWalk(read: CursorRead, query: CursorQuery): Promise<EntryListingRow[]>;
  /** A page of a change feed after `after`, up to `maxSeq`. */
  feedPage<T>(after: { seq: number } | null, maxSeq: number, limit: number, read: FeedPageRead<T>): Promise<T[]>;
  /** The projection of reads of whole list entries. */
  readonly listEntryProjection: typeof WITHOUT_HISTORY | undefined;
  stop(): void;
}

/** MongoDB: index-ordered queries as written; a page costs the same at any depth. */
export class MongoDbStoreProfile implements StoreProfile {
  readonly name = 'mongodb';
  readonly listEntryProjection = WITHOUT_HISTORY;
  readCatalogRange<T>({ read }: RangeRead<T>): Promise<T[]> {
    return read(undefined);
  }
  observeCatalog(): void {
    // Index-ordered reads need no sample of the catalog.
  }
  readListRange<T>(_userId: string, { read }: RangeRead<T>): Promise<T[]> {
    return read(undefined);
  }
  changedSinceWalk(read: CursorRead, query: CursorQuery): Promise<EntryListingRow[]> {
    return changedSinceWalkInQuery(read, query);
  }
  feedPage<T>(_after: { seq: number } | null, maxSeq: number, _limit: number, read: FeedPageRead<T>): Promise<T[]> {
    return read(maxSeq);
  }
  stop(): void {
    // Nothing runs in the background.
  }
}

/** Tuning of the range hints (tests shrink the samples and thresholds to exercise them on small data). */
export type RangeHintsTuning = Partial<Pick<RangeHintsOptions<string>, 'sampleSize' | 'minEntries' | 'refreshIntervalMs' | 'rankFactor' | 'rankPadding'>>;

export interface SortingStoreProfileOptions {
  logger: Logger;
  catalog: { fields: readonly string[]; loadSample: (size: number) => Promise<SortKeyRow<string>[]>; countEntries: () => Promise<number> };
  lists: { fields: readonly string[]; loadSample: (userId: string, size: number) => Promise<SortKeyRow<string>[]>; countEntries: (userId: string) => Promise<number> };
  tuning?: RangeHintsTuning;
}

/** A narrowed feed read first looks at one sequence number: a bulk write or an import batch may hold 500 rows. */
const FIRST_WINDOW_SEQS = 1;
/** Each retry looks at a window at least this many times as wide. */
const WIDENING = 4;
/** A personal list is short enough to sort whole below this many entries. */
const LIST_MIN_ENTRIES = 2000;

/**
 * Servers that sort every match instead of walking an index in order (DocumentDB, FerretDB): sorted reads are
 * narrowed by range hints (catalog and lists), catalog cursor pages filter changed rows in code, feed pages
 * read windows of sequence numbers, and list reads carry the history along (a projection leaving it out
 * costs such a server more than it saves).
 */
export class SortingStoreProfile implements StoreProfile {
  readonly name = 'sorting';
  readonly listEntryProjection = undefined;
  readonly catalogHints: RangeHints<string>;
  readonly listHints: KeyedRangeHints<string>;

  constructor({ logger, catalog, lists, tuning }: SortingStoreProfileOptions) {
    this.catalogHints = new RangeHints({ ...catalog, logger, ...tuning });
    this.listHints = new KeyedRangeHints({ ...lists, logger, minEntries: LIST_MIN_ENTRIES, ...tuning });
    this.catalogHints.start();
    this.listHints.start();
  }

  readCatalogRange<T>(read: RangeRead<T>): Promise<T[]> {
    return narrowed(this.catalogHints, read);
  }

  observeCatalog(entries: number): void {
    this.catalogHints.observe(entries);
  }

  readListRange<T>(userId: string, read: RangeRead<T>): Promise<T[]> {
    const hints = read.expected > 0 ? this.listHints.forKey(userId, read.entries) : undefined;
    return hints ? narrowed(hints, read) : read.read(undefined);
  }

  changedSinceWalk(read: CursorRead, query: CursorQuery): Promise<EntryListingRow[]> {
    return changedSinceWalkInCode(read, query);
  }

  async feedPage<T>(after: { seq: number } | null, maxSeq: number, limit: number, read: FeedPageRead<T>): Promise<T[]> {
    // Sequence numbers grow by one per write, but a bulk write or an import batch gives all its rows (up to
    // 500) one, and compaction keeps only each item's latest row: how many rows a window of sequence
    // numbers holds is known only by reading it. Start with one number and widen by what the last window
    // held, until the page is full or the window reaches maxSeq; every read is an index range of about a
    // page, and the last one is the plain read.
    let window = FIRST_WINDOW_SEQS;
    for (;;) {
      const upTo = Math.min(maxSeq, (after?.seq ?? 0) + window);
      const rows = await read(upTo);
      if (rows.length >= limit || upTo >= maxSeq) return rows;
      const perSeq = Math.max(rows.length / window, 1 / WIDENING);
      window = Math.max(window * WIDENING, Math.ceil((2 * (limit - rows.length)) / perSeq));
    }
  }

  stop(): void {
    this.catalogHints.stop();
  }
}

/** Where the last needed row probably lies in the whole order (a filter thins the rows out), then a read bounded near it. */
function narrowed<T>(hints: RangeHints<string>, { field, direction, needed, entries, matching, expected, from, read }: RangeRead<T>): Promise<T[]> {
  const rank = (hints.rankFor(needed) * entries) / Math.max(1, matching);
  return hints.readNarrowed(field, direction, rank, entries, expected, read, from);
}

/**
 * The process's store profile: plain MongoDB until start-up chooses, once (`choose`), from the configuration
 * or the connected server. The repositories hold this one object and call it; only `choose` looks at the server.
 */
export class ChosenStoreProfile implements StoreProfile {
  private chosen: StoreProfile = new MongoDbStoreProfile();
  private isChosen = false;

  constructor(private readonly sorting: () => SortingStoreProfile) {}

  get name(): StoreProfileName {
    return this.chosen.name;
  }
  get current(): StoreProfile {
    return this.chosen;
  }
  get listEntryProjection(): typeof WITHOUT_HISTORY | undefined {
    return this.chosen.listEntryProjection;
  }

  /** Chooses the profile: the one `setting` names, or, for `auto`, the one the server's query plans call for. */
  async choose(setting: StoreProfileSetting, probe: mongo.Collection): Promise<StoreProfileName> {
    if (this.isChosen) return this.chosen.name;
    const name: StoreProfileName = setting !== 'auto' ? setting : (await sortsInsteadOfWalkingIndexes(probe)) ? 'sorting' : 'mongodb';
    if (name === 'sorting') this.chosen = this.sorting();
    this.isChosen = true;
    return name;
  }

  readCatalogRange<T>(read: RangeRead<T>): Promise<T[]> {
    return this.chosen.readCatalogRange(read);
  }
  observeCatalog(entries: number): void {
    this.chosen.observeCatalog(entries);
  }
  readListRange<T>(userId: string, read: RangeRead<T>): Promise<T[]> {
    return this.chosen.readListRange(userId, read);
  }
  changedSinceWalk(read: CursorRead, query: CursorQuery): Promise<EntryListingRow[]> {
    return this.chosen.changedSinceWalk(read, query);
  }
  feedPage<T>(after: { seq: number } | null, maxSeq: number, limit: number, read: FeedPageRead<T>): Promise<T[]> {
    return this.chosen.feedPage(after, maxSeq, limit, read);
  }
  stop(): void {
    this.chosen.stop();
  }
}
