import { mongo } from 'mongoose';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asModerator, asUser, newUserId } from '../../../test/identity-headers';
import { COLLECTIONS } from '../../data/database';

/** Trials of the race below: a few in `npm test`, many with RACE_TRIALS (npm run race). */
const RACE_TRIALS = Number(process.env['RACE_TRIALS'] ?? 3);

type Change = { item_id: string; type: string; entry?: Record<string, unknown> };

describe('moderator merge', () => {
  let h: CatalogHarness;
  const creator = newUserId();
  const moderator = newUserId();
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
  });
  afterAll(() => h.close());

  const create = async (body: object) => {
    const res = await request(h.app).post('/api/v1/movies').set(asUser(creator)).send(body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const merge = (id: string, into: unknown, headers = asModerator(moderator)) => request(h.app).post(`/api/v1/movies/${id}/merge`).set(headers).send({ into });
  const add = (user: string, id: string, body: object = {}) => request(h.app).post('/api/v1/movies/list').set(asUser(user)).send({ item_id: id, ...body });
  const patchOnList = (user: string, id: string, body: object) => request(h.app).patch(`/api/v1/movies/list/${id}`).set(asUser(user)).send(body);
  const listOf = async (user: string) => {
    const res = await request(h.app).get('/api/v1/movies/list').query({ limit: 100 }).set(asUser(user));
    expect(res.status).toBe(200);
    return res.body.data as Array<{ item_id: string; score: number | null; status: string }>;
  };
  const changesOf = async (user: string) => {
    const res = await request(h.app).get('/api/v1/movies/list/changes').query({ limit: 100 }).set(asUser(user));
    expect(res.status).toBe(200);
    return res.body.changes as Change[];
  };
  const pointingAt = (id: string) => h.module.connection.db!.collection(COLLECTIONS.listEntries).countDocuments({ item_id: new mongo.ObjectId(id) });

  it('moves list entries to the survivor, keeps the one updated last for a user holding both, and combines external ids', async () => {
    const from = await create({ title: 'Merge Duplicate', year: 2001, external_ids: { imdb: 'tt1000001' } });
    const into = await create({ title: 'Merge Original', year: 2001, external_ids: { tmdb: '5001' } });
    const [onlyFrom, fromNewer, intoNewer] = [newUserId(), newUserId(), newUserId()];
    expect((await add(onlyFrom, from, { status: 'watching', progress: 30 })).status).toBe(201);
    expect((await add(fromNewer, into, { score: 4 })).status).toBe(201);
    expect((await add(fromNewer, from, { score: 9 })).status).toBe(201);
    expect((await add(intoNewer, from, { score: 2 })).status).toBe(201);
    expect((await add(intoNewer, into, { score: 8 })).status).toBe(201);

    const res = await merge(from, into);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: into, title: 'Merge Original', external_ids: { imdb: 'tt1000001', tmdb: '5001' } });

    expect(await listOf(onlyFrom)).toEqual([expect.objectContaining({ item_id: into, status: 'watching', progress: 30 })]);
    expect(await listOf(fromNewer)).toEqual([expect.objectContaining({ item_id: into, score: 9 })]);
    expect(await listOf(intoNewer)).toEqual([expect.objectContaining({ item_id: into, score: 8 })]);
    for (const user of [onlyFrom, fromNewer, intoNewer]) {
      expect((await request(h.app).get('/api/v1/movies/list/stats').set(asUser(user))).body.total).toBe(1);
      // The feed replays to the list: the merged id deleted, the survivor's entry as it is now.
      const changes = await changesOf(user);
      expect(changes).toContainEqual(expect.objectContaining({ item_id: from, type: 'delete' }));
      expect(changes).toContainEqual(expect.objectContaining({ item_id: into, type: 'upsert' }));
    }
    expect(await pointingAt(from)).toBe(0);
    // Lookup by either external id finds the survivor.
    const byImdb = await request(h.app).get('/api/v1/movies').query({ external_id: 'imdb:tt1000001' });
    expect(byImdb.body.data.map((entry: { id: string }) => entry.id)).toEqual([into]);
  });

  it('answers GET of the merged id with 301 to the survivor; PATCH, DELETE, merge and list additions of it are 404', async () => {
    const from = await create({ title: 'Redirected Duplicate' });
    const into = await create({ title: 'Redirect Target' });
    expect((await merge(from, into)).status).toBe(200);

    const moved = await request(h.app).get(`/api/v1/movies/${from}`);
    expect(moved.status).toBe(301);
    expect(moved.headers['location']).toBe(`/api/v1/movies/${into}`);
    expect((await request(h.app).patch(`/api/v1/movies/${from}`).set(asModerator(moderator)).send({ year: 2000 })).status).toBe(404);
    expect((await add(newUserId(), from)).status).toBe(404);
    expect((await merge(from, into)).status).toBe(404);
    expect((await merge(into, from)).status).toBe(404);
    expect((await request(h.app).delete(`/api/v1/movies/${from}`).set(asModerator(moderator))).status).toBe(404);

    // Merged onward: one hop to the latest survivor. Removed: the old ids are 404 like it.
    const last = await create({ title: 'Final Survivor' });
    expect((await merge(into, last)).status).toBe(200);
    expect((await request(h.app).get(`/api/v1/movies/${from}`)).headers['location']).toBe(`/api/v1/movies/${last}`);
    expect((await request(h.app).get(`/api/v1/movies/${into}`)).headers['location']).toBe(`/api/v1/movies/${last}`);
    expect((await request(h.app).delete(`/api/v1/movies/${last}`).set(asModerator(moderator))).status).toBe(200);
    expect((await request(h.app).get(`/api/v1/movies/${from}`)).status).toBe(404);
    expect((await request(h.app).get(`/api/v1/movies/${into}`)).status).toBe(404);
  });

  it('refuses conflicting external ids with 409 and changes nothing', async () => {
    const from = await create({ title: 'Conflicting Duplicate', external_ids: { imdb: 'tt2000001' } });
    const into = await create({ title: 'Conflicting Original', external_ids: { imdb: 'tt2000002' } });
    const user = newUserId();
    expect((await add(user, from, { score: 5 })).status).toBe(201);
    const before = await changesOf(user);

    const res = await merge(from, into);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
    expect(res.body.error).toMatch(/imdb/);
    expect((await request(h.app).get(`/api/v1/movies/${from}`)).body.external_ids).toEqual({ imdb: 'tt2000001' });
    expect((await request(h.app).get(`/api/v1/movies/${into}`)).body.external_ids).toEqual({ imdb: 'tt2000002' });
    expect(await listOf(user)).toEqual([expect.objectContaining({ item_id: from, score: 5 })]);
    expect(await changesOf(user)).toEqual(before);
  });

  it('answers 400 for a merge into itself or a malformed body, 404 for unknown ids, 403 without catalog:moderate', async () => {
    const a = await create({ title: 'Merge Validation A' });
    const b = await create({ title: 'Merge Validation B' });
    const self = await merge(a, a);
    expect(self.status).toBe(400);
    expect(self.body.code).toBe('validation_failed');
    expect((await merge(a, 'nope')).status).toBe(400);
    expect((await request(h.app).post(`/api/v1/movies/${a}/merge`).set(asModerator(moderator)).send({ into: b, extra: 1 })).status).toBe(400);
    expect((await merge('f'.repeat(24), b)).status).toBe(404);
    expect((await merge(a, 'f'.repeat(24))).status).toBe(404);
    const forbidden = await merge(a, b, asUser(creator));
    expect(forbidden.status).toBe(403);
    expect((await request(h.app).get(`/api/v1/movies/${a}`)).status).toBe(200);
  });

  it(`leaves every list entry on an existing entry while additions and patches race the merge (${RACE_TRIALS} trials)`, async () => {
    const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (let trial = 0; trial < RACE_TRIALS; trial++) {
      const from = await create({ title: `Raced Merge From ${trial}` });
      const into = await create({ title: `Raced Merge Into ${trial}` });
      const listed = [newUserId(), newUserId()];
      for (const user of listed) expect((await add(user, from, { status: 'watching' })).status).toBe(201);
      const adders = [newUserId(), newUserId(), newUserId()];
      const both = newUserId();
      expect((await add(both, into, { score: 3 })).status).toBe(201);
      const [merged, adds, patches, bothAdd] = await Promise.all([
        delay(Math.random() * 30).then(() => merge(from, into)),
        Promise.all(adders.map((user) => delay(Math.random() * 40).then(() => add(user, from, { score: 6 })))),
        Promise.all(listed.map((user) => delay(Math.random() * 40).then(() => patchOnList(user, from, { progress: 12 })))),
        delay(Math.random() * 40).then(() => add(both, from, { score: 7 })),
      ]);
      expect(merged.status).toBe(200);
      for (const res of [...adds, ...patches, bothAdd]) expect([200, 201, 404]).toContain(res.status);
      expect(await pointingAt(from)).toBe(0);
      // Every acknowledged addition was moved (its feed: the merged id deleted, the survivor upserted); the others were 404.
      for (const [index, user] of adders.entries()) {
        const list = await listOf(user);
        const changes = (await changesOf(user)).filter((change) => change.item_id === from);
        if (adds[index]!.status === 201) {
          expect(list).toEqual([expect.objectContaining({ item_id: into, score: 6 })]);
          expect(changes).toEqual([expect.objectContaining({ type: 'delete' })]);
        } else {
          expect(list).toEqual([]);
          expect(changes).toEqual([]);
        }
      }
      for (const user of listed) expect(await listOf(user)).toEqual([expect.objectContaining({ item_id: into, status: 'watching' })]);
      // The user who had both: one entry, the one updated last (the addition of `from` when it was acknowledged).
      expect(await listOf(both)).toEqual([expect.objectContaining({ item_id: into, score: bothAdd.status === 201 ? 7 : 3 })]);
    }
  }, 60_000 + RACE_TRIALS * 20_000);
});
