import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../test/catalog-harness';
import { asUser, newUserId } from '../../test/identity-headers';
import { seedEntries } from '../../test/seed';
import { SortingStoreProfile } from './store-profile/store-profile';

type Query = Record<string, string | number>;

/**
 * Range hints on list pages (servers that sort every match, like the test sandbox): with a tiny threshold
 * and bounds aimed too low on purpose, bounded reads, too-tight bounds and widening all happen, and every
 * page is the one the plain query gives.
 */
describe('list pages narrowed by range hints (movies)', () => {
  let h: CatalogHarness;
  const user = newUserId();
  const ENTRIES = 60;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies', storeProfile: 'sorting', sortHints: { minEntries: 0, sampleSize: 30, refreshIntervalMs: 3_600_000, rankFactor: 0.5, rankPadding: 0 } });
    const items = await seedEntries(h.module, Array.from({ length: ENTRIES }, (_, i) => ({ title: `Hinted ${String((i * 23) % ENTRIES).padStart(2, '0')}` })));
    const statuses = ['watching', 'completed', 'on_hold', 'dropped', 'plan_to_watch'];
    for (const [i, item] of items.entries()) {
      const body = { item_id: item._id.toHexString(), status: statuses[i % 5], score: 1 + (i % 10) };
      expect((await request(h.app).post('/api/v1/movies/list').set(asUser(user)).send(body)).status).toBe(201);
    }
    // The sorting profile, forced: the list reads take the hinted path on any server.
    const profile = h.module.storeProfile.current;
    if (!(profile instanceof SortingStoreProfile)) throw new Error('the sorting store profile was not chosen');
    await profile.listHints.forKey(user, ENTRIES)!.refresh();
  }, 120_000);
  afterAll(() => h.close());

  const get = (query: Query) => request(h.app).get('/api/v1/movies/list').query(query).set(asUser(user));
  const ids = (body: { data: Array<{ item_id: string }> }) => body.data.map((e) => e.item_id);

  /** The oracle: the plain query of the repository, no range. */
  async function plain(query: Query, skip: number, limit: number): Promise<string[]> {
    const sort = (query['sort'] as 'updated_at' | 'created_at' | 'title' | undefined) ?? 'updated_at';
    const order = (query['order'] as string | undefined) ?? (sort === 'title' ? 'asc' : 'desc');
    const rows = await h.module.listRepository.page(user, query['status'] as never, sort, order === 'asc' ? 1 : -1, { skip, limit });
    return rows.map((row) => row.item_id.toHexString());
  }

  const QUERIES: Query[] = [{}, { status: 'completed' }, { order: 'asc' }, { sort: 'created_at', order: 'asc' }, { sort: 'title' }, { sort: 'title', order: 'desc', status: 'watching' }];

  it.each(QUERIES.map((q) => [q]))('serves every offset page of %j as the plain query does', async (query) => {
    for (const [page, limit] of [[1, 7], [2, 7], [5, 7], [1, 100]] as const) {
      const res = await get({ ...query, page, limit });
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual(await plain(query, (page - 1) * limit, limit));
    }
  });

  it.each(QUERIES.map((q) => [q]))('walks %j by cursor in the plain order', async (query) => {
    const seen: string[] = [];
    let cursor: string | null = 'start';
    for (let guard = 0; cursor !== null && guard < 50; guard++) {
      const res = await get({ ...query, cursor, limit: 9 });
      expect(res.status).toBe(200);
      seen.push(...ids(res.body));
      cursor = res.body.next_cursor;
    }
    expect(seen).toEqual(await plain(query, 0, 100));
  });

  it('actually narrows reads by range, and widens a range that proves too tight', async () => {
    const reads = jest.spyOn(h.module.listRepository, 'page');
    for (const query of QUERIES) await get({ ...query, page: 2, limit: 7 });
    const ranged = reads.mock.calls.filter((call) => call[5] !== undefined).length;
    expect(ranged).toBeGreaterThan(0);
    // More reads than requests: some range was too tight and the read ran again wider.
    expect(reads.mock.calls.length).toBeGreaterThan(QUERIES.length);
    reads.mockRestore();
  });

  it('reads the score sort plainly (two keys: no single range bounds it)', async () => {
    const reads = jest.spyOn(h.module.listRepository, 'page');
    const res = await get({ sort: 'score', page: 2, limit: 7 });
    expect(res.status).toBe(200);
    expect(reads.mock.calls.map((call) => call[5])).toEqual([undefined]);
    reads.mockRestore();
  });
});
