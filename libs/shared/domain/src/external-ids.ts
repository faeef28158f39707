import { isbn13Of } from './isbn';

/**
 * One key of `external_ids`: the format of its values, or how it is derived (then read-only). The patterns are
 * the contract: the catalog's OpenAPI description publishes them (docs/api.md defers to it for formats).
 */
export interface ExternalIdKey {
  readonly pattern: RegExp;
  /** The value format, for messages and the OpenAPI description. */
  readonly format: string;
  readonly example: string;
  /** A read-only key computed from the entry's own fields (books: `isbn13` from `isbn`). */
  readonly derive?: (own: Readonly<Record<string, unknown>>) => string | null;
}

export const IMDB_ID: ExternalIdKey = { pattern: /^tt\d{7,10}$/, format: '`tt` + 7–10 digits', example: 'tt0133093' };
export const TMDB_ID: ExternalIdKey = { pattern: /^[1-9]\d{0,9}$/, format: 'a positive integer as a string', example: '603' };
export const TVDB_ID: ExternalIdKey = { pattern: /^[1-9]\d{0,9}$/, format: 'a positive integer as a string', example: '81189' };
export const OPENLIBRARY_ID: ExternalIdKey = { pattern: /^OL\d{1,12}[WM]$/, format: '`OL` + digits + `W` or `M`', example: 'OL59863W' };
export const GOODREADS_ID: ExternalIdKey = { pattern: /^\d{1,12}$/, format: 'digits', example: '17934530' };
export const ISBN13_ID: ExternalIdKey = {
  pattern: /^97[89]\d{10}$/,
  format: '13 digits, derived from `isbn` (read-only)',
  example: '9780441478125',
  derive: (own) => (typeof own['isbn'] === 'string' ? isbn13Of(own['isbn']) : null),
};

/** `key:value` — the stored, uniquely indexed form of one pair; a key never contains `:`. */
export const externalKey = (key: string, value: string): string => `${key}:${value}`;

/** The pairs of `ids` as uniquely indexed strings, in key order. */
export const externalKeysOf = (ids: Readonly<Record<string, string>>): string[] =>
  Object.keys(ids)
    .sort()
    .map((key) => externalKey(key, ids[key] as string));

/** The keys a client may set: every key of the category but the derived ones. */
export const settableExternalIdKeys = (keys: Readonly<Record<string, ExternalIdKey>>): string[] =>
  Object.keys(keys).filter((key) => !keys[key]?.derive);

/**
 * The entry's external ids after a change: `current`, with `change` applied (a value sets, null removes),
 * then every derived key recomputed from the own fields.
 */
export function resolveExternalIds(
  keys: Readonly<Record<string, ExternalIdKey>>,
  current: Readonly<Record<string, string>>,
  change: Readonly<Record<string, string | null>> | undefined,
  own: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const next: Record<string, string> = {};
  for (const [key, definition] of Object.entries(keys)) {
    const value = definition.derive ? definition.derive(own) : change && key in change ? change[key] : current[key];
    if (typeof value === 'string') next[key] = value;
  }
  return next;
}
