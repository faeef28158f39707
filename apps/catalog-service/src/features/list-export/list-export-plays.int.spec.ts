import { mongo } from 'mongoose';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { seedEntries } from '../../../test/seed';
import { COLLECTIONS } from '../../data/database';
import { downloaded } from '../../../test/imports';

describe('list export of plays (tvshows)', () => {
  let h: CatalogHarness;
  const user = newUserId();
  let show: mongo.ObjectId;
  const base = '/api/v1/tvshows';

  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'tvshows' });
    [show] = (await seedEntries(h.module, [{ title: 'Export, "Plays"', year: 2020 }, { title: 'Unplayed' }])).map((doc) => doc._id);
    expect((await request(h.app).post(`${base}/list`).set(asUser(user)).send({ item_id: show!.toHexString(), status: 'watching' })).status).toBe(201);
    const play = (season: number, number: number, watchedAt: string | null, cycle: number, source: string) => ({
      _id: new mongo.ObjectId(),
      user_id: user,
      item_id: show,
      episode_id: null,
      season,
      number,
      watched_at: watchedAt === null ? null : new Date(watchedAt),
      precision: watchedAt === null ? 'unknown' : 'exact',
      cycle,
      source,
      created_at: new Date(),
      seq: 1,
    });
    // Stored out of order, and one of another user: the export orders them by cycle, then time.
    await h.module.connection.db!.collection(COLLECTIONS.plays).insertMany([
      play(1, 2, '2026-01-02T20:00:00.000Z', 2, 'manual'),
      play(1, 1, '2026-01-01T20:00:00.000Z', 1, 'import:trakt'),
      play(1, 1, null, 2, 'scrobble:plex'),
      { ...play(9, 9, null, 1, 'manual'), user_id: newUserId() },
    ]);
  }, 60_000);
  afterAll(() => h.close());

  it('JSON: each entry has its plays, oldest first by cycle, unknown times first in theirs', async () => {
    const res = await downloaded(request(h.app).get(`${base}/list/export`).set(asUser(user)));
    expect(res.status).toBe(200);
    const [entry] = JSON.parse(res.body as string).entries;
    expect(entry.plays).toEqual([
      { season: 1, number: 1, watched_at: '2026-01-01T20:00:00.000Z', precision: 'exact', cycle: 1, source: 'import:trakt' },
      { season: 1, number: 1, watched_at: null, precision: 'unknown', cycle: 2, source: 'scrobble:plex' },
      { season: 1, number: 2, watched_at: '2026-01-02T20:00:00.000Z', precision: 'exact', cycle: 2, source: 'manual' },
    ]);
  });

  it('CSV rows=plays: one row per play under the documented header, as a download of its own name', async () => {
    const res = await downloaded(request(h.app).get(`${base}/list/export?format=csv&rows=plays`).set(asUser(user)));
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="tvshows-plays-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect((res.body as string).split('\r\n')).toEqual([
      'item_id,title,year,season,number,watched_at,precision,cycle,source',
      `${show.toHexString()},"Export, ""Plays""",2020,1,1,2026-01-01T20:00:00.000Z,exact,1,import:trakt`,
      `${show.toHexString()},"Export, ""Plays""",2020,1,1,,unknown,2,scrobble:plex`,
      `${show.toHexString()},"Export, ""Plays""",2020,1,2,2026-01-02T20:00:00.000Z,exact,2,manual`,
      '',
    ]);
  });

  it('refuses rows=plays without format=csv, and an unknown layout, with 400', async () => {
    for (const query of ['rows=plays', 'format=json&rows=plays', 'format=csv&rows=episodes']) {
      const res = await request(h.app).get(`${base}/list/export?${query}`).set(asUser(user));
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'validation_failed' });
    }
  });
});
