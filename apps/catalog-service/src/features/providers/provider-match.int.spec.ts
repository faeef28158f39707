import { INTERNAL_PATHS } from '@mt/contracts';
import { INTERNAL_SECRET_HEADER } from '@mt/identity';
import { startProviderReplay, type ProviderReplay } from '@mt/testing';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId, TEST_SECRET } from '../../../test/identity-headers';

let replay: ProviderReplay;
beforeAll(async () => {
  replay = await startProviderReplay();
});
afterAll(() => replay.close());
beforeEach(() => replay.reset());

const PROVIDERS = () => ({ env: replay.env, client: { timeoutMs: 2000, retryBackoffMs: 10 } });


/** The scrobble service's call: the internal secret, and the hook owner's signed identity. */
function matchAt(h: CatalogHarness, category: string, user: string | null, body: object, secret = TEST_SECRET) {
  const req = request(h.app).post(INTERNAL_PATHS.providerMatch(category)).set(INTERNAL_SECRET_HEADER, secret);
  return (user ? req.set(asUser(user)) : req).send(body);
}

describe('a played movie the catalog lacks, matched at the providers', () => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies', providers: PROVIDERS() });
  });
  afterAll(() => h.close());

  it("adds the movie named by its TMDB id as created by the user, then answers that entry without adding another", async () => {
    const user = newUserId();
    const first = await matchAt(h, 'movies', user, { title: 'Alien', year: 1979, external_ids: { tmdb: '348' } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ item_id: expect.any(String), created: true });
    const entry = (await request(h.app).get(`/api/v1/movies/${first.body.item_id}`)).body;
    expect(entry).toMatchObject({ title: 'Alien', year: 1979, director: 'Ridley Scott', external_ids: { tmdb: '348', imdb: 'tt0078748' }, created_by: user });
    const again = await matchAt(h, 'movies', newUserId(), { title: 'Alien', year: 1979, external_ids: { imdb: 'tt0078748', tmdb: '348' } });
    expect(again.body).toEqual({ item_id: first.body.item_id, created: false });
    expect((await request(h.app).get('/api/v1/movies?external_id=tmdb:348')).body.data).toHaveLength(1);
  });

  it('finds a movie named only by its IMDb id through the provider', async () => {
    const res = await matchAt(h, 'movies', newUserId(), { title: null, year: null, external_ids: { imdb: 'tt0090605' } });
    expect(res.body.created).toBe(true);
    expect((await request(h.app).get(`/api/v1/movies/${res.body.item_id}`)).body).toMatchObject({ title: 'Aliens', year: 1986 });
    expect(replay.calls('/find/tt0090605')).toBe(1);
  });

  it('finds a movie by its exact title and year, and nothing for a longer title or another year', async () => {
    const found = await matchAt(h, 'movies', newUserId(), { title: 'alien³', year: 1992, external_ids: {} });
    expect((await request(h.app).get(`/api/v1/movies/${found.body.item_id}`)).body).toMatchObject({ title: 'Alien³', external_ids: { tmdb: '8077' } });
    expect((await matchAt(h, 'movies', newUserId(), { title: 'Alien', year: 1986, external_ids: {} })).body).toEqual({ item_id: null, created: false });
    expect((await matchAt(h, 'movies', newUserId(), { title: 'Heat', year: 1995, external_ids: {} })).body).toEqual({ item_id: null, created: false });
    expect((await matchAt(h, 'movies', newUserId(), { title: 'Alien', year: 1979, external_ids: { tmdb: '999999999' } })).body).toEqual({ item_id: null, created: false });
  });

  it('does not guess between two works of the same title', async () => {
    replay.recordMovie(990001, 'Twin Title', '2001-01-01');
    replay.recordMovie(990002, 'Twin Title', '2001-06-01');
    expect((await matchAt(h, 'movies', newUserId(), { title: 'Twin Title', year: 2001, external_ids: {} })).body).toEqual({ item_id: null, created: false });
    expect((await request(h.app).get('/api/v1/movies?q=twin%20title')).body.data).toEqual([]);
  });

  it('answers 502 while the provider fails, having added nothing, and matches once it answers again', async () => {
    replay.recordMovie(990003, 'Outage Film', '2003-01-01');
    replay.fail('server_error', { times: 5, path: '/search/movie' });
    const failed = await matchAt(h, 'movies', newUserId(), { title: 'Outage Film', year: 2003, external_ids: {} });
    expect(failed.status).toBe(502);
    expect(failed.body.code).toBe('provider_unavailable');
    expect((await request(h.app).get('/api/v1/movies?q=outage')).body.data).toEqual([]);
    replay.reset();
    expect((await matchAt(h, 'movies', newUserId(), { title: 'Outage Film', year: 2003, external_ids: {} })).body.created).toBe(true);
  });

  it('of eight concurrent matches of one work, one adds the entry and all answer it', async () => {
    replay.recordMovie(990004, 'Crowded Premiere', '2004-01-01');
    const answers = await Promise.all(Array.from({ length: 8 }, () => matchAt(h, 'movies', newUserId(), { title: 'Crowded Premiere', year: 2004, external_ids: { tmdb: '990004' } })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((answer) => answer.body.item_id)).size).toBe(1);
    expect(answers.filter((answer) => answer.body.created)).toHaveLength(1);
    expect((await request(h.app).get('/api/v1/movies?external_id=tmdb:990004')).body.data).toHaveLength(1);
  });

  it('needs the internal secret and a signed identity, and refuses a malformed work with 400', async () => {
    const work = { title: 'Alien', year: 1979, external_ids: {} };
    expect((await matchAt(h, 'movies', newUserId(), work, 'wrong-secret')).status).toBe(401);
    expect((await matchAt(h, 'movies', null, work)).status).toBe(401);
    const tooManyIds = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`id${i}`, '1']));
    for (const bad of [{ ...work, external_ids: tooManyIds }, { ...work, year: 3000 }, { ...work, title: '' }, { title: 'Alien', external_ids: {} }, { ...work, extra: 1 }]) {
      const res = await matchAt(h, 'movies', newUserId(), bad);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
  });
});

describe('a played show the catalog lacks, matched at the providers', () => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'tvshows', providers: PROVIDERS() });
  });
  afterAll(() => h.close());

  it('adds the show found by its title, with its seasons, so that the played episode exists', async () => {
    const res = await matchAt(h, 'tvshows', newUserId(), { title: 'Severance', year: null, external_ids: { tvdb: '371980' } });
    expect(res.body.created).toBe(true);
    expect((await request(h.app).get(`/api/v1/tvshows/${res.body.item_id}`)).body).toMatchObject({ title: 'Severance', external_ids: { tmdb: '95396', tvdb: '371980' } });
    const lookup = await request(h.app).get(`${INTERNAL_PATHS.episodeLookup('tvshows')}?show_id=${res.body.item_id}&season=1&number=2`).set(INTERNAL_SECRET_HEADER, TEST_SECRET);
    expect(lookup.status).toBe(200);
  });
});

describe('a category without an enabled provider', () => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
  });
  afterAll(() => h.close());

  it('finds nothing, without calling anyone', async () => {
    expect((await matchAt(h, 'movies', newUserId(), { title: 'Alien', year: 1979, external_ids: { tmdb: '348' } })).body).toEqual({ item_id: null, created: false });
    expect(replay.calls()).toBe(0);
  });
});
