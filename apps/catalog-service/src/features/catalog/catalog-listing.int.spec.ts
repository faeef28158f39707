import request from 'supertest';
import { getCategory } from '../../domain/categories';
import { searchWords } from '@mt/domain';
import { startCatalogHarness, startInstancePair, type CatalogHarness, type HarnessOptions } from '../../../test/catalog-harness';
import { seedEntries, type SeedInput } from '../../../test/seed';
import { asUser } from '../../../test/identity-headers';
import { catalogSchemas } from './catalog.schemas';
import { SortingStoreProfile } from '../../data/store-profile/store-profile';
import type { EntryDocument } from '../../domain/records/catalog-entry.record';

const schemas = catalogSchemas(getCategory('movies'));
const BASE = Date.UTC(2026, 0, 1);

/** Named titles for the search rows docs/api.md describes, plus fillers with shared timestamps and missing years. */
function dataset(): SeedInput[] {
  const named: SeedInput[] = [
    { title: 'The Matrix', year: 1999, genres: ['Science Fiction', 'Action'] },
    { title: 'The Matrix Reloaded', year: 2003, genres: ['Science Fiction'] },
    { title: 'Matrixology', year: null, genres: ['Documentary'] },
    { title: 'Matrimony', year: 2010, genres: ['Drama'] },
    { title: 'Amélie', year: 2001, genres: ['Comedy', 'Romance'] },
    { title: 'Amelia', year: 2009, genres: ['DRAMA'] },
    { title: "Le Fabuleux Destin d'Amélie Poulain", year: 2001, genres: ['comedy'] },
    { title: "Schindler's List", year: 1993, genres: ['drama'] },
    { title: 'Spider-Man', year: 2002, genres: ['Action'] },
    { title: 'Das Boot', year: 1981, genres: ['War'] },
    { title: 'Die Straße', year: null, genres: ['Drama'] },
    { title: 'THE END', year: 2001, genres: [] },
  ];
  const fillers: SeedInput[] = Array.from({ length: 48 }, (_, i) => ({
    title: `Film ${String.fromCharCode(65 + (i % 26))}${Math.floor(i / 26)} ${i % 3 === 0 ? 'the' : 'part'}`,
    year: i % 5 === 0 ? null : 1990 + (i % 7),
    genres: [['Drama', 'Comedy', 'Action'][i % 3]!],
  }));
  return [...named, ...fillers].map((input, i) => ({
    ...input,
    // Groups of five share created_at, pairs share updated_at: ties must break by id.
    created_at: new Date(BASE + Math.floor(i / 5) * 60_000),
    updated_at: new Date(BASE + 3_600_000 + Math.floor(((i * 7) % 60) / 2) * 1000),
  }));
}

type Order = 'asc' | 'desc';
interface Query {
  q?: string;
  genre?: string;
  year?: number;
  sort?: 'relevance' | 'title' | 'year' | 'created_at' | 'updated_at';
  order?: Order;
}

/** The order docs/api.md promises, computed independently over the seeded documents. */
function expectedIds(docs: EntryDocument[], query: Query): string[] {
  const words = query.q === undefined ? [] : searchWords(query.q);
  const matches = docs.filter(
    (doc) =>
      words.every((word) => doc.title_words.some((titleWord) => titleWord.startsWith(word))) &&
      (query.genre === undefined || doc.genres.some((genre) => genre.toLowerCase() === query.genre!.toLowerCase())) &&
      (query.year === undefined || doc.year === query.year),
  );
  const sort = query.sort ?? (words.length ? 'relevance' : 'title');
  const order = query.order ?? (sort === 'title' ? 'asc' : 'desc');
  const sign = order === 'asc' ? 1 : -1;
  const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  const id = (doc: EntryDocument) => doc._id.toHexString();
  const byKey = (key: (doc: EntryDocument) => string | number | null) => (a: EntryDocument, b: EntryDocument) => {
    const x = key(a);
    const y = key(b);
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1; // nulls last in both orders
    } else if (x !== y) return sign * cmp(x, y);
    return sign * cmp(id(a), id(b));
  };
  const comparators = {
    title: byKey((doc) => doc.title_key),
    year: byKey((doc) => doc.year),
    created_at: byKey((doc) => doc.created_at.getTime()),
    updated_at: byKey((doc) => doc.updated_at.getTime()),
    relevance: (a: EntryDocument, b: EntryDocument) => {
      const tier = (doc: EntryDocument) => (words.every((word) => doc.title_words.includes(word)) ? 0 : 1);
      const byTier = tier(a) - tier(b) || cmp(a.title_key, b.title_key) || cmp(id(a), id(b));
      return order === 'desc' ? byTier : -byTier;
    },
  };
  return matches.sort(comparators[sort]).map(id);
}

