import { mongo } from 'mongoose';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asModerator, asUser, newUserId } from '../../../test/identity-headers';
import { COLLECTIONS } from '../../data/database';

/** Trials of the race below: a few in `npm test`, many with RACE_TRIALS (npm run race). */
const RACE_TRIALS = Number(process.env['RACE_TRIALS'] ?? 3);

describe('moderator DELETE', () => {
  let h: CatalogHarness;
  const creator = newUserId();
  const moderator = newUserId();
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
  });
  afterAll(() => h.close());

  const create = async (title: string) => {
    const res = await request(h.app).post('/api/v1/movies').set(asUser(creator)).send({ title });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const remove = (id: string, headers: Record<string, string>) => request(h.app).delete(`/api/v1/movies/${id}`).set(headers);
  const addToList = (user: string, id: string) => request(h.app).post('/api/v1/movies/list').set(asUser(user)).send({ item_id: id, status: 'watching' });
  const patchOnList = (user: string, id: string) => request(h.app).patch(`/api/v1/movies/list/${id}`).set(asUser(user)).send({ progress: 10 });
  const changesOf = async (user: string) => {
    const res = await request(h.app).get('/api/v1/movies/list/changes').query({ limit: 100 }).set(asUser(user));
    expect(res.status).toBe(200);
    return res.body.changes as Array<{ item_id: string; type: string }>;
  };
  const db = () => h.module.connection.db!;

  it('removes the entry and every list entry pointing at it, each removal in its owner\'s change feed', async () => {
    const doomed = await create('Doomed Duplicate');
    const kept = await create('Kept Original');
    const owners = [newUserId(), newUserId(), newUserId()];
    for (const user of owners) expect((await addToList(user, doomed)).status).toBe(201);
    expect((await addToList(owners[0]!, kept)).status).toBe(201);

    const res = await remove(doomed, asModerator(moderator));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'movies entry removed', list_entries_removed: 3 });

    expect((await request(h.app).get(`/api/v1/movies/${doomed}`)).status).toBe(404);
    for (const user of owners) {
      expect((await request(h.app).get(`/api/v1/movies/list/${doomed}`).set(asUser(user))).status).toBe(404);
      expect(await changesOf(user)).toContainEqual(expect.objectContaining({ item_id: doomed, type: 'delete' }));
      expect((await request(h.app).get('/api/v1/movies/list/stats').set(asUser(user))).body.total).toBe(user === owners[0] ? 1 : 0);
    }
    const list = await request(h.app).get('/api/v1/movies/list').set(asUser(owners[0]!));
    expect(list.body.data.map((entry: { item_id: string }) => entry.item_id)).toEqual([kept]);
    // Adding the removed entry now is a 404, like any unknown entry.
    expect((await addToList(owners[1]!, doomed)).status).toBe(404);
  });

  it('answers 403 without catalog:moderate (the creator too) and changes nothing; 404 for an unknown entry; 400 for a malformed id', async () => {
    const id = await create('Not Yours To Delete');
    const user = newUserId();
    expect((await addToList(user, id)).status).toBe(201);
    const forbidden = await remove(id, asUser(creator));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('forbidden');
    expect((await request(h.app).get(`/api/v1/movies/${id}`)).status).toBe(200);
    expect((await request(h.app).get(`/api/v1/movies/list/${id}`).set(asUser(user))).status).toBe(200);

    const unknown = await remove('f'.repeat(24), asModerator(moderator));
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    expect((await remove('not-an-id', asModerator(moderator))).status).toBe(400);
    // A second DELETE of the same entry is a 404.
    expect((await remove(id, asModerator(moderator))).status).toBe(200);
    expect((await remove(id, asModerator(moderator))).status).toBe(404);
  });

  it(`leaves no list entry pointing at a removed entry while additions and patches race the DELETE (${RACE_TRIALS} trials)`, async () => {
    for (let trial = 0; trial < RACE_TRIALS; trial++) {
      const id = await create(`Raced Removal ${trial}`);
      const listed = [newUserId(), newUserId()];
      for (const user of listed) expect((await addToList(user, id)).status).toBe(201);
      const adders = [newUserId(), newUserId(), newUserId(), newUserId()];
      const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const [removal, adds, patches] = await Promise.all([
        delay(Math.random() * 30).then(() => remove(id, asModerator(moderator))),
        Promise.all(adders.map((user) => delay(Math.random() * 40).then(() => addToList(user, id)))),
        Promise.all(listed.map((user) => delay(Math.random() * 40).then(() => patchOnList(user, id)))),
      ]);
      expect(removal.status).toBe(200);
      for (const res of [...adds, ...patches]) expect([200, 201, 404]).toContain(res.status);
      // Nothing points at the removed entry, and the count removed is every list entry that existed at that moment.
      expect(await db().collection(COLLECTIONS.listEntries).countDocuments({ item_id: new mongo.ObjectId(id) })).toBe(0);
      const addedFirst = adds.filter((res) => res.status === 201).length;
      expect(removal.body.list_entries_removed).toBe(listed.length + addedFirst);
      // Every acknowledged addition is gone with a delete record in its owner's feed; the others were refused with 404.
      for (const [index, user] of [...listed, ...adders].entries()) {
        const acknowledged = index < listed.length || adds[index - listed.length]!.status === 201;
        const changes = (await changesOf(user)).filter((change) => change.item_id === id);
        if (acknowledged) expect(changes).toEqual([expect.objectContaining({ type: 'delete' })]);
        else expect(changes).toEqual([]);
      }
    }
  }, 60_000 + RACE_TRIALS * 20_000);
});
