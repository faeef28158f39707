import request from 'supertest';
import { mongo } from 'mongoose';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { seedEntries } from '../../../test/seed';
import { COLLECTIONS } from '../../data/database';
import { ListStatsSchema } from './list-stats.schemas';

/** A play document as the plays feature stores it (domain/records/play.record.ts). */
function play(user: string, itemId: mongo.ObjectId, watchedAt: string | null, episode?: { id: mongo.ObjectId | null; season: number; number: number }) {
  return {
    _id: new mongo.ObjectId(),
    user_id: user,
    item_id: itemId,
    episode_id: episode?.id ?? null,
    season: episode?.season ?? null,
    number: episode?.number ?? null,
    watched_at: watchedAt === null ? null : new Date(watchedAt),
    precision: watchedAt === null ? 'unknown' : 'exact',
    cycle: 1,
    source: 'manual',
    created_at: new Date(),
    seq: 1,
  };
}

describe('play statistics', () => {
  describe('movies', () => {
    let h: CatalogHarness;
    beforeAll(async () => {
      h = await startCatalogHarness({ category: 'movies' });
    }, 60_000);
    afterAll(() => h.close());

    it('counts plays by month (unknown times in none) and minutes as runtime × plays, unknown runtimes as 0', async () => {
      const [heat, alien, unknownRuntime] = await seedEntries(h.module, [
        { title: 'Stats Heat', runtime_minutes: 170 },
        { title: 'Stats Alien', runtime_minutes: 117 },
        { title: 'Stats Unknown Runtime' },
      ] as never);
      const user = newUserId();
      const other = newUserId();
      await h.module.connection.db!.collection(COLLECTIONS.plays).insertMany([
        play(user, heat!._id, '2026-10-31T23:59:59.000Z'),
        play(user, heat!._id, '2026-11-01T00:00:00.000Z'),
        play(user, heat!._id, null),
        play(user, alien!._id, '2026-11-20T20:00:00.000Z'),
        play(user, unknownRuntime!._id, '2025-01-05T20:00:00.000Z'),
        play(other, alien!._id, '2026-11-21T20:00:00.000Z'),
      ]);
      const res = await request(h.app).get('/api/v1/movies/list/stats').set(asUser(user));
      expect(res.status).toBe(200);
      expect(() => ListStatsSchema.parse(res.body)).not.toThrow();
      expect(res.body).toMatchObject({
        plays_by_month: { '2025-01': 1, '2026-10': 1, '2026-11': 2 },
        minutes_watched: 3 * 170 + 117,
      });
      expect(Object.keys(res.body.plays_by_month)).toEqual(['2025-01', '2026-10', '2026-11']);
      expect(res.body).not.toHaveProperty('episodes_watched');
    });
  });

  describe('tvshows', () => {
    let h: CatalogHarness;
    beforeAll(async () => {
      h = await startCatalogHarness({ category: 'tvshows' });
    }, 60_000);
    afterAll(() => h.close());

    it('counts episode plays with rewatches and specials, each by its own runtime; a removed episode by none', async () => {
      const [show] = await seedEntries(h.module, [{ title: 'Stats Show' }]);
      const episodes = [
        { _id: new mongo.ObjectId(), show_id: show!._id, season: 1, number: 1, runtime_minutes: 50 },
        { _id: new mongo.ObjectId(), show_id: show!._id, season: 1, number: 2, runtime_minutes: 45 },
        { _id: new mongo.ObjectId(), show_id: show!._id, season: 0, number: 1, runtime_minutes: 30 },
        { _id: new mongo.ObjectId(), show_id: show!._id, season: 1, number: 3, runtime_minutes: null },
      ].map((episode) => ({ title: null, air_date: null, external_ids: {}, ...episode }));
      await h.module.connection.db!.collection(COLLECTIONS.episodes).insertMany(episodes);
      const [e1, e2, special, noRuntime] = episodes.map((e) => ({ id: e._id, season: e.season, number: e.number }));
      const user = newUserId();
      await h.module.connection.db!.collection(COLLECTIONS.plays).insertMany([
        play(user, show!._id, '2026-11-01T20:00:00.000Z', e1),
        play(user, show!._id, '2026-11-02T20:00:00.000Z', e1),
        play(user, show!._id, '2026-12-01T20:00:00.000Z', e2),
        play(user, show!._id, null, special),
        play(user, show!._id, null, noRuntime),
        // An episode removed from the catalog after it was played: still an episode watched, its runtime unknown.
        play(user, show!._id, '2026-12-02T20:00:00.000Z', { id: null, season: 2, number: 1 }),
      ]);
      const res = await request(h.app).get('/api/v1/tvshows/list/stats').set(asUser(user));
      expect(res.status).toBe(200);
      expect(() => ListStatsSchema.parse(res.body)).not.toThrow();
      expect(res.body).toMatchObject({
        plays_by_month: { '2026-11': 2, '2026-12': 2 },
        minutes_watched: 2 * 50 + 45 + 30,
        episodes_watched: 6,
      });
    });

    it('answers zeros for a user without plays', async () => {
      const res = await request(h.app).get('/api/v1/tvshows/list/stats').set(asUser(newUserId()));
      expect(res.body).toMatchObject({ plays_by_month: {}, minutes_watched: 0, episodes_watched: 0 });
    });
  });
});