const queryString = (query: Query & { page?: number; limit?: number }) =>
  new URLSearchParams(
    Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();

const MODES: Array<[string, HarnessOptions['sortHints']]> = [
  ['plain queries', undefined],
  // The sorting store profile, whichever profile the server would get.
  // No size threshold, and bounds aimed too low on purpose: bounded queries, too-tight bounds and
  // widening all happen (the sample holds every entry, so this is deterministic).
  ['range-hinted queries', { minEntries: 0, sampleSize: 100, refreshIntervalMs: 3_600_000, rankFactor: 0.5, rankPadding: 0 }],
];

describe.each(MODES)('catalog listing with %s', (_mode, sortHints) => {
  let h: CatalogHarness;
  let docs: EntryDocument[];
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies', sortHints, ...(sortHints && { storeProfile: 'sorting' }) });
    docs = await seedEntries(h.module, dataset());
    await catalogHints()?.refresh();
  });
  afterAll(() => h.close());

  const catalogHints = () => (h.module.storeProfile.current instanceof SortingStoreProfile ? h.module.storeProfile.current.catalogHints : undefined);

  const list = (query: Query & { page?: number; limit?: number }) => request(h.app).get(`/api/v1/movies?${queryString(query)}`);

  /** Walks every page (limit 9) to one past the last and checks ids, totals and the page object. */
  async function expectListing(query: Query): Promise<void> {
    const expected = expectedIds(docs, query);
    const limit = 9;
    const totalPages = Math.ceil(expected.length / limit);
    const seen: string[] = [];
    for (let page = 1; page <= totalPages + 1; page++) {
      const res = await list({ ...query, page, limit });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ page, limit, total: expected.length, total_pages: totalPages });
      if (page > totalPages) expect(res.body.data).toEqual([]);
      seen.push(...res.body.data.map((entry: { id: string }) => entry.id));
    }
    expect(seen).toEqual(expected);
    expect(await walkByCursor(query, limit)).toEqual(expected);
  }

  /** Walks the same listing with cursors: same order, exact total on every page, null cursor at the end. */
  async function walkByCursor(query: Query, limit: number): Promise<string[]> {
    const expected = expectedIds(docs, query);
    const seen: string[] = [];
    let cursor: string | null = 'start';
    for (let pages = 0; cursor !== null; pages++) {
      expect(pages).toBeLessThanOrEqual(Math.ceil(expected.length / limit));
      const res = await request(h.app).get(`/api/v1/movies?${queryString({ ...query, limit })}&cursor=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ limit, total: expected.length, page: pages + 1 });
      seen.push(...res.body.data.map((entry: { id: string }) => entry.id));
      cursor = res.body.next_cursor;
    }
    return seen;
  }

  const filters: Array<[string, Query]> = [
    ['no filter', {}],
    ['genre drama', { genre: 'drama' }],
    ['year 2001', { year: 2001 }],
    ['q "the"', { q: 'the' }],
    ['q "f" and genre comedy', { q: 'f', genre: 'Comedy' }],
  ];
  const sorts = ['title', 'year', 'created_at', 'updated_at'] as const;
  const orders: Array<Order | undefined> = [undefined, 'asc', 'desc'];

  it.each(filters)('orders every sort in both directions (nulls last, ties by id) with %s', async (_name, filter) => {
    for (const sort of sorts) {
      for (const order of orders) await expectListing({ ...filter, sort, order });
    }
    // Fifteen listings, each walking every page: allow for a loaded machine.
  }, 90_000);

  it.each([['mat'], ['matrix'], ['the matr'], ['amel'], ['film the'], ['F']])('orders q=%s by relevance in both directions', async (q) => {
    await expectListing({ q });
    await expectListing({ q, sort: 'relevance', order: 'asc' });
  });

  it('pages by cursor from the second offset page on, for every sort (a client may switch after any offset page)', async () => {
    for (const query of [{ sort: 'year' as const }, { q: 'the' }, { q: 'f', sort: 'relevance' as const, order: 'asc' as const }, { sort: 'updated_at' as const, order: 'asc' as const }]) {
      const expected = expectedIds(docs, query);
      const first = await list({ ...query, page: 1, limit: 7 });
      expect(first.body.next_cursor).toEqual(expect.any(String));
      const seen = first.body.data.map((entry: { id: string }) => entry.id);
      let cursor: string | null = first.body.next_cursor;
      while (cursor !== null) {
        const res = await request(h.app).get(`/api/v1/movies?${queryString({ ...query, limit: 7 })}&cursor=${encodeURIComponent(cursor)}`);
        expect(res.status).toBe(200);
        seen.push(...res.body.data.map((entry: { id: string }) => entry.id));
        cursor = res.body.next_cursor;
      }
      expect(seen).toEqual(expected);
    }
  });

  it('actually narrows queries by range (and widens too-tight ranges) when hints are on', async () => {
    const hints = catalogHints();
    const bounds = hints && jest.spyOn(hints, 'bound');
    const segments = jest.spyOn(h.module.catalogListing, 'findSegment');
    for (const sort of sorts) for (const order of orders) await expectListing({ sort, order });
    const bounded = bounds?.mock.results.filter((result: { value: unknown }) => result.value !== undefined).length ?? 0;
    if (sortHints) {
      expect(bounded).toBeGreaterThan(0);
      // More bounds than segment reads: some bound proved too tight and was widened.
      expect(bounds?.mock.calls.length).toBeGreaterThan(segments.mock.calls.length);
    } else {
      expect(bounded).toBe(0);
    }
    bounds?.mockRestore();
    segments.mockRestore();
  });

  it('reads page rows without the search keys, by offset and by cursor', async () => {
    const find = jest.spyOn(h.module.catalogListing, 'findSegment');
    const after = jest.spyOn(h.module.catalogListing, 'findAfter');
    expect((await list({ q: 'matr', limit: 2 })).status).toBe(200);
    expect((await request(h.app).get('/api/v1/movies?sort=year&limit=2&cursor=start')).status).toBe(200);
    const rows = (await Promise.all([...find.mock.results, ...after.mock.results].map((result) => result.value as Promise<object[]>))).flat();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(Object.keys(row)).toEqual(expect.arrayContaining(['title', 'title_key', 'year_missing', 'updated_at']));
      for (const key of ['title_words', 'title_prefixes', 'person_prefixes', 'genre_keys', 'external_keys']) expect(row).not.toHaveProperty(key);
    }
    find.mockRestore();
    after.mockRestore();
  });

  it('responds with schema-valid pages', async () => {
    const res = await list({ limit: 100 });
    expect(() => schemas.EntryPage.parse(res.body)).not.toThrow();
    expect(res.body.data).toHaveLength(60);
  });
});

describe('catalog search and pagination', () => {
  let h: CatalogHarness;
  let docs: EntryDocument[];
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
    docs = await seedEntries(h.module, dataset());
  });
  afterAll(() => h.close());

  const titles = async (query: string) => {
    const res = await request(h.app).get(`/api/v1/movies?${query}`);
    expect(res.status).toBe(200);
    return res.body.data.map((entry: { title: string }) => entry.title);
  };

  it('finds "Amélie" by the prefix "amel", case- and accent-insensitively', async () => {
    expect(await titles('q=amel&sort=title')).toEqual(['Amelia', 'Amélie', "Le Fabuleux Destin d'Amélie Poulain"]);
    expect(await titles(`q=${encodeURIComponent('AMÉL')}&sort=title`)).toEqual(['Amelia', 'Amélie', "Le Fabuleux Destin d'Amélie Poulain"]);
  });

  it('finds "The Matrix" by "matr", and needs every word to match', async () => {
    expect(await titles('q=matr&sort=title')).toEqual(['Matrimony', 'Matrixology', 'The Matrix', 'The Matrix Reloaded']);
    expect(await titles(`q=${encodeURIComponent('the matr')}&sort=title`)).toEqual(['The Matrix', 'The Matrix Reloaded']);
    expect(await titles(`q=${encodeURIComponent('matrix reload')}`)).toEqual(['The Matrix Reloaded']);
    expect(await titles(`q=${encodeURIComponent('matrix zzz')}`)).toEqual([]);
  });

  it('matches word prefixes only, not the middle of words', async () => {
    expect(await titles('q=atrix')).toEqual([]);
    expect(await titles('q=oot')).toEqual([]);
  });

  it('ranks whole-word matches before prefix-only ones, then by title', async () => {
    expect(await titles('q=matrix')).toEqual(['The Matrix', 'The Matrix Reloaded', 'Matrixology']);
  });

  it('splits words at punctuation and also finds words with their apostrophes dropped', async () => {
    expect(await titles('q=spider%20man')).toEqual(['Spider-Man']);
    expect(await titles('q=spider-ma')).toEqual(['Spider-Man']);
    expect(await titles(`q=${encodeURIComponent("schindler's li")}`)).toEqual(["Schindler's List"]);
    expect(await titles('q=schindlers')).toEqual(["Schindler's List"]);
    expect(await titles('q=strasse')).toEqual(['Die Straße']);
  });

  it('filters a genre exactly, ignoring case', async () => {
    const drama = await request(h.app).get('/api/v1/movies?genre=dRaMa&limit=100');
    expect(drama.body.total).toBe(docs.filter((doc) => doc.genres.some((genre) => genre.toLowerCase() === 'drama')).length);
    expect(await titles('genre=science')).toEqual([]);
    expect(await titles(`genre=${encodeURIComponent('science fiction')}`)).toEqual(['The Matrix', 'The Matrix Reloaded']);
  });

  it('gives the last page, then empty pages with the true total', async () => {
    const last = await request(h.app).get('/api/v1/movies?limit=25&page=3');
    expect(last.body).toMatchObject({ page: 3, limit: 25, total: 60, total_pages: 3 });
    expect(last.body.data).toHaveLength(10);
    const past = await request(h.app).get('/api/v1/movies?limit=25&page=4');
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ data: [], page: 4, limit: 25, total: 60, total_pages: 3, next_cursor: null });
    const far = await request(h.app).get('/api/v1/movies?page=1000000000');
    expect(far.body).toEqual({ data: [], page: 1000000000, limit: 20, total: 60, total_pages: 3, next_cursor: null });
  });

  it('reports total_pages 0 when nothing matches', async () => {
    const none = await request(h.app).get('/api/v1/movies?q=zzzz');
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ data: [], page: 1, limit: 20, total: 0, total_pages: 0, next_cursor: null });
  });

  it('defaults to page 1, limit 20, title ascending', async () => {
    const res = await request(h.app).get('/api/v1/movies');
    expect(res.body).toMatchObject({ page: 1, limit: 20, total: 60, total_pages: 3 });
    expect(res.body.data.map((e: { id: string }) => e.id)).toEqual(expectedIds(docs, { sort: 'title', order: 'asc' }).slice(0, 20));
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['page=1e3', 'page'],
    ['page=1000000001', 'page'],
    ['page=1&page=2', 'page'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=', 'limit'],
    ['sort=rating', 'sort'],
    ['sort=relevance', 'sort'],
    ['order=up', 'order'],
    ['year=1869', 'year'],
    ['year=2101', 'year'],
    ['year=nineteen', 'year'],
    ['q=', 'q'],
    [`q=${'a'.repeat(201)}`, 'q'],
    ['q=%21%3F%21', 'q'],
    ['genre=', 'genre'],
    [`genre=${'g'.repeat(51)}`, 'genre'],
    ['search=matrix', 'search'],
  ])('rejects %s with 400 naming %s (never clamped)', async (query, path) => {
    const res = await request(h.app).get(`/api/v1/movies?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('rejects unknown query parameters on single-entry reads too', async () => {
    const res = await request(h.app).get(`/api/v1/movies/${docs[0]!._id.toHexString()}?expand=1`);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ path: 'expand', message: 'unknown query parameter' }]);
  });
});

