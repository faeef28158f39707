import { MONGO_MAX_POOL_SIZE } from '@mt/stores';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { COLLECTIONS } from '../../data/database';

/**
 * Racing writes to the shared catalog: whatever the timing, a creation answers 201 or 409, never 500 or
 * a timeout, and the store holds exactly what the answers say.
 */
describe('catalog creations under concurrency (movies)', () => {
  let h: CatalogHarness;
  const user = newUserId();
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
  });
  afterAll(() => h.close());

  const create = (app: CatalogHarness['app'], body: object) =>
    request(app).post('/api/v1/movies').set(asUser(user)).send(body);
  const statusCounts = (statuses: number[]) =>
    statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
  const storedWithTitleKey = (titleKey: string) =>
    h.module.connection.db!.collection(COLLECTIONS.entries).countDocuments({ title_key: titleKey });

  it('answers 50 concurrent identical creations with one 201 and 49 409s naming it, over 20 rounds', async () => {
    for (let round = 0; round < 20; round++) {
      const body = { title: `Identical Twins ${round}`, year: 2001 };
      const results = await Promise.all(Array.from({ length: 50 }, () => create(h.app, body)));
      expect({ round, statuses: statusCounts(results.map((res) => res.status)) }).toEqual({
        round,
        statuses: { 201: 1, 409: 49 },
      });
      const winner = results.find((res) => res.status === 201)!;
      for (const res of results.filter((r) => r.status === 409)) {
        expect(res.body).toMatchObject({ status: 409, code: 'conflict', existing_id: winner.body.id });
      }
      expect(await storedWithTitleKey(`identical twins ${round}`)).toBe(1);
    }
  }, 180_000);

  it('answers more concurrent variants in case and accent than the pool has connections within seconds, while reads keep answering', async () => {
    // Once, 21 such variants and a listing all got 504 after 10 s: blocked inserts held every pooled
    // connection, so the transaction holding the title could not commit.
    const variants = Array.from({ length: MONGO_MAX_POOL_SIZE + 10 }, (_, i) => {
      const letters = [...'Amelie Poulain'].map((c, j) =>
        ((i >> (j % 5)) & 1) === 1 ? c.toUpperCase() : c.toLowerCase(),
      );
      if (i % 2) letters[2] = 'é';
      return letters.join('');
    });
    const startedAt = Date.now();
    const [creations, reads] = await Promise.all([
      Promise.all(variants.map((title) => create(h.app, { title, year: 2001 }))),
      Promise.all(Array.from({ length: 10 }, () => request(h.app).get('/api/v1/movies?q=amelie'))),
    ]);
    const elapsedMs = Date.now() - startedAt;
    expect(statusCounts(creations.map((res) => res.status))).toEqual({ 201: 1, 409: variants.length - 1 });
    expect(reads.map((res) => res.status)).toEqual(Array(10).fill(200));
    expect(elapsedMs).toBeLessThan(10_000);
    expect(await storedWithTitleKey('amelie poulain')).toBe(1);
  });

  it('creates 50 concurrent distinct entries and counts every one in the listing total', async () => {
    const before = (await request(h.app).get('/api/v1/movies')).body.total as number;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => create(h.app, { title: `Distinct Entry ${i}` })),
    );
    expect(statusCounts(results.map((res) => res.status))).toEqual({ 201: 50 });
    expect((await request(h.app).get('/api/v1/movies')).body.total).toBe(before + 50);
  });

  it('answers only 201 and 409 when two instances race identical creations', async () => {
    const second = await startCatalogHarness({ category: 'movies', dbName: h.dbName });
    try {
      for (let round = 0; round < 5; round++) {
        const body = { title: `Two Instances ${round}`, year: 1999 };
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, i) => create(i % 2 ? h.app : second.app, body)),
        );
        expect({ round, statuses: statusCounts(results.map((res) => res.status)) }).toEqual({
          round,
          statuses: { 201: 1, 409: 39 },
        });
        expect(await storedWithTitleKey(`two instances ${round}`)).toBe(1);
      }
    } finally {
      await second.close({ keepDatabase: true });
    }
  }, 120_000);
});
