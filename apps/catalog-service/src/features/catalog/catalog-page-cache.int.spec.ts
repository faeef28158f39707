import request from 'supertest';
import { startInstancePair, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { COLLECTIONS } from '../../data/database';

const TRIALS = Number(process.env['RACE_TRIALS'] ?? 10);

/**
 * Offset pages are cached per catalog version (data/catalog-listing.reader.ts): whatever the timing and
 * whichever instance wrote, a page read after a write has answered shows that write.
 */
describe('catalog pages cached per catalog version (movies)', () => {
  let a: CatalogHarness;
  let b: CatalogHarness;
  let closePair: () => Promise<void>;
  const user = newUserId();
  beforeAll(async () => {
    ({ a, b, close: closePair } = await startInstancePair({ category: 'movies' }));
  });
  afterAll(() => closePair());

  const create = async (title: string, by = user) => {
    const res = await request(a.app).post('/api/v1/movies').set(asUser(by)).send({ title, year: 2000 });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };
  const page = async (harness: CatalogHarness) => {
    const res = await request(harness.app).get('/api/v1/movies?limit=100');
    expect(res.status).toBe(200);
    return res.body as { data: Array<{ id: string; title: string; created_by: string | null }>; total: number };
  };
  const storedTitles = async () => {
    const docs = await a.module.connection.db!.collection(COLLECTIONS.entries).find({}, { projection: { title: 1 } }).toArray();
    return Object.fromEntries(docs.map((doc) => [doc._id.toHexString(), doc['title'] as string]));
  };

  it('serves an unchanged catalog from its cache and a changed one afresh, on every instance', async () => {
    const first = await create('Cached Page One');
    const second = await create('Cached Page Two');
    await page(b);
    // A hand edit of the store does not move the version: the cached page is still served ...
    await a.module.connection.db!.collection(COLLECTIONS.entries).updateOne({ title: 'Cached Page One' }, { $set: { title: 'Edited By Hand' } });
    expect((await page(b)).data.find((entry) => entry.id === first.id)?.title).toBe('Cached Page One');
    // ... until the service writes anything (here on the other instance): then the page is read again.
    expect((await request(a.app).patch(`/api/v1/movies/${second.id}`).set(asUser(user)).send({ title: 'Cached Page Two, Renamed' })).status).toBe(200);
    const titles = Object.fromEntries((await page(b)).data.map((entry) => [entry.id, entry.title]));
    expect(titles[first.id]).toBe('Edited By Hand');
    expect(titles[second.id]).toBe('Cached Page Two, Renamed');
  });

  it('shows entries without their creator on a cached page right after the account is erased', async () => {
    const leaving = newUserId();
    const entry = await create('Left Behind', leaving);
    expect((await page(b)).data.find((row) => row.id === entry.id)?.created_by).toBe(leaving);
    await a.module.userDeletion.eraseUser(leaving);
    expect((await page(b)).data.find((row) => row.id === entry.id)?.created_by).toBeNull();
  });

  it(`shows every answered patch on the next page read while reads race the patches, over ${TRIALS} trials`, async () => {
    const entries = await Promise.all(Array.from({ length: 8 }, (_, i) => create(`Racing Title ${i}`)));
    for (let trial = 0; trial < TRIALS; trial++) {
      const renames = entries.map((entry, i) => ({ id: entry.id, title: `Racing Title ${i} (trial ${trial})` }));
      const patches = renames.map(async (rename, i) => {
        const res = await request((i % 2 ? a : b).app).patch(`/api/v1/movies/${rename.id}`).set(asUser(user)).send({ title: rename.title });
        expect(res.status).toBe(200);
        // Read on the other instance right after the answer, while the other patches are still running.
        const shown = (await page(i % 2 ? b : a)).data.find((row) => row.id === rename.id)?.title;
        expect({ trial, shown }).toEqual({ trial, shown: rename.title });
      });
      await Promise.all([...patches, ...Array.from({ length: 6 }, (_, i) => page(i % 2 ? a : b))]);
      const stored = await storedTitles();
      for (const instance of [a, b]) {
        const shown = Object.fromEntries((await page(instance)).data.map((row) => [row.id, row.title]));
        expect({ trial, shown }).toEqual({ trial, shown: stored });
      }
    }
  }, 120_000);
});
