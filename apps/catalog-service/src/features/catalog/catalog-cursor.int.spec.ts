import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser } from '../../../test/identity-headers';
import { seedEntries } from '../../../test/seed';
import { changedSinceWalkInQuery } from '../../data/store-profile/changed-since-walk';

const USER = 'a'.repeat(24);
const BASE = Date.UTC(2026, 0, 1);

describe('catalog cursor pages', () => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
    await seedEntries(
      h.module,
      Array.from({ length: 30 }, (_, i) => ({
        title: `Cursor Film ${String(i).padStart(2, '0')}`,
        year: 2000 + (i % 4),
        created_by: USER,
        created_at: new Date(BASE + i * 1000),
        updated_at: new Date(BASE + i * 1000),
      })),
    );
  });
  afterAll(() => h.close());

  const get = (query: string) => request(h.app).get(`/api/v1/movies?${query}`);
  const ids = (res: request.Response) => res.body.data.map((entry: { id: string }) => entry.id);

  it('starts with cursor= or cursor=start and ends with next_cursor null', async () => {
    const empty = await get('cursor=&limit=20');
    const start = await get('cursor=start&limit=20');
    expect(empty.status).toBe(200);
    expect(ids(empty)).toEqual(ids(start));
    expect(empty.body).toMatchObject({ page: 1, limit: 20, total: 30, total_pages: 2, next_cursor: expect.any(String) });
    const second = await get(`cursor=${empty.body.next_cursor}&limit=20`);
    expect(second.body).toMatchObject({ page: 2, total: 30, next_cursor: null });
    expect(second.body.data).toHaveLength(10);
  });

  it('gives next_cursor on offset pages too, and null on the last one', async () => {
    expect((await get('page=1&limit=10')).body.next_cursor).toEqual(expect.any(String));
    expect((await get('page=3&limit=10')).body.next_cursor).toBeNull();
    expect((await get('page=9&limit=10')).body).toMatchObject({ data: [], next_cursor: null });
  });

  it('rejects page and cursor together with 400', async () => {
    const res = await get('page=1&cursor=start');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed' });
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain('cursor');
  });

  it('rejects a cursor used with another filter, sort or order with 400, but lets the page size change', async () => {
    const first = await get('sort=year&order=asc&cursor=start&limit=5');
    const cursor = encodeURIComponent(first.body.next_cursor);
    for (const other of ['sort=year&order=desc', 'sort=title&order=asc', 'sort=year&order=asc&year=2001', 'sort=year&order=asc&q=cursor']) {
      const res = await get(`${other}&cursor=${cursor}`);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ path: 'cursor', message: expect.stringMatching(/another query/) }]);
    }
    expect((await get(`sort=year&order=asc&cursor=${cursor}&limit=7`)).status).toBe(200);
  });

  it('rejects a tampered or made-up cursor with 400 and a clear message', async () => {
    const first = await get('cursor=start&limit=5');
    const cursor: string = first.body.next_cursor;
    const tampered = cursor.slice(0, -2) + (cursor.endsWith('A') ? 'BB' : 'AA');
    for (const bad of [tampered, 'abc', 'not-a-cursor', '%00']) {
      const res = await get(`cursor=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', error: 'invalid cursor' });
    }
  });

  it('accepts a cursor of another instance sharing the secret', async () => {
    const other = await startCatalogHarness({ category: 'movies', dbName: h.dbName });
    try {
      const first = await get('cursor=start&limit=12');
      const second = await request(other.app).get(`/api/v1/movies?cursor=${first.body.next_cursor}&limit=12`);
      expect(second.status).toBe(200);
      expect(second.body.page).toBe(2);
      expect(second.body.data).toHaveLength(12);
    } finally {
      await other.close({ keepDatabase: true });
    }
  });

  it('returns an entry changed while paging at most once (renamed from ahead of the cursor to behind it and back)', async () => {
    const first = await get('sort=title&cursor=start&limit=10');
    const seen: string[] = ids(first);
    // Move an entry already served to the end of the order, and one not yet served to the front.
    const served = first.body.data[0] as { id: string; title: string };
    const ahead = (await get('sort=title&limit=100')).body.data[25] as { id: string; title: string };
    expect((await request(h.app).patch(`/api/v1/movies/${served.id}`).set(asUser(USER)).send({ title: 'Cursor Film zz moved' })).status).toBe(200);
    expect((await request(h.app).patch(`/api/v1/movies/${ahead.id}`).set(asUser(USER)).send({ title: 'Cursor Film 00 moved' })).status).toBe(200);
    let cursor: string | null = first.body.next_cursor;
    while (cursor !== null) {
      const res = await get(`sort=title&limit=10&cursor=${cursor}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(30);
      seen.push(...ids(res));
      cursor = res.body.next_cursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain(served.id);
    expect(seen).not.toContain(ahead.id);
    expect(seen).toHaveLength(29);
  });

  /** Pages through each order after twelve consecutive entries ahead of the cursor changed: none of them is served, every page is full. */
  async function walkPastChangedRun() {
    for (const sort of ['title', 'year', 'created_at']) {
      const first = await get(`sort=${sort}&cursor=start&limit=5`);
      const seen: string[] = ids(first);
      const all = (await get(`sort=${sort}&limit=100`)).body.data as Array<{ id: string }>;
      // Twelve consecutive entries ahead of the cursor change (their notes-free fields stay: only updated_at moves).
      const changed = all.slice(8, 20).map((entry) => entry.id);
      for (const id of changed) expect((await request(h.app).patch(`/api/v1/movies/${id}`).set(asUser(USER)).send({ genres: ['Changed'] })).status).toBe(200);
      let cursor: string | null = first.body.next_cursor;
      const sizes: number[] = [];
      while (cursor !== null) {
        const res = await get(`sort=${sort}&limit=5&cursor=${cursor}`);
        expect(res.status).toBe(200);
        sizes.push(res.body.data.length);
        seen.push(...ids(res));
        cursor = res.body.next_cursor;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.filter((id) => changed.includes(id))).toEqual([]);
      expect(seen).toHaveLength(all.length - changed.length);
      expect(sizes.slice(0, -1).every((size) => size === 5)).toBe(true);
    }
  }

  it('fills each page past a run of entries changed since the walk began (more than a page of them), in every order', async () => {
    await walkPastChangedRun();
  });

  it('does the same with the condition in the query (the path chosen on MongoDB), on this server too', async () => {
    const inQuery = jest.spyOn(h.module.storeProfile, 'changedSinceWalk').mockImplementation((read, query) => changedSinceWalkInQuery(read, query));
    try {
      await walkPastChangedRun();
    } finally {
      inQuery.mockRestore();
    }
  });

  it('filters changed entries in code on a server that sorts every match (DocumentDB), in the query elsewhere, chosen with the other adapters', async () => {
    // The start-up probe's answer, read as the probe's own spec does (on this empty-at-start database it says yes exactly for DocumentDB).
    const info = await h.module.connection.db!.admin().command({ buildInfo: 1 });
    const sorts = ((info['storageEngines'] as string[] | undefined) ?? []).includes('documentdb');
    // Unless STORE_PROFILE forces one (the suite's run with the MongoDB profile).
    const forced = h.config.STORE_PROFILE === 'auto' ? null : h.config.STORE_PROFILE;
    expect(h.module.storeProfile.name).toBe(forced ?? (sorts ? 'sorting' : 'mongodb'));
  });
});
