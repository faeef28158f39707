/** The vocabulary of the shared catalog's requests: year bounds, orders, the fields a body sets, a listing's query. */
export const YEAR_MIN = 1870;
export const YEAR_MAX = 2100;
export const CATALOG_SORTS = ['relevance', 'title', 'year', 'created_at', 'updated_at'] as const;
export type CatalogSort = (typeof CATALOG_SORTS)[number];

/** The fields of a create or patch body, as validated (own fields keyed by name). */
export interface EntryFieldsInput {
  title?: string;
  year?: number | null;
  description?: string | null;
  genres?: string[];
  /** An absolute http(s) URL; null removes it. */
  poster_url?: string | null;
  /** A value sets the key, null removes it (PATCH); validated against the category's keys. */
  external_ids?: Record<string, string | null>;
  [ownField: string]: unknown;
}

export interface CatalogListQuery {
  /** `key:value` lookup, parsed. */
  external_id?: { key: string; value: string };
  q?: string;
  /** `person=` (categories with person fields). */
  person?: string;
  /** `isbn=` (books), normalised to the ISBN-13 it denotes. */
  isbn?: string;
  genre?: string;
  year?: number;
  page?: number;
  limit?: number;
  cursor?: string;
  sort?: CatalogSort;
  order?: 'asc' | 'desc';
}