describe('catalog totals with two instances on one database', () => {
  let a: CatalogHarness;
  let b: CatalogHarness;
  let closePair: () => Promise<void>;
  beforeAll(async () => {
    ({ a, b, close: closePair } = await startInstancePair({ category: 'movies' }));
  });
  afterAll(() => closePair());

  it('never serves a total counted before another instance changed the catalog', async () => {
    const user = '0'.repeat(24);
    const search = async (app: CatalogHarness['app'], query: string) => (await request(app).get(`/api/v1/movies?${query}`)).body.total;
    expect(await search(a.app, 'q=zebra')).toBe(0);
    expect(await search(a.app, 'genre=noir')).toBe(0);
    const created = await request(b.app).post('/api/v1/movies').set(asUser(user)).send({ title: 'Zebra Crossing', genres: ['Noir'] });
    expect(await search(a.app, 'q=zebra')).toBe(1);
    expect(await search(a.app, 'genre=noir')).toBe(1);
    expect(await search(a.app, '')).toBe(1);
    await request(b.app).patch(`/api/v1/movies/${created.body.id}`).set(asUser(user)).send({ title: 'Horse Crossing', genres: [] });
    expect(await search(a.app, 'q=zebra')).toBe(0);
    expect(await search(a.app, 'genre=noir')).toBe(0);
    expect(await search(a.app, 'q=horse')).toBe(1);
  });
});
