import type { EntryDocument, EntryListingRow, EntryResponseSource } from '../domain/records/catalog-entry.record';

/**
 * Catalog pages read only what a row shows and where a cursor resumes: the search keys (title and person
 * prefixes above all) are most of a stored entry's bytes, and decoding them was the largest cost of a page.
 * An exclusion, so a field added to responses later is never silently left out.
 */
export const ENTRY_LISTING_PROJECTION: Readonly<Record<Exclude<keyof EntryDocument, keyof EntryListingRow>, 0>> = {
  title_words: 0,
  title_prefixes: 0,
  genre_keys: 0,
  person_prefixes: 0,
  external_keys: 0,
  list_claims: 0,
};

/** Reads only what a response shows (exports): a listing row without its sort keys. */
export const ENTRY_RESPONSE_PROJECTION: Readonly<Record<Exclude<keyof EntryDocument, keyof EntryResponseSource>, 0>> = {
  ...ENTRY_LISTING_PROJECTION,
  title_key: 0,
  year_missing: 0,
};
