import { startProviderReplay, type ProviderReplay } from '@mt/testing';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asModerator, asUser, newUserId } from '../../../test/identity-headers';

let replay: ProviderReplay;
beforeAll(async () => {
  replay = await startProviderReplay();
});
afterAll(() => replay.close());
beforeEach(() => replay.reset());

type Episode = { id: string; season: number; number: number; title: string | null; air_date: string | null; runtime_minutes: number | null; external_ids: Record<string, string> };

describe('provider import and refresh of tvshows', () => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'tvshows', providers: { env: replay.env, client: { timeoutMs: 2000, retryBackoffMs: 10 } } });
  });
  afterAll(() => h.close());

  const episodesOf = async (id: string): Promise<Episode[]> => (await request(h.app).get(`/api/v1/tvshows/${id}/episodes?limit=500`)).body.data;

  it("creates every season's episodes, specials as season 0 and the unaired one included; a second import is 409 with the first's id", async () => {
    const user = newUserId();
    const res = await request(h.app).post('/api/v1/tvshows/providers/import').set(asUser(user)).send({ provider: 'tmdb', provider_id: '95396' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Severance',
      year: 2022,
      network: 'Apple TV+',
      seasons: 3,
      episodes: 7,
      external_ids: { tmdb: '95396', imdb: 'tt11280740', tvdb: '371980' },
      poster: '/api/v1/images/tmdb/w500/pPHpeI2X1qEd1CS1SeyrdhZ4qnT.jpg',
    });
    const episodes = await episodesOf(res.body.id);
    expect(episodes.map((episode) => [episode.season, episode.number])).toEqual([[0, 1], [1, 1], [1, 2], [1, 3], [2, 1], [2, 2], [2, 3], [3, 1]]);
    expect(episodes[1]).toMatchObject({ title: 'Good News About Hell', air_date: '2022-02-17', runtime_minutes: 57, external_ids: { tmdb: '1980441' } });
    expect(episodes[7]).toMatchObject({ season: 3, number: 1, title: null, air_date: '2099-01-15' });

    const again = await request(h.app).post('/api/v1/tvshows/providers/import').set(asUser(newUserId())).send({ provider: 'tmdb', provider_id: '95396' });
    expect(again.status).toBe(409);
    expect(again.body.existing_id).toBe(res.body.id);
  });

  it('refreshes a show: new episodes and air dates appear, episode ids and plays-bearing ids kept', async () => {
    const show = (await request(h.app).get('/api/v1/tvshows?external_id=tmdb:95396')).body.data[0];
    const before = await episodesOf(show.id);
    replay.fixtures.seasons['95396/3']!.episodes[0] = { ...replay.fixtures.seasons['95396/3']!.episodes[0]!, name: 'Cold Harbor II', air_date: '2099-02-01' };
    replay.fixtures.seasons['95396/3']!.episodes.push({ id: 9900002, episode_number: 2, season_number: 3, name: 'Announced', air_date: '2099-02-08', runtime: null, overview: '' });
    const res = await request(h.app).post(`/api/v1/tvshows/${show.id}/refresh`).set(asModerator(newUserId()));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ seasons: 3, episodes: 8 });
    const after = await episodesOf(show.id);
    expect(after).toHaveLength(before.length + 1);
    for (const episode of before) expect(after.find((e) => e.season === episode.season && e.number === episode.number)?.id).toBe(episode.id);
    expect(after.find((e) => e.season === 3 && e.number === 1)).toMatchObject({ title: 'Cold Harbor II', air_date: '2099-02-01' });
    expect(after.find((e) => e.season === 3 && e.number === 2)).toMatchObject({ title: 'Announced' });
  });

  it('refreshes the shows someone is watching once a day, whichever instance passes', async () => {
    const show = (await request(h.app).get('/api/v1/tvshows?external_id=tmdb:95396')).body.data[0];
    expect((await request(h.app).post('/api/v1/tvshows/list').set(asUser(newUserId())).send({ item_id: show.id, status: 'watching' })).status).toBe(201);
    replay.fixtures.shows[0]!.overview = 'Refreshed by the daily pass.';
    replay.reset();
    await h.module.showRefresh!.pass();
    expect(replay.calls('/tv/95396')).toBeGreaterThan(0);
    expect((await request(h.app).get(`/api/v1/tvshows/${show.id}`)).body.description).toBe('Refreshed by the daily pass.');
    replay.reset();
    await h.module.showRefresh!.pass();
    expect(replay.calls()).toBe(0);
  });
});

describe('provider import of books', () => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'books', providers: { env: replay.env, client: { timeoutMs: 2000, retryBackoffMs: 10 } } });
  });
  afterAll(() => h.close());

  it("takes the work's first edition with an ISBN, or the edition the search named", async () => {
    const user = newUserId();
    const hits = await request(h.app).get('/api/v1/books/providers/search?q=9780340960196').set(asUser(user));
    expect(hits.body.data).toEqual([expect.objectContaining({ provider: 'openlibrary', provider_id: 'OL32441541M', existing_id: null })]);
    const named = await request(h.app).post('/api/v1/books/providers/import').set(asUser(user)).send({ provider: 'openlibrary', provider_id: 'OL32441541M' });
    expect(named.status).toBe(201);
    expect(named.body).toMatchObject({ title: 'Dune', year: 1965, authors: ['Frank Herbert'], isbn: '9780340960196', pages: 604, external_ids: { openlibrary: 'OL893415W', isbn13: '9780340960196' } });
    expect(named.body.poster).toBe('/api/v1/images/openlibrary/b/id/11481354-L.jpg');
    const work = await request(h.app).post('/api/v1/books/providers/import').set(asUser(user)).send({ provider: 'openlibrary', provider_id: 'OL893415W' });
    expect(work.status).toBe(409);
    expect(work.body.existing_id).toBe(named.body.id);
  });

  it('refuses TMDB for books with 400 naming Open Library', async () => {
    const res = await request(h.app).post('/api/v1/books/providers/import').set(asUser(newUserId())).send({ provider: 'tmdb', provider_id: '348' });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ path: 'provider', message: 'must be one of the configured providers: openlibrary' }]);
  });
});
