import { isApiError, type ApiClient, type CatalogEntry, type ProviderHit } from '@mt/api-client';
import { CliError } from '../errors';
import { EXIT } from '../exit-codes';
import type { Session } from '../session';

/** How `mt add` names the catalog entry: a title (and year), or a provider's work (`tmdb:603`). */
export interface ItemReference {
  title: string;
  year?: number;
}

/** What finding or creating an entry asks of the client; a spec's fake has only these methods. */
export type ItemLookupApi = Pick<ApiClient, 'searchEntries' | 'createEntry' | 'searchProviders' | 'importFromProvider'>;

/** Case, accents and spacing folded the way a person would not tell two titles apart. */
const fold = (text: string): string =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

const labelOf = (title: string, year: number | null | undefined) => `"${title}"${year === null || year === undefined ? '' : ` (${year})`}`;

/**
 * The id of the catalog entry with this title (and year, when given), searching before creating anything:
 * 1. an entry of the catalog with that title — any year when none is given, so "Alien" finds "Alien (1979)"
 *    instead of creating a second one (several candidates: the user picks with --year or the id);
 * 2. a work of the category's metadata providers with that title: the entry that already holds it, else a new
 *    one imported with the provider's metadata;
 * 3. a new entry with the title alone. The server's duplicate rule has the last word: a 409 names the entry used.
 */
export async function resolveItem(session: Session, api: ItemLookupApi, category: string, reference: ItemReference): Promise<string> {
  const label = labelOf(reference.title, reference.year);
  const found = await findInCatalog(api, category, reference);
  if (found) {
    session.output.notice(`Found ${labelOf(found.title, found.year)} in the ${category} catalog: ${found.id}`);
    return found.id;
  }
  const hit = await findAtProviders(session, api, category, reference);
  if (hit) return hit.existing_id ?? importWork(session, api, category, hit.provider, hit.provider_id);
  try {
    const created = await api.createEntry(category, { title: reference.title, year: reference.year ?? null });
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

/** `--from tmdb:603`: the entry of that provider's work, imported when the catalog does not have it yet. */
export async function importWork(session: Session, api: ItemLookupApi, category: string, provider: string, providerId: string): Promise<string> {
  try {
    const created = await api.importFromProvider(category, { provider, provider_id: providerId });
    session.output.notice(`Imported ${labelOf(created.title, created.year)} from ${provider} into the ${category} catalog: ${created.id}`);
    return created.id;
  } catch (error) {
    if (isApiError(error, 'conflict') && error.existingId) {
      session.output.notice(`${provider}:${providerId} is already in the ${category} catalog: ${error.existingId}`);
      return error.existingId;
    }
    throw error;
  }
}

/** `provider:id` as `--from` takes it. */
export function parseWorkReference(text: string): { provider: string; providerId: string } {
  const match = /^([a-z][a-z0-9_-]{0,49}):(\S{1,50})$/.exec(text.trim());
  if (!match) throw new CliError(`not a provider work: ${text} (expected provider:id, e.g. tmdb:603 or openlibrary:OL893415W)`, EXIT.usage);
  return { provider: match[1]!, providerId: match[2]! };
}

async function findInCatalog(api: ItemLookupApi, category: string, { title, year }: ItemReference): Promise<CatalogEntry | undefined> {
  const q = title.trim();
  // A title the search cannot take (over 200 characters) is left to the create and its 409.
  if (!q || q.length > 200) return undefined;
  let page;
  try {
    page = await api.searchEntries(category, { q, ...(year === undefined ? {} : { year }), limit: 100 });
  } catch (error) {
    if (isApiError(error, 'validation_failed')) return undefined;
    throw error;
  }
  const matches = page.data.filter((entry) => fold(entry.title) === fold(title) && (year === undefined || entry.year === year));
  if (matches.length > 1) {
    const choices = matches.map((entry) => `${labelOf(entry.title, entry.year)} ${entry.id}`).join('; ');
    throw new CliError(`several ${category} entries are titled "${title}": ${choices}`, EXIT.usage, 'name one with --year, or give its id');
  }
  return matches[0];
}

/**
 * The providers' work with exactly this title (and year): none when the category has no provider, when the
 * providers fail (then the title alone makes the entry), or when several works share the title without a year.
 */
async function findAtProviders(session: Session, api: ItemLookupApi, category: string, { title, year }: ItemReference): Promise<ProviderHit | undefined> {
  const q = title.trim();
  if (!q || q.length > 200) return undefined;
  let hits: ProviderHit[];
  try {
    hits = (await api.searchProviders(category, { q, ...(year === undefined ? {} : { year }) })).data;
  } catch (error) {
    // No provider for this category (400), an old server without the route (404), a provider down (5xx).
    if (isApiError(error) && (error.status === 400 || error.status === 404 || error.status >= 500)) {
      if (error.status >= 500) session.output.notice(`The metadata providers did not answer (${error.message}); using the title alone.`);
      return undefined;
    }
    throw error;
  }
  const same = hits.filter((hit) => fold(hit.title) === fold(title) && (year === undefined || hit.year === year));
  return same.length === 1 ? same[0] : undefined;
}
