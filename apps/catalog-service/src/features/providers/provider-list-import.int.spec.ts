import { startProviderReplay, type ProviderReplay } from '@mt/testing';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { importAndWait } from '../../../test/imports';

let replay: ProviderReplay;
let h: CatalogHarness;
beforeAll(async () => {
  replay = await startProviderReplay();
  h = await startCatalogHarness({ category: 'movies', imports: {}, providers: { env: replay.env, client: { timeoutMs: 2000, retryBackoffMs: 10 } } });
}, 60_000);
afterAll(async () => {
  await h.close();
  await replay.close();
});

const traktRow = (title: string, year: number, ids: Record<string, unknown>) => ({ plays: 1, last_watched_at: '2024-01-02T20:00:00.000Z', movie: { title, year, ids } });

describe('list imports with providers configured (movies)', () => {
  it("creates an unmatched row carrying a TMDB id from the provider's metadata, and others from their title", async () => {
    const user = newUserId();
    const body = JSON.stringify([traktRow('alien', 1979, { trakt: 1, imdb: 'tt0078748', tmdb: 348 }), traktRow('Hand Typed', 2001, { trakt: 2 })]);
    const job = await importAndWait(h.app, user, { category: 'movies', source: 'trakt', body });
    expect(job.status).toBe('completed');
    const alien = (await request(h.app).get('/api/v1/movies?external_id=tmdb:348')).body.data[0];
    expect(alien).toMatchObject({ title: 'Alien', director: 'Ridley Scott', runtime_minutes: 117, genres: ['Horror', 'Science Fiction'], external_ids: { tmdb: '348', imdb: 'tt0078748' }, created_by: user });
    expect(alien.poster).toBe('/api/v1/images/tmdb/w500/vfrQk5IPloGg1v9Rzbh2Eg3VGyM.jpg');
    const typed = (await request(h.app).get('/api/v1/movies?q=hand%20typed')).body.data[0];
    expect(typed).toMatchObject({ title: 'Hand Typed', director: null, poster_url: null });
    const list = await request(h.app).get('/api/v1/movies/list').set(asUser(user));
    expect(list.body.total).toBe(2);
  });

  it('finds the TMDB work of a row that has only an IMDb id (an IMDb export) and creates the entry from it', async () => {
    const user = newUserId();
    const body = 'Const,Your Rating,Date Rated,Title,Original Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,Num Votes,Release Date,Directors\ntt0103644,7,2024-01-02,Alien 3,Alien 3,https://www.imdb.com/title/tt0103644/,Movie,6.4,114,1992,"Action, Horror",300000,1992-05-22,David Fincher\n';
    const job = await importAndWait(h.app, user, { category: 'movies', source: 'imdb', body });
    expect(job.status).toBe('completed');
    const entry = (await request(h.app).get('/api/v1/movies?external_id=imdb:tt0103644')).body.data[0];
    expect(entry).toMatchObject({ title: 'Alien³', external_ids: { tmdb: '8077', imdb: 'tt0103644' }, poster: '/api/v1/images/tmdb/w500/xh5wI0UoW7DfS1IyLy3d2CgrCEP.jpg' });
  });

  it('creates the title-only entry when the provider fails, and the import still completes', async () => {
    replay.fail('server_error', { path: '/movie/679', times: 5 });
    const user = newUserId();
    const job = await importAndWait(h.app, user, { category: 'movies', source: 'trakt', body: JSON.stringify([traktRow('Aliens', 1986, { trakt: 3, tmdb: 679 })]) });
    expect(job.status).toBe('completed');
    expect((await request(h.app).get('/api/v1/movies?external_id=tmdb:679')).body.data[0]).toMatchObject({ title: 'Aliens', director: null });
  });
});
