import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { seedEntries } from '../../../test/seed';

/**
 * Feed pages read by windows of sequence numbers (servers that sort every match): compaction leaves gaps
 * (an item rewritten many times keeps only its latest record), so windows must widen across them and the
 * feed must still hold every item exactly once.
 */
describe('change feed read by sequence windows (movies)', () => {
  let h: CatalogHarness;
  const user = newUserId();
  let items: string[];
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies', storeProfile: 'sorting' });
    items = (await seedEntries(h.module, Array.from({ length: 12 }, (_, i) => ({ title: `Window ${i}` })))).map((d) => d._id.toHexString());
    for (const id of items) expect((await request(h.app).post('/api/v1/movies/list').set(asUser(user)).send({ item_id: id })).status).toBe(201);
    // 60 rewrites of the first item: its record moves to the end, leaving a gap of 60 sequence numbers.
    for (let i = 0; i < 60; i++) {
      const res = await request(h.app).patch(`/api/v1/movies/list/${items[0]}`).set(asUser(user)).send({ progress: i });
      expect(res.status).toBe(200);
    }
  }, 120_000);
  afterAll(() => h.close());

  it('walks the whole feed across the gap, each item once, in sequence order, with widened reads', async () => {
    const reads = jest.spyOn(h.module.listFeedReader as unknown as { pageUpTo: (...args: unknown[]) => unknown }, 'pageUpTo');
    const seen: string[] = [];
    let since: string | undefined;
    let pages = 0;
    for (let guard = 0; guard < 20; guard++) {
      const res = await request(h.app).get('/api/v1/movies/list/changes').query({ ...(since ? { since } : {}), limit: 4 }).set(asUser(user));
      expect(res.status).toBe(200);
      pages++;
      seen.push(...res.body.changes.map((c: { item_id: string }) => c.item_id));
      since = res.body.next_since;
      if (!res.body.has_more) break;
    }
    expect(seen).toEqual([...items.slice(1), items[0]]);
    expect(reads.mock.calls.length).toBeGreaterThan(pages);
    reads.mockRestore();
  });
});
