import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { playsClient } from '../../../test/plays-fixtures';

describe('books: pages, progress_percent and reads', () => {
  let h: CatalogHarness;
  let c: ReturnType<typeof playsClient>;
  const creator = newUserId();
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'books' });
    c = playsClient(h, 'books');
  });
  afterAll(() => h.close());

  it('shows progress as a read-only percentage of known pages, following a change of pages', async () => {
    const user = newUserId();
    const id = await c.createItem(creator, { title: 'Percent Book', pages: 300 });
    const added = await request(h.app).post('/api/v1/books/list').set(asUser(user)).send({ item_id: id, status: 'watching', progress: 100 });
    expect(added.body.progress_percent).toBe(33.3);
    expect((await c.patch(user, id, { progress: 450 })).body.progress_percent).toBe(100);
    expect((await c.patch(user, id, { progress_percent: 10 })).status).toBe(400);
    expect((await request(h.app).patch(`/api/v1/books/${id}`).set(asUser(creator)).send({ pages: 900 })).status).toBe(200);
    expect((await c.entry(user, id)).body.progress_percent).toBe(50);
    const list = (await request(h.app).get('/api/v1/books/list').set(asUser(user))).body.data;
    expect(list[0].progress_percent).toBe(50);
  });

  it('leaves progress_percent out when the pages are unknown, and a read completes the book', async () => {
    const user = newUserId();
    const id = await c.createItem(creator, { title: 'Unpaged Book', year: 1969 });
    expect((await c.play(user, id, { watched_at: 'release' })).status).toBe(201);
    const entry = (await c.entry(user, id)).body;
    expect(entry).toMatchObject({ status: 'completed', finished_at: '1969-01-01', started_at: '1969-01-01' });
    expect(entry).not.toHaveProperty('progress_percent');
  });
});
