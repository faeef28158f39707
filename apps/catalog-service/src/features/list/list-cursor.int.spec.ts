import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { seedEntries } from '../../../test/seed';

describe('cursor pages of the list (movies)', () => {
  let h: CatalogHarness;
  const user = newUserId();
  let items: string[];
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
    // Titles that sort differently from the ids, some sharing a title key's neighbourhood.
    items = (await seedEntries(h.module, Array.from({ length: 45 }, (_, i) => ({ title: `Cursor ${String((i * 17) % 45).padStart(2, '0')}` })))).map((d) => d._id.toHexString());
    const statuses = ['watching', 'completed', 'on_hold', 'dropped', 'plan_to_watch'];
    for (const [i, id] of items.entries()) {
      const body = { item_id: id, status: statuses[i % 5], score: i % 4 === 0 ? null : 1 + (i % 3) };
      expect((await request(h.app).post('/api/v1/movies/list').set(asUser(user)).send(body)).status).toBe(201);
    }
  }, 120_000);
  afterAll(() => h.close());

  const get = (query: Record<string, string | number>, who = user) => request(h.app).get('/api/v1/movies/list').query(query).set(asUser(who));

  async function walk(query: Record<string, string | number>, limit: number): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = 'start';
    for (let guard = 0; cursor !== null && guard < 100; guard++) {
      const res = await get({ ...query, cursor, limit });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((e: { item_id: string }) => e.item_id));
      cursor = res.body.next_cursor;
    }
    return seen;
  }

  it.each([
    [{}],
    [{ status: 'completed' }],
    [{ sort: 'created_at', order: 'asc' }],
    [{ sort: 'title' }],
    [{ sort: 'title', order: 'desc', status: 'watching' }],
    [{ sort: 'score' }],
    [{ sort: 'score', order: 'asc' }],
  ] as Array<[Record<string, string>]>)('walks %j in the order of the offset pages, with the same total', async (query) => {
    const all = await get({ ...query, limit: 100 });
    expect(all.status).toBe(200);
    const expected = all.body.data.map((e: { item_id: string }) => e.item_id);
    expect(all.body.total).toBe(expected.length);
    expect(all.body.next_cursor).toBeNull();
    expect(await walk(query, 7)).toEqual(expected);
    const first = await get({ ...query, cursor: '', limit: 7 });
    expect(first.body).toMatchObject({ page: 1, limit: 7, total: expected.length });
  });

  it('continues an offset page with its next_cursor', async () => {
    const offset = await get({ page: 2, limit: 10 });
    const all = (await get({ limit: 100 })).body.data.map((e: { item_id: string }) => e.item_id);
    const next = await get({ cursor: offset.body.next_cursor, limit: 10 });
    expect(next.status).toBe(200);
    expect(next.body.data.map((e: { item_id: string }) => e.item_id)).toEqual(all.slice(20, 30));
    expect(next.body.page).toBe(3);
  });

  it("refuses a cursor of another query, of another user's list, with page, or made up (400)", async () => {
    const { next_cursor } = (await get({ cursor: 'start', limit: 5 })).body;
    const cases: Array<[Record<string, string | number>, string]> = [
      [{ cursor: next_cursor, sort: 'title' }, user],
      [{ cursor: next_cursor, status: 'dropped' }, user],
      [{ cursor: next_cursor }, newUserId()],
      [{ cursor: next_cursor, page: 2 }, user],
      [{ cursor: 'made-up' }, user],
    ];
    for (const [query, who] of cases) {
      const res = await get(query, who);
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'validation_failed' });
    }
  });

  it('shows an entry changed while paging at most once', async () => {
    const first = await get({ cursor: 'start', limit: 10 });
    const shown = first.body.data.map((e: { item_id: string }) => e.item_id);
    // The most recently updated entry moves to the top again, behind the cursor.
    expect((await request(h.app).patch(`/api/v1/movies/list/${shown[0]}`).set(asUser(user)).send({ notes: 'changed' })).status).toBe(200);
    const rest: string[] = [];
    let cursor = first.body.next_cursor;
    while (cursor) {
      const res = await get({ cursor, limit: 10 });
      rest.push(...res.body.data.map((e: { item_id: string }) => e.item_id));
      cursor = res.body.next_cursor;
    }
    const all = [...shown, ...rest];
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(items.length);
  });
});
