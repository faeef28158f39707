import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { COLLECTIONS } from '../../data/database';

describe('list additions under concurrency (movies)', () => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
  });
  afterAll(() => h.close());

  it('answers 40 concurrent adds of one item with one 201 and 39 409s, over 5 rounds', async () => {
    for (let round = 0; round < 5; round++) {
      const user = newUserId();
      const item = await request(h.app)
        .post('/api/v1/movies')
        .set(asUser(user))
        .send({ title: `Listed Once ${round}` })
        .expect(201);
      const results = await Promise.all(
        Array.from({ length: 40 }, () =>
          request(h.app).post('/api/v1/movies/list').set(asUser(user)).send({ item_id: item.body.id }),
        ),
      );
      const statuses = results.map((res) => res.status).sort();
      // Before: deadlocks between the racing inserts answered 500 (16 of 40 in one round, after 16 s).
      expect({ round, statuses }).toEqual({ round, statuses: [201, ...Array(39).fill(409)] });
      for (const res of results.filter((r) => r.status === 409))
        expect(res.body).toMatchObject({ status: 409, code: 'conflict' });
      const stored = await h.module.connection
        .db!.collection(COLLECTIONS.listEntries)
        .countDocuments({ user_id: user });
      expect(stored).toBe(1);
    }
  }, 120_000);
});
