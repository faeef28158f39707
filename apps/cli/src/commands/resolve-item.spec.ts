import { ApiError, type CatalogEntry, type ProviderHit } from '@mt/api-client';
import type { Session } from '../session';
import { parseWorkReference, resolveItem, type ItemLookupApi } from './resolve-item';

const entry = (id: string, title: string, year: number | null) => ({ id, title, year, genres: [] }) as unknown as CatalogEntry;
const hit = (provider_id: string, title: string, year: number | null, existing_id: string | null = null): ProviderHit =>
  ({ provider: 'tmdb', provider_id, title, year, overview: null, poster_url: null, poster: null, external_ids: { tmdb: provider_id }, existing_id });

/** An API answering searches from fixed results and recording what was created or imported. */
function fakeApi({ catalog = [], providers = [] as ProviderHit[] | ApiError }: { catalog?: CatalogEntry[]; providers?: ProviderHit[] | ApiError }) {
  const calls = { created: [] as unknown[], imported: [] as unknown[] };
  const api = {
    searchEntries: async (_category: string, query: { year?: number }) => ({ data: catalog.filter((e) => query.year === undefined || e.year === query.year) }),
    searchProviders: async () => {
      if (providers instanceof ApiError) throw providers;
      return { data: providers };
    },
    createEntry: async (_category: string, body: { title: string }) => {
      calls.created.push(body);
      return entry('new-entry', body.title, null);
    },
    importFromProvider: async (_category: string, body: { provider_id: string }) => {
      calls.imported.push(body);
      return entry('imported-entry', 'Alien', 1979);
    },
  } as unknown as ItemLookupApi;
  return { api, calls };
}

const notices: string[] = [];
const session = { output: { notice: (line: string) => notices.push(line) } } as unknown as Session;

describe('resolveItem (mt add --title)', () => {
  it('finds the one catalog entry of a title given without a year instead of creating a second one', async () => {
    const { api, calls } = fakeApi({ catalog: [entry('alien-1979', 'Alien', 1979)] });
    expect(await resolveItem(session, api, 'movies', { title: 'alien' })).toBe('alien-1979');
    expect(calls.created).toEqual([]);
  });

  it('refuses to guess between several catalog entries of one title, naming them', async () => {
    const { api, calls } = fakeApi({ catalog: [entry('a1', 'Alien', 1979), entry('a2', 'Alien', 2030)] });
    await expect(resolveItem(session, api, 'movies', { title: 'Alien' })).rejects.toThrow(/several movies entries are titled "Alien": "Alien" \(1979\) a1; "Alien" \(2030\) a2/);
    expect(await resolveItem(session, api, 'movies', { title: 'Alien', year: 2030 })).toBe('a2');
    expect(calls.created).toEqual([]);
  });

  it("imports the providers' one work of that title when the catalog has none, or uses the entry that holds it", async () => {
    const fresh = fakeApi({ providers: [hit('348', 'Alien', 1979), hit('8077', 'Alien³', 1992)] });
    expect(await resolveItem(session, fresh.api, 'movies', { title: 'Alien' })).toBe('imported-entry');
    expect(fresh.calls.imported).toEqual([{ provider: 'tmdb', provider_id: '348' }]);
    const held = fakeApi({ providers: [hit('348', 'Alien', 1979, 'held-entry')] });
    expect(await resolveItem(session, held.api, 'movies', { title: 'Alien' })).toBe('held-entry');
    expect(held.calls.imported).toEqual([]);
  });

  it('creates the entry from the title alone when no provider serves the category or the providers fail', async () => {
    for (const failure of [new ApiError({ status: 400, code: 'validation_failed', message: 'no provider' }), new ApiError({ status: 502, code: 'provider_unavailable', message: 'down' })]) {
      const { api, calls } = fakeApi({ providers: failure });
      expect(await resolveItem(session, api, 'movies', { title: 'Typed By Hand' })).toBe('new-entry');
      expect(calls.created).toEqual([{ title: 'Typed By Hand', year: null }]);
    }
  });
});

describe('parseWorkReference (mt add --from)', () => {
  it('reads provider:id and refuses anything else', () => {
    expect(parseWorkReference('tmdb:603')).toEqual({ provider: 'tmdb', providerId: '603' });
    expect(parseWorkReference('openlibrary:OL893415W')).toEqual({ provider: 'openlibrary', providerId: 'OL893415W' });
    for (const bad of ['603', 'tmdb:', ':603', 'TMDB 603']) expect(() => parseWorkReference(bad)).toThrow(/not a provider work/);
  });
});
