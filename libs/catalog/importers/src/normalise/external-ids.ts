import type { Category, ExternalIdKey, ExternalIds } from '../model';
import { isbn13Of, normaliseIsbn } from './isbn';

/** API.md §8: the keys each category accepts. */
export const EXTERNAL_ID_KEYS: Readonly<Record<Category, readonly ExternalIdKey[]>> = {
  movies: ['imdb', 'tmdb'],
  tvshows: ['imdb', 'tmdb', 'tvdb'],
  books: ['isbn13', 'openlibrary', 'goodreads'],
};

const POSITIVE_INTEGER = /^[1-9]\d{0,15}$/;

/** The stored form of each key's value, or undefined when the value is not one (API.md §8). */
const NORMALISERS: Readonly<Record<ExternalIdKey, (value: string) => string | undefined>> = {
  imdb: (value) => (/^tt\d{7,10}$/i.test(value) ? `tt${value.slice(2)}` : undefined),
  tmdb: (value) => (POSITIVE_INTEGER.test(value) ? value : undefined),
  tvdb: (value) => (POSITIVE_INTEGER.test(value) ? value : undefined),
  isbn13: (value) => {
    const isbn = normaliseIsbn(value);
    return isbn === undefined ? undefined : isbn13Of(isbn);
  },
  openlibrary: (value) => {
    // Open Library also writes its ids as paths: /works/OL45883W, /books/OL7353617M.
    const id = value.replace(/^\/(works|books)\//, '');
    return /^OL\d+[WM]$/.test(id) ? id : undefined;
  },
  goodreads: (value) => (POSITIVE_INTEGER.test(value) ? value : undefined),
};

/** A candidate id as a source gives it: a string, a number (Trakt's tmdb ids), or nothing. */
export type ExternalIdCandidate = string | number | null | undefined;

/**
 * The valid external ids among `candidates` for `category`. An invalid value or a key the category does not
 * have is dropped with a warning: the row can still be matched by title and year, so it does not fail.
 */
export function externalIdsOf(
  category: Category,
  candidates: Partial<Record<string, ExternalIdCandidate>>,
  warnings: string[],
): ExternalIds {
  const ids: ExternalIds = {};
  const allowed = EXTERNAL_ID_KEYS[category];
  for (const [key, candidate] of Object.entries(candidates)) {
    if (candidate === null || candidate === undefined) continue;
    const text = String(candidate).trim();
    if (text === '') continue;
    if (!(allowed as readonly string[]).includes(key)) {
      warnings.push(`external id '${key}' does not exist for ${category} and was dropped`);
      continue;
    }
    const value = NORMALISERS[key as ExternalIdKey](text);
    if (value === undefined)
      warnings.push(`external id ${key} '${text.slice(0, 40)}' is not valid and was dropped`);
    else ids[key as ExternalIdKey] = value;
  }
  return ids;
}
