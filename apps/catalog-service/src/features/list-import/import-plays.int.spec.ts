import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asModerator, asUser, newUserId } from '../../../test/identity-headers';
import { downloaded, fixture, importAndWait } from '../../../test/imports';

interface PlayBody {
  id: string;
  season: number | null;
  number: number | null;
  watched_at: string | null;
  precision: string;
  cycle: number;
  source: string;
}

/** A play as an import must give it back: what was played, when, how precisely, in which cycle, from where. */
const facts = ({ season, number, watched_at, precision, cycle, source }: PlayBody) => ({ season, number, watched_at, precision, cycle, source });
const byTime = (a: ReturnType<typeof facts>, b: ReturnType<typeof facts>) =>
  (a.season ?? -1) - (b.season ?? -1) || (a.number ?? -1) - (b.number ?? -1) || (a.watched_at ?? '').localeCompare(b.watched_at ?? '') || a.cycle - b.cycle || a.source.localeCompare(b.source);

async function playsOf(h: CatalogHarness, category: string, user: string, itemId: string): Promise<PlayBody[]> {
  const res = await request(h.app).get(`/api/v1/${category}/list/${itemId}/plays?limit=100`).set(asUser(user));
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('plays in imports (tvshows)', () => {
  let h: CatalogHarness;
  let breakingBad: string;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'tvshows', imports: {} });
    // The show and its episodes as a metadata provider gives them: the Trakt file's episodes exist.
    const moderator = newUserId();
    const created = await request(h.app).post('/api/v1/tvshows').set(asModerator(moderator)).send({ title: 'Breaking Bad', year: 2008, external_ids: { imdb: 'tt0903747', tvdb: '81189' } });
    expect(created.status).toBe(201);
    breakingBad = created.body.id;
    for (const [season, count] of [[0, 2], [1, 7], [2, 3]] as const) {
      const episodes = Array.from({ length: count }, (_, i) => ({ number: i + 1, air_date: `2008-0${season + 1}-${String(i + 1).padStart(2, '0')}`, runtime_minutes: 47 }));
      expect((await request(h.app).put(`/api/v1/tvshows/${breakingBad}/seasons/${season}`).set(asModerator(moderator)).send({ episodes })).status).toBe(200);
    }
  }, 60_000);
  afterAll(() => h.close());

  it("imports the Trakt fixture's episodes and plays exactly, and a second import changes nothing", async () => {
    const user = newUserId();
    const job = await importAndWait(h.app, user, { category: 'tvshows', source: 'trakt', body: fixture('trakt/watched-shows.json') });
    expect(job.status).toBe('completed');
    const plays = await playsOf(h, 'tvshows', user, breakingBad);
    const at = (season: number, number: number, watched_at: string | null) => ({ season, number, watched_at, precision: watched_at ? 'exact' : 'unknown', cycle: 1, source: 'import:trakt' });
    expect(plays.map(facts).sort(byTime)).toEqual(
      [
        at(0, 1, '2014-01-01T20:00:00.000Z'),
        at(0, 2, '2014-01-02T20:00:00.000Z'),
        at(1, 1, '2014-02-01T20:00:00.000Z'),
        at(1, 1, null),
        ...[2, 3, 4, 5, 6, 7].map((n) => at(1, n, `2014-02-0${n}T20:00:00.000Z`)),
        at(2, 1, '2015-02-27T21:00:00.000Z'),
        at(2, 2, '2015-02-28T21:00:00.000Z'),
        at(2, 3, '2015-03-01T21:00:00.000Z'),
      ].sort(byTime),
    );
    // Every aired regular episode played: the plays decide, and the show is completed.
    const entry = await request(h.app).get(`/api/v1/tvshows/list/${breakingBad}`).set(asUser(user));
    expect(entry.body).toMatchObject({ status: 'completed', progress: 10 });

    const again = await importAndWait(h.app, user, { category: 'tvshows', source: 'trakt', body: fixture('trakt/watched-shows.json') });
    expect(again.counts).toMatchObject({ added: 0, updated: 0, failed: 0 });
    expect((await playsOf(h, 'tvshows', user, breakingBad)).map((play) => play.id).sort()).toEqual(plays.map((play) => play.id).sort());
  });

  it('JSON export → import into a fresh account reproduces every play, cycles and sources included; the plays CSV too', async () => {
    const owner = newUserId();
    const send = (path: string, body: object) => request(h.app).post(`/api/v1/tvshows/list/${breakingBad}${path}`).set(asUser(owner)).send(body);
    expect((await send('/plays', { episodes: [{ season: 1, number: 1 }], watched_at: '2026-01-01' })).status).toBe(201);
    expect((await send('/plays', { all_aired: true, watched_at: 'unknown' })).status).toBe(201);
    expect((await send('/rewatch', {})).status).toBe(200);
    expect((await send('/plays', { episodes: [{ season: 0, number: 2 }, { season: 1, number: 1 }], watched_at: '2026-02-03T20:15:00.000Z' })).status).toBe(201);
    expect((await send('/plays', { seasons: [2], watched_at: 'release' })).status).toBe(201);
    const exported = await downloaded(request(h.app).get('/api/v1/tvshows/list/export').set(asUser(owner)));
    const ownerPlays = (await playsOf(h, 'tvshows', owner, breakingBad)).map(facts).sort(byTime);
    expect(ownerPlays).toHaveLength(16);
    const ownerEntry = (await request(h.app).get(`/api/v1/tvshows/list/${breakingBad}`).set(asUser(owner))).body;

    const fresh = newUserId();
    const job = await importAndWait(h.app, fresh, { category: 'tvshows', source: 'media-tracker', body: exported.body as string });
    expect(job.counts).toMatchObject({ added: 1, failed: 0 });
    expect((await playsOf(h, 'tvshows', fresh, breakingBad)).map(facts).sort(byTime)).toEqual(ownerPlays);
    const freshEntry = (await request(h.app).get(`/api/v1/tvshows/list/${breakingBad}`).set(asUser(fresh))).body;
    for (const field of ['status', 'progress', 'started_at', 'finished_at', 'cycle'] as const) expect({ field, value: freshEntry[field] }).toEqual({ field, value: ownerEntry[field] });
    // Imported again (into the account that has them, and into the one they came from): nothing more.
    await importAndWait(h.app, fresh, { category: 'tvshows', source: 'media-tracker', body: exported.body as string });
    await importAndWait(h.app, owner, { category: 'tvshows', source: 'media-tracker', body: exported.body as string });
    expect(await playsOf(h, 'tvshows', fresh, breakingBad)).toHaveLength(16);
    expect(await playsOf(h, 'tvshows', owner, breakingBad)).toHaveLength(16);

    const csv = await downloaded(request(h.app).get('/api/v1/tvshows/list/export?format=csv&rows=plays').set(asUser(owner)));
    const other = newUserId();
    const fromCsv = await importAndWait(h.app, other, { category: 'tvshows', source: 'csv', body: csv.body as string });
    expect(fromCsv.counts).toMatchObject({ rows: 1, matched: 1, updated: 1, failed: 0 });
    expect((await playsOf(h, 'tvshows', other, breakingBad)).map(facts).sort(byTime)).toEqual(ownerPlays);
  });

  it('reports the plays of episodes the catalog does not know as a warning, and imports the rest', async () => {
    const user = newUserId();
    const file = JSON.stringify([{ plays: 2, last_watched_at: null, show: { title: 'Breaking Bad', year: 2008, ids: { imdb: 'tt0903747' } }, seasons: [{ number: 1, episodes: [{ number: 1, plays: 1, last_watched_at: '2020-01-01T00:00:00.000Z' }, { number: 99, plays: 1 }] }] }]);
    const job = await importAndWait(h.app, user, { category: 'tvshows', source: 'trakt', body: file });
    expect(job['warnings']).toEqual([{ row: 1, message: 'not episodes of this show in the catalog, their plays were not imported: S1E99' }]);
    expect((await playsOf(h, 'tvshows', user, breakingBad)).map(facts)).toEqual([{ season: 1, number: 1, watched_at: '2020-01-01T00:00:00.000Z', precision: 'exact', cycle: 1, source: 'import:trakt' }]);
  });
});

