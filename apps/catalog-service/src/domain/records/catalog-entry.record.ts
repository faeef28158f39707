import type { Id } from '../ids';

/**
 * A catalog entry as stored. Besides what the client sees it keeps derived keys, written together with
 * the field they derive from:
 * - `title_key`: folded title (duplicate detection with `year`, and the title sort);
 * - `title_words` / `title_prefixes`: folded title words and all their prefixes (indexed search), bounded
 *   whatever the title (SEARCH_LIMITS);
 * - `year_missing`: 1 when `year` is null, so entries without a year sort last in both orders;
 * - `genre_keys`: lower-cased genres for the case-insensitive genre filter;
 * - `person_prefixes`: folded word prefixes of the category's person fields (`person=`), bounded like titles;
 * - `external_keys`: the `external_ids` pairs as `key:value` strings, under a unique multikey index (one entry
 *   per pair in a category). Absent, never `[]`, when there are none: a unique index counts an empty array as
 *   a value, and the index is partial on its existence.
 */
export interface EntryDocument {
  _id: Id;
  title: string;
  title_key: string;
  title_words: string[];
  title_prefixes: string[];
  year: number | null;
  year_missing: 0 | 1;
  description: string | null;
  genres: string[];
  genre_keys: string[];
  /** Absent on entries written before person search existed until the start-up backfill. */
  person_prefixes?: string[];
  /** The category's own fields. */
  own: Record<string, unknown>;
  /** `{}` when it has none (entries from before external ids get theirs from migrations/001-external-ids.ts). */
  external_ids: Record<string, string>;
  external_keys?: string[];
  /** An absolute http(s) URL of the work's poster or cover; absent on entries written before posters existed. */
  poster_url?: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  /**
   * Bumped by every list addition of the entry, in the addition's transaction: a write (a read would not
   * conflict) so that a moderator's removal or merge racing the addition conflicts with it and one of them
   * runs again. Never shown.
   */
  list_claims?: number;
}

/** The stored fields a response is made of (`toEntryResponse`): the entry without its derived keys. */
export type EntryResponseSource = Pick<
  EntryDocument,
  '_id' | 'title' | 'year' | 'description' | 'genres' | 'own' | 'external_ids' | 'poster_url' | 'created_by' | 'created_at' | 'updated_at'
>;

/** A row of a catalog page: what its response shows, and the sort keys its cursor position is taken from. */
export type EntryListingRow = EntryResponseSource & Pick<EntryDocument, 'title_key' | 'year_missing'>;

/** What a list entry keeps of its catalog entry: title, year, and the own field of a length in pages (books). */
export type ItemSummaryRow = Pick<EntryDocument, '_id' | 'title' | 'year' | 'title_key' | 'poster_url'> & { own?: Record<string, unknown> };

/** A change of one entry: `$set`, `$unset`, and the state it was computed from (a concurrent change makes it retry). */
export interface EntryChange {
  set: Record<string, unknown>;
  unset: string[];
  /** When given: apply only if the entry is still as read (same `updated_at` and `external_keys`, null: none). */
  expect?: { updatedAt: Date; externalKeys: string[] | null };
}

/** A unique index refused the write: an entry with the same folded title and year exists. */
export class DuplicateEntryError extends Error {
  override name = 'DuplicateEntryError';
}

/** The external ids index refused the write: another entry holds one of the `key:value` pairs. */
export class DuplicateExternalIdError extends Error {
  override name = 'DuplicateExternalIdError';
}
