import { startProviderReplay, type ProviderReplay } from '@mt/testing';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asModerator, asUser, newUserId } from '../../../test/identity-headers';

const RACE_TRIALS = Number(process.env['RACE_TRIALS'] ?? 3);

let replay: ProviderReplay;
let h: CatalogHarness;
beforeAll(async () => {
  replay = await startProviderReplay();
  h = await startCatalogHarness({ category: 'movies', providers: { env: replay.env, client: { timeoutMs: 2000, retryBackoffMs: 10 } } });
});
afterAll(async () => {
  await h.close();
  await replay.close();
});
beforeEach(() => replay.reset());

const search = (user: string, query: string) => request(h.app).get(`/api/v1/movies/providers/search?${query}`).set(asUser(user));
const importWork = (user: string, body: object) => request(h.app).post('/api/v1/movies/providers/import').set(asUser(user)).send(body);
const remove = (id: string) => request(h.app).delete(`/api/v1/movies/${id}`).set(asModerator(newUserId()));

describe('provider search (movies)', () => {
  it('refuses a caller without a signed-in user with 401', async () => {
    const res = await request(h.app).get('/api/v1/movies/providers/search?q=alien');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });

  it("finds works at TMDB, with their poster's path on this API, and names the entry that already holds one's id", async () => {
    const user = newUserId();
    const before = await search(user, 'q=alien&year=1979');
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual([
      expect.objectContaining({ provider: 'tmdb', provider_id: '348', title: 'Alien', year: 1979, external_ids: { tmdb: '348' }, existing_id: null, poster_url: expect.stringMatching(/\/w500\/vfrQk5IPloGg1v9Rzbh2Eg3VGyM\.jpg$/), poster: '/api/v1/images/tmdb/w500/vfrQk5IPloGg1v9Rzbh2Eg3VGyM.jpg' }),
    ]);
    const created = await importWork(user, { provider: 'tmdb', provider_id: '348' });
    const after = await search(user, 'q=alien&year=1979');
    expect(after.body.data[0].existing_id).toBe(created.body.id);
    await remove(created.body.id);
  });

  it('answers the same search from the cache: the second makes no upstream call', async () => {
    const user = newUserId();
    expect((await search(user, 'q=alien%C2%B3')).status).toBe(200);
    expect((await search(newUserId(), 'q=alien%C2%B3')).status).toBe(200);
    expect(replay.calls('/search/movie')).toBe(1);
  });

  it('allows 30 searches a minute per user, then 429 with Retry-After, other users unaffected', async () => {
    const user = newUserId();
    for (let i = 0; i < 30; i++) expect((await search(user, 'q=alien')).status).toBe(200);
    const refused = await search(user, 'q=alien');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await search(newUserId(), 'q=alien')).status).toBe(200);
  });

  it('asks the provider nothing for a search over the allowance, cached or not', async () => {
    const user = newUserId();
    for (let i = 0; i < 30; i++) expect((await search(user, 'q=alien')).status).toBe(200);
    const asked = replay.calls('/search/movie');
    for (const query of ['q=alien', 'q=never%20searched%20before']) {
      const refused = await search(user, query);
      expect(refused.status).toBe(429);
      expect(refused.body.data).toBeUndefined();
    }
    expect(replay.calls('/search/movie')).toBe(asked);
  });

  it('refuses an unknown or unconfigured provider with 400 naming the configured ones, and bad queries', async () => {
    for (const query of ['q=alien&provider=imdb', 'q=alien&provider=openlibrary']) {
      const res = await search(newUserId(), query);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ path: 'provider', message: 'must be one of the configured providers: tmdb' }]);
    }
    for (const query of ['', 'q=', 'q=%20!', 'q=alien&year=1500', 'q=alien&page=2']) expect((await search(newUserId(), query)).status).toBe(400);
    expect(replay.calls()).toBe(0);
  });

  it.each([
    ['timeout', 502, 'provider_unavailable'],
    ['server_error', 502, 'provider_unavailable'],
    ['malformed', 502, 'provider_unavailable'],
    ['wrong_shape', 502, 'provider_unavailable'],
  ] as const)('answers a provider %s with %i %s', async (fault, status, code) => {
    replay.fail(fault);
    const res = await search(newUserId(), `q=${fault}alien`);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ status, code });
    expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|api_key|stack/);
  });

  it("answers the provider's repeated 429 with 503 and Retry-After", async () => {
    replay.fail('rate_limited', { times: 2 });
    const res = await search(newUserId(), 'q=refused');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('2');
  });
});

