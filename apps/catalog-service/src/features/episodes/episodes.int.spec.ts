import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asModerator, asUser, newUserId } from '../../../test/identity-headers';
import { toId } from '../../domain/ids';

/** Trials of the race below: a few in `npm test`, many with RACE_TRIALS (npm run race). */
const RACE_TRIALS = Number(process.env['RACE_TRIALS'] ?? 3);

describe('episodes of tvshows', () => {
  let h: CatalogHarness;
  const creator = newUserId();
  const stranger = newUserId();
  const moderator = newUserId();
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'tvshows' });
  });
  afterAll(() => h.close());

  const create = async (title: string, extra: object = {}) => {
    const res = await request(h.app).post('/api/v1/tvshows').set(asUser(creator)).send({ title, ...extra });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const put = (id: string, season: number | string, episodes: unknown, headers = asUser(creator)) =>
    request(h.app).put(`/api/v1/tvshows/${id}/seasons/${season}`).set(headers).send({ episodes });
  const show = async (id: string) => (await request(h.app).get(`/api/v1/tvshows/${id}`)).body as { seasons: number | null; episodes: number | null };
  const numbered = (count: number, extra: object = {}) => Array.from({ length: count }, (_, i) => ({ number: i + 1, ...extra }));

  it('lists a season as written, ordered by season then number, with the show\'s counts following (specials not counted)', async () => {
    const id = await create('Episodic Counts');
    const written = await put(id, 1, [{ number: 2, title: 'Two', air_date: '2020-01-08' }, { number: 1, title: 'One', air_date: '2020-01-01', runtime_minutes: 45, external_ids: { tvdb: '101', imdb: 'tt0000101' } }]);
    expect(written.status).toBe(200);
    expect(written.body.map((e: { number: number }) => e.number)).toEqual([1, 2]);
    expect(written.body[0]).toEqual({ id: expect.any(String), season: 1, number: 1, title: 'One', air_date: '2020-01-01', runtime_minutes: 45, external_ids: { tvdb: '101', imdb: 'tt0000101' } });
    expect((await put(id, 0, numbered(3))).status).toBe(200);
    expect((await put(id, 2, numbered(4))).status).toBe(200);
    expect(await show(id)).toMatchObject({ seasons: 2, episodes: 6 });

    const all = await request(h.app).get(`/api/v1/tvshows/${id}/episodes`).query({ limit: 500 });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 9, page: 1, limit: 500, total_pages: 1 });
    expect(all.body.data.map((e: { season: number; number: number }) => `${e.season}x${e.number}`)).toEqual(['0x1', '0x2', '0x3', '1x1', '1x2', '2x1', '2x2', '2x3', '2x4']);
    const season2 = await request(h.app).get(`/api/v1/tvshows/${id}/episodes`).query({ season: 2, limit: 2, page: 2 });
    expect(season2.body).toMatchObject({ total: 4, total_pages: 2 });
    expect(season2.body.data.map((e: { number: number }) => e.number)).toEqual([3, 4]);

    // An empty list removes the season; the counts follow.
    expect((await put(id, 2, [])).status).toBe(200);
    expect(await show(id)).toMatchObject({ seasons: 1, episodes: 2 });
  });

  it('keeps the ids of numbers that stay, replaces their fields, and drops the numbers not sent', async () => {
    const id = await create('Episodic Ids');
    const first = (await put(id, 1, [{ number: 1, title: 'Pilot', runtime_minutes: 50 }, { number: 2 }, { number: 3 }])).body as Array<{ id: string; number: number }>;
    const second = (await put(id, 1, [{ number: 1, title: 'Pilot (uncut)' }, { number: 3 }, { number: 4 }])).body as Array<{ id: string; number: number; title: string | null; runtime_minutes: number | null }>;
    expect(second.map((e) => e.number)).toEqual([1, 3, 4]);
    expect(second[0]).toMatchObject({ id: first[0]!.id, title: 'Pilot (uncut)', runtime_minutes: null });
    expect(second[1]!.id).toBe(first[2]!.id);
    expect(first.map((e) => e.id)).not.toContain(second[2]!.id);
  });

  it('refuses bad seasons with a 400 that changes nothing', async () => {
    const id = await create('Episodic Validation');
    expect((await put(id, 1, numbered(2))).status).toBe(200);
    const cases: Array<[number | string, unknown]> = [
      [1, [{ number: 1 }, { number: 1 }]],
      [1, [{ number: 0 }]],
      [1, [{ number: 10001 }]],
      [1, numbered(1001)],
      [1, [{ number: 1, air_date: '2020-02-30' }]],
      [1, [{ number: 1, external_ids: { tmdb: 'abc' } }]],
      [1, [{ number: 1, external_ids: { goodreads: '1' } }]],
      [1, [{ number: 1, extra: true }]],
      [-1, [{ number: 1 }]],
      [1001, [{ number: 1 }]],
      ['one', [{ number: 1 }]],
    ];
    for (const [season, episodes] of cases) {
      const res = await put(id, season, episodes);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    expect((await request(h.app).put(`/api/v1/tvshows/${id}/seasons/1`).set(asUser(creator)).send({})).status).toBe(400);
    expect((await request(h.app).get(`/api/v1/tvshows/${id}/episodes`).query({ limit: 501 })).status).toBe(400);
    expect((await request(h.app).get(`/api/v1/tvshows/${id}/episodes`).query({ season: 1, bogus: 1 })).status).toBe(400);
    expect((await request(h.app).get(`/api/v1/tvshows/${id}/episodes`)).body.total).toBe(2);
  });

  it('lets only the creator or a moderator write a season (403), and answers 404 for an unknown show', async () => {
    const id = await create('Episodic Rights');
    const refused = await put(id, 1, numbered(2), asUser(stranger));
    expect(refused.status).toBe(403);
    expect((await request(h.app).get(`/api/v1/tvshows/${id}/episodes`)).body.total).toBe(0);
    expect(await show(id)).toMatchObject({ seasons: null, episodes: null });
    expect((await put(id, 1, numbered(2), asModerator(moderator))).status).toBe(200);
    expect((await put('f'.repeat(24), 1, numbered(2), asModerator(moderator))).status).toBe(404);
    expect((await request(h.app).get(`/api/v1/tvshows/${'f'.repeat(24)}/episodes`)).status).toBe(404);
    expect((await request(h.app).put(`/api/v1/tvshows/${id}/seasons/1`).send({ episodes: [] })).status).toBe(401);
  });

  it('offers the same use case to imports (a provider writes as a moderator) and refuses duplicate numbers there too', async () => {
    const id = await create('Episodic Import');
    const written = await h.module.episodes!.replaceSeason(id, 3, [{ number: 1, title: 'Imported' }], { userId: null, moderator: true });
    expect(written).toEqual([expect.objectContaining({ season: 3, number: 1, title: 'Imported' })]);
    await expect(h.module.episodes!.replaceSeason(id, 3, [{ number: 1 }, { number: 1 }], { userId: null, moderator: true })).rejects.toMatchObject({ status: 400 });
    await expect(h.module.episodes!.replaceSeason(id, 3, [], { userId: stranger, moderator: false })).rejects.toMatchObject({ status: 403 });
  });

  it('moves episodes with a merged show, matched by season and number, the survivor\'s counts following', async () => {
    const from = await create('Episodic Merge Duplicate');
    const into = await create('Episodic Merge Original');
    const fromEpisodes = (await put(from, 1, numbered(3))).body as Array<{ id: string }>;
    expect((await put(from, 2, numbered(2))).status).toBe(200);
    const intoEpisodes = (await put(into, 1, numbered(2))).body as Array<{ id: string }>;
    const merged = await request(h.app).post(`/api/v1/tvshows/${from}/merge`).set(asModerator(moderator)).send({ into });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ seasons: 2, episodes: 5 });
    const episodes = (await request(h.app).get(`/api/v1/tvshows/${into}/episodes`)).body.data as Array<{ id: string; season: number; number: number }>;
    expect(episodes.map((e) => `${e.season}x${e.number}`)).toEqual(['1x1', '1x2', '1x3', '2x1', '2x2']);
    expect(episodes[0]!.id).toBe(intoEpisodes[0]!.id);
    expect(episodes[2]!.id).toBe(fromEpisodes[2]!.id);
  });

  it('removes a show\'s episodes with the show (moderator delete)', async () => {
    const id = await create('Episodic Removed');
    expect((await put(id, 1, numbered(2))).status).toBe(200);
    expect((await request(h.app).delete(`/api/v1/tvshows/${id}`).set(asModerator(moderator))).status).toBe(200);
    expect(await h.module.episodesRepository!.allOf(toId(id))).toEqual([]);
  });

  it('gives concurrent writes of one season one consistent result (one episode per number, counts equal to the episodes)', async () => {
    for (let trial = 0; trial < RACE_TRIALS; trial++) {
      const id = await create(`Episodic Race ${trial}`);
      const results = await Promise.all([put(id, 1, numbered(5)), put(id, 1, numbered(3)), put(id, 1, numbered(8)), put(id, 2, numbered(2))]);
      for (const res of results) expect([200, 503]).toContain(res.status);
      const listed = (await request(h.app).get(`/api/v1/tvshows/${id}/episodes`).query({ limit: 500 })).body.data as Array<{ season: number; number: number }>;
      const keys = listed.map((e) => `${e.season}x${e.number}`);
      expect(new Set(keys).size).toBe(keys.length);
      const counts = await show(id);
      expect(counts.episodes).toBe(listed.filter((e) => e.season > 0).length);
    }
  });

  it('has no episode routes in categories that are not episodic', async () => {
    const movies = await startCatalogHarness({ category: 'movies' });
    try {
      const created = await request(movies.app).post('/api/v1/movies').set(asUser(creator)).send({ title: 'Not Episodic' });
      expect((await request(movies.app).get(`/api/v1/movies/${created.body.id}/episodes`)).status).toBe(404);
      expect((await request(movies.app).put(`/api/v1/movies/${created.body.id}/seasons/1`).set(asUser(creator)).send({ episodes: [] })).status).toBe(404);
    } finally {
      await movies.close();
    }
  });
});
