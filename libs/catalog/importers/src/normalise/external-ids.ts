import { externalIdKeys, isbn13Of, mediaCategory, normaliseIsbn } from '@mt/domain';
import type { Category, ExternalIdName, ExternalIds } from '../model';

/** The external id keys the category accepts, in the order it declares them. */
export const externalIdNames = (category: Category): ExternalIdName[] =>
  Object.keys(externalIdKeys(mediaCategory(category))) as ExternalIdName[];

/**
 * The id as the catalog stores it, from the way sources write it; the result is then held to the key's
 * pattern (@mt/domain), so an import never sends an id the catalog refuses.
 */
const STORED_FORM: Readonly<Partial<Record<ExternalIdName, (value: string) => string | null | undefined>>> = {
  imdb: (value) => value.replace(/^tt/i, 'tt'),
  isbn13: (value) => {
    const isbn = normaliseIsbn(value);
    return isbn === undefined ? undefined : isbn13Of(isbn);
  },
  // Open Library also writes its ids as paths: /works/OL45883W, /books/OL7353617M.
  openlibrary: (value) => value.replace(/^\/(works|books)\//, ''),
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
  const keys = externalIdKeys(mediaCategory(category));
  for (const [key, candidate] of Object.entries(candidates)) {
    if (candidate === null || candidate === undefined) continue;
    const text = String(candidate).trim();
    if (text === '') continue;
    const definition = keys[key];
    if (definition === undefined) {
      warnings.push(`external id '${key}' does not exist for ${category} and was dropped`);
      continue;
    }
    const toStored = STORED_FORM[key as ExternalIdName];
    const value = toStored ? toStored(text) : text;
    if (typeof value !== 'string' || !definition.pattern.test(value))
      warnings.push(`external id ${key} '${text.slice(0, 40)}' is not valid and was dropped`);
    else ids[key as ExternalIdName] = value;
  }
  return ids;
}