describe('provider import (movies)', () => {
  it("creates the entry with the provider's full metadata and its poster path, then refuses a second import with 409", async () => {
    const user = newUserId();
    const res = await importWork(user, { provider: 'tmdb', provider_id: '348' });
    expect(res.status).toBe(201);
    expect(res.headers['location']).toBe(`/api/v1/movies/${res.body.id}`);
    expect(res.body).toMatchObject({
      title: 'Alien',
      year: 1979,
      description: expect.stringContaining('Nostromo'),
      genres: ['Horror', 'Science Fiction'],
      runtime_minutes: 117,
      director: 'Ridley Scott',
      external_ids: { tmdb: '348', imdb: 'tt0078748' },
      poster_url: `${replay.env['TMDB_IMAGE_URL']}/w500/vfrQk5IPloGg1v9Rzbh2Eg3VGyM.jpg`,
      poster: '/api/v1/images/tmdb/w500/vfrQk5IPloGg1v9Rzbh2Eg3VGyM.jpg',
      created_by: user,
    });
    replay.reset();
    const again = await importWork(newUserId(), { provider: 'tmdb', provider_id: '348' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict', existing_id: res.body.id });
    expect(replay.calls()).toBe(0);
    await remove(res.body.id);
  });

  it('creates one entry of concurrent imports of one work: one 201, the rest 409 naming it', async () => {
    for (let trial = 0; trial < RACE_TRIALS; trial++) {
      const results = await Promise.all(Array.from({ length: 8 }, () => importWork(newUserId(), { provider: 'tmdb', provider_id: '8077' })));
      const statuses = results.map((res) => res.status).sort();
      expect({ trial, statuses }).toEqual({ trial, statuses: [201, 409, 409, 409, 409, 409, 409, 409] });
      const winner = results.find((res) => res.status === 201)!;
      for (const res of results.filter((r) => r.status === 409)) expect(res.body.existing_id).toBe(winner.body.id);
      const lookup = await request(h.app).get('/api/v1/movies?external_id=tmdb:8077');
      expect(lookup.body.total).toBe(1);
      expect((await remove(winner.body.id)).status).toBe(200);
    }
  }, 60_000);

  it('answers an id the provider does not know with 404, a malformed one with 400, and creates nothing', async () => {
    expect((await importWork(newUserId(), { provider: 'tmdb', provider_id: '999999' })).status).toBe(404);
    for (const body of [{ provider: 'tmdb', provider_id: 'abc' }, { provider: 'tmdb' }, { provider: 'tvdb', provider_id: '1' }, { provider: 'tmdb', provider_id: '348', extra: 1 }]) {
      expect((await importWork(newUserId(), body)).status).toBe(400);
    }
    expect((await request(h.app).get('/api/v1/movies?external_id=tmdb:999999')).body.total).toBe(0);
  });

  it('creates nothing when the provider fails mid-import', async () => {
    replay.fail('server_error', { path: '/movie/679' });
    const res = await importWork(newUserId(), { provider: 'tmdb', provider_id: '679' });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('provider_unavailable');
    expect((await request(h.app).get('/api/v1/movies?external_id=tmdb:679')).body.total).toBe(0);
  });
});

describe('refresh (movies)', () => {
  it('lets the creator and moderators refresh, bypassing the cache; others get 403', async () => {
    const creator = newUserId();
    const created = await importWork(creator, { provider: 'tmdb', provider_id: '348' });
    replay.fixtures.movies[0]!.overview = 'A new synopsis.';
    replay.reset();
    const refreshed = await request(h.app).post(`/api/v1/movies/${created.body.id}/refresh`).set(asUser(creator));
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ id: created.body.id, description: 'A new synopsis.', title: 'Alien' });
    expect(replay.calls('/movie/348')).toBe(1);
    expect((await request(h.app).post(`/api/v1/movies/${created.body.id}/refresh`).set(asModerator(newUserId()))).status).toBe(200);
    expect((await request(h.app).post(`/api/v1/movies/${created.body.id}/refresh`).set(asUser(newUserId()))).status).toBe(403);
    await remove(created.body.id);
  });

  it('answers 409 for an entry with no provider id, and 404 for an unknown one', async () => {
    const user = newUserId();
    const typed = await request(h.app).post('/api/v1/movies').set(asUser(user)).send({ title: 'Typed By Hand', year: 2020 });
    const res = await request(h.app).post(`/api/v1/movies/${typed.body.id}/refresh`).set(asUser(user));
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('this entry has no id of a configured provider (tmdb)');
    expect((await request(h.app).post('/api/v1/movies/0123456789abcdef01234567/refresh').set(asUser(user))).status).toBe(404);
  });
});

describe('poster_url on entries', () => {
  it("is settable like any field; poster is this API's path only for an enabled provider's image host", async () => {
    const user = newUserId();
    const tmdbPoster = `${replay.env['TMDB_IMAGE_URL']}/w342/abc.jpg`;
    const own = await request(h.app).post('/api/v1/movies').set(asUser(user)).send({ title: 'Poster Test', poster_url: 'https://example.org/p.jpg' });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ poster_url: 'https://example.org/p.jpg', poster: null });
    const patched = await request(h.app).patch(`/api/v1/movies/${own.body.id}`).set(asUser(user)).send({ poster_url: tmdbPoster });
    expect(patched.body).toMatchObject({ poster_url: tmdbPoster, poster: '/api/v1/images/tmdb/w342/abc.jpg' });
    const cleared = await request(h.app).patch(`/api/v1/movies/${own.body.id}`).set(asUser(user)).send({ poster_url: null });
    expect(cleared.body).toMatchObject({ poster_url: null, poster: null });
    for (const bad of ['ftp://example.org/p.jpg', '/relative.jpg', 'javascript:alert(1)', `https://example.org/${'a'.repeat(2000)}`]) {
      expect((await request(h.app).post('/api/v1/movies').set(asUser(user)).send({ title: 'Bad Poster', poster_url: bad })).status).toBe(400);
    }
  });
});
