import { mongo } from 'mongoose';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { seedEntries } from '../../../test/seed';
import { COLLECTIONS } from '../../data/database';

/** Trials of each race: many short races rather than one long one. */
const TRIALS = 15;

describe('list writes and the account deletion (list-owner document)', () => {
  let h: CatalogHarness;
  let items: string[];
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
    const docs = await seedEntries(h.module, Array.from({ length: 12 }, (_, i) => ({ title: `Owned ${i}`, year: 2000 + i })));
    items = docs.map((doc) => doc._id.toHexString());
  });
  afterAll(() => h.close());

  const add = (user: string, itemId: string) => request(h.app).post('/api/v1/movies/list').set(asUser(user)).send({ item_id: itemId });
  const entriesOf = (user: string) => h.module.connection.db!.collection(COLLECTIONS.listEntries).countDocuments({ user_id: user });
  const ownerOf = (user: string) => h.module.connection.db!.collection(COLLECTIONS.listOwners).findOne({ _id: user as unknown as mongo.ObjectId });

  it('refuses every list write of a deleted user with 401 and stores nothing', async () => {
    const user = newUserId();
    await add(user, items[0]!).expect(201);
    await h.module.userDeletion.eraseUser(user);
    const writes = [
      add(user, items[1]!),
      request(h.app).patch(`/api/v1/movies/list/${items[0]}`).set(asUser(user)).send({ score: 7 }),
      request(h.app).delete(`/api/v1/movies/list/${items[0]}`).set(asUser(user)),
      request(h.app).post('/api/v1/movies/bulk-status').set(asUser(user)).send({ item_ids: [items[0]], status: 'completed' }),
      request(h.app).post('/api/v1/movies/bulk-delete').set(asUser(user)).send({ item_ids: [items[0]] }),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ status: 401, code: 'unauthorized', error: 'the account no longer exists' });
    }
    expect(await entriesOf(user)).toBe(0);
    expect(await ownerOf(user)).toMatchObject({ deleted_at: expect.any(Date) });
  });

  it(`leaves no entry when additions race the deletion (${TRIALS} trials); each addition answers 201 or 401`, async () => {
    const failures: string[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const user = newUserId();
      await add(user, items[0]!).expect(201);
      const adds = items.slice(1).map((itemId, n) => new Promise((resolve) => setTimeout(resolve, n)).then(() => add(user, itemId)));
      const deletion = new Promise((resolve) => setTimeout(resolve, 4)).then(() => h.module.userDeletion.eraseUser(user));
      const [answers] = await Promise.all([Promise.all(adds), deletion]);
      const statuses = answers.map((res) => res.status);
      const left = await entriesOf(user);
      if (left || statuses.some((status) => status !== 201 && status !== 401)) failures.push(`trial ${trial}: ${left} left, answers ${statuses.join(',')}`);
    }
    expect(failures).toEqual([]);
  });

  it('is idempotent: a redelivered deletion keeps the first deleted_at and removes nothing more', async () => {
    const user = newUserId();
    await add(user, items[0]!).expect(201);
    expect(await h.module.userDeletion.eraseUser(user)).toMatchObject({ list_entries_removed: 1 });
    const first = await ownerOf(user);
    expect(await h.module.userDeletion.eraseUser(user)).toMatchObject({ list_entries_removed: 0 });
    expect(await ownerOf(user)).toEqual(first);
  });

  it('serialises concurrent writes of one user: each is numbered once (seq), none is lost', async () => {
    const user = newUserId();
    const answers = await Promise.all(items.slice(0, 8).map((itemId) => add(user, itemId)));
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(201));
    await request(h.app).delete(`/api/v1/movies/list/${items[0]}`).set(asUser(user)).expect(200);
    await request(h.app).delete(`/api/v1/movies/list/${items[0]}`).set(asUser(user)).expect(404); // aborted: not numbered
    expect(await entriesOf(user)).toBe(7);
    expect(await ownerOf(user)).toEqual({ _id: user, seq: 9, deleted_at: null, stats: { total: 7, status: { plan_to_watch: 7 } } });
  });

  it('keeps another user’s list untouched by a deletion', async () => {
    const [leaving, staying] = [newUserId(), newUserId()];
    await add(leaving, items[0]!).expect(201);
    await add(staying, items[0]!).expect(201);
    await h.module.userDeletion.eraseUser(leaving);
    await add(staying, items[1]!).expect(201);
    expect(await entriesOf(staying)).toBe(2);
  });
});