describe('plays in imports (movies)', () => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies', imports: {} });
  }, 60_000);
  afterAll(() => h.close());

  it("Letterboxd's diary: a play per row, a Rewatch a new cycle, the file's entry kept; twice → unchanged", async () => {
    const user = newUserId();
    await importAndWait(h.app, user, { category: 'movies', source: 'letterboxd', body: fixture('letterboxd/diary.csv') });
    const list = (await request(h.app).get('/api/v1/movies/list?limit=100').set(asUser(user))).body.data as Array<{ item_id: string; item: { title: string }; status: string; score: number; finished_at: string; cycle: number }>;
    const matrix = list.find((entry) => entry.item.title === 'The Matrix')!;
    expect(matrix).toMatchObject({ status: 'completed', score: 9, finished_at: '2023-04-14', cycle: 2 });
    const plays = (await playsOf(h, 'movies', user, matrix.item_id)).map(facts).sort(byTime);
    expect(plays).toEqual([
      { season: null, number: null, watched_at: '2023-01-07T00:00:00.000Z', precision: 'day', cycle: 1, source: 'import:letterboxd' },
      { season: null, number: null, watched_at: '2023-04-14T00:00:00.000Z', precision: 'day', cycle: 2, source: 'import:letterboxd' },
    ]);
    const again = await importAndWait(h.app, user, { category: 'movies', source: 'letterboxd', body: fixture('letterboxd/diary.csv') });
    expect(again.counts).toMatchObject({ added: 0, updated: 0 });
    expect((await playsOf(h, 'movies', user, matrix.item_id)).map(facts).sort(byTime)).toEqual(plays);
  });
});
