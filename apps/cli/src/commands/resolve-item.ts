import { isApiError, type ApiClient, type CatalogEntry } from '@mt/api-client';
import type { Session } from '../session';

/**
 * How `mt add` finds the catalog entry of a title: `{ title, year }` today; an `externalId` strategy
 * (docs/api.md "The catalog of a category": GET /api/v1/{category}?external_id=imdb:tt0111161, then create with `external_ids`) slots in
 * here once the catalog serves it.
 */
export interface ItemReference {
  title: string;
  year?: number;
}

/** Case, accents and spacing folded the way a person would not tell two titles apart. */
const fold = (text: string): string =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The id of the catalog entry with this title and year: an entry the search finds (so a token without
 * catalog:write can add it), else a new one. The server's duplicate rule has the last word: a create
 * answered 409 names the existing entry, which is then used. Either way the user is told which entry it is.
 */
export async function resolveItem(session: Session, api: ApiClient, category: string, reference: ItemReference): Promise<string> {
  const year = reference.year ?? null;
  const label = `"${reference.title}"${year === null ? '' : ` (${year})`}`;
  const found = await findExact(api, category, reference.title, year);
  if (found) {
    session.output.notice(`Found ${label} in the ${category} catalog: ${found.id}`);
    return found.id;
  }
  try {
    const created = await api.createEntry(category, { title: reference.title, year });
    session.output.notice(`Created ${label} in the ${category} catalog: ${created.id}`);
    return created.id;
  } catch (error) {
    if (isApiError(error, 'conflict') && error.existingId) {
      session.output.notice(`${label} is already in the ${category} catalog: ${error.existingId}`);
      return error.existingId;
    }
    throw error;
  }
}

async function findExact(api: ApiClient, category: string, title: string, year: number | null): Promise<CatalogEntry | undefined> {
  const q = title.trim();
  // A title the search cannot take (over 200 characters) is left to the create and its 409.
  if (!q || q.length > 200) return undefined;
  try {
    const page = await api.searchEntries(category, { q, ...(year === null ? {} : { year }), limit: 100 });
    const matches = page.data.filter((entry) => fold(entry.title) === fold(title) && entry.year === year);
    return matches.length === 1 ? matches[0] : undefined;
  } catch (error) {
    if (isApiError(error, 'validation_failed')) return undefined;
    throw error;
  }
}
