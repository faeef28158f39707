import type { Category, ImportRow } from '@mt/importers';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { finishedJob, fixture, importAndWait, listByTitle, parsedRows, postImport } from '../../../test/imports';
import { COLLECTIONS } from '../../data/database';

interface SourceCase {
  category: Category;
  source: string;
  file: string;
  fileName?: string;
  /** Spot checks of the resulting list, by title. */
  expect: Record<string, Record<string, unknown>>;
}

const CASES: SourceCase[] = [
  { category: 'movies', source: 'letterboxd', file: 'letterboxd/diary.csv', expect: { 'The Matrix': { status: 'completed', score: 9, finished_at: '2023-04-14', started_at: null }, 'Paris Is Burning': { score: null, finished_at: '2023-03-01' } } },
  { category: 'movies', source: 'letterboxd', file: 'letterboxd/watchlist.csv', fileName: 'watchlist.csv', expect: {} },
  { category: 'movies', source: 'letterboxd', file: 'letterboxd/reviews.csv', expect: {} },
  { category: 'movies', source: 'letterboxd', file: 'letterboxd/ratings.csv', expect: {} },
  { category: 'movies', source: 'trakt', file: 'trakt/watched-movies.json', expect: { 'Batman Begins': { status: 'completed', finished_at: '2014-10-11', item: expect.objectContaining({ external_ids: { imdb: 'tt0372784', tmdb: '272' } }) } } },
  { category: 'movies', source: 'trakt', file: 'trakt/ratings.json', expect: {} },
  { category: 'movies', source: 'trakt', file: 'trakt/watched-history.json', expect: {} },
  { category: 'movies', source: 'trakt', file: 'trakt/lists-watchlist.json', expect: {} },
  { category: 'movies', source: 'imdb', file: 'imdb/ratings.csv', expect: { 'The Shawshank Redemption': { status: 'completed', score: 10, finished_at: null, item: expect.objectContaining({ runtime_minutes: 142, external_ids: { imdb: 'tt0111161' } }) } } },
  { category: 'movies', source: 'imdb', file: 'imdb/watchlist.csv', expect: {} },
  { category: 'movies', source: 'media-tracker', file: 'media-tracker/movies-export.json', expect: { 'The Matrix': { status: 'completed', score: 9, progress: 136, notes: 'Red pill,\nnot blue.' } } },
  { category: 'tvshows', source: 'trakt', file: 'trakt/watched-shows.json', expect: { 'Breaking Bad': { status: 'watching', progress: 10, item: expect.objectContaining({ external_ids: { imdb: 'tt0903747', tmdb: '1396', tvdb: '81189' } }) } } },
  { category: 'tvshows', source: 'imdb', file: 'imdb/ratings.csv', expect: { 'Breaking Bad': { status: 'completed', score: 10 } } },
  { category: 'books', source: 'goodreads', file: 'goodreads/goodreads_library_export.csv', expect: { Dune: { status: 'watching', score: 8, item: expect.objectContaining({ isbn: '9780441172719', external_ids: expect.objectContaining({ goodreads: '234225', isbn13: '9780441172719' }) }) } } },
  { category: 'books', source: 'storygraph', file: 'storygraph/storygraph_export.csv', expect: {} },
  { category: 'books', source: 'csv', file: 'media-tracker/books-export.csv', expect: { 'The Left Hand of Darkness': { status: 'completed', score: 10, notes: 'Read twice, "Winter" stays.', started_at: '2023-03-01', finished_at: '2023-03-14' } } },
];

const okRows = (rows: ImportRow[]) => rows.filter((row): row is Extract<ImportRow, { ok: true }> => row.ok);

describe.each(['movies', 'tvshows', 'books'] as const)('list import through HTTP (%s)', (category) => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ category, imports: {} });
  }, 60_000);
  afterAll(() => h.close());

  const cases = CASES.filter((c) => c.category === category);
  it.each(cases.map((c) => [`${c.source} ${c.file}`, c] as const))('imports %s: counts, statuses, scores, dates and external ids as the file says', async (_name, c) => {
    const user = newUserId();
    const body = fixture(c.file);
    const rows = await parsedRows(body, category, c.source, c.fileName);
    const ok = okRows(rows);
    const res = await postImport(h.app, user, { category, source: c.source, body, file: c.fileName });
    expect(res.status).toBe(202);
    expect(res.headers['location']).toBe(`/api/v1/${category}/list/imports/${res.body.id}`);
    expect(res.body).toMatchObject({ category, source: c.source, mode: 'skip_existing', dry_run: false, status: 'queued', counts: expect.objectContaining({ rows: rows.length }) });
    const job = await finishedJob(h.app, category, user, res.body.id);
    expect(job.status).toBe('completed');
    const failed = rows.filter((row) => !row.ok && !row.skipped);
    expect(job.counts).toEqual({
      rows: rows.length,
      matched: expect.any(Number),
      catalog_created: expect.any(Number),
      added: ok.length,
      updated: 0,
      unchanged: 0,
      skipped: rows.filter((row) => !row.ok && row.skipped).length,
      failed: failed.length,
    });
    expect(job.counts['matched']! + job.counts['catalog_created']!).toBe(ok.length);
    expect(job.errors).toEqual(failed.map((row) => ({ row: row.row, message: !row.ok && row.message })));
    // Plays of episodes a fresh catalog does not have are a warning of their own (import-plays.int.spec.ts).
    const rowWarnings = (job.warnings as Array<{ message: string }>).filter((warning) => !warning.message.startsWith('not episodes of this show in the catalog'));
    expect(rowWarnings).toEqual(ok.flatMap((row) => row.warnings.map((message) => ({ row: row.row, message }))));
    // Every applied row is on the list exactly as parsed: list fields, and the catalog entry's external ids.
    const list = await listByTitle(h.app, category, user);
    expect(list.size).toBe(ok.length);
    for (const row of ok) {
      const entry = list.get(row.item.title!);
      expect(entry).toMatchObject(row.entry!);
      // A created entry carries the row's year and external ids; a matched one (an earlier case made it) keeps its own.
      if (job.counts['matched'] === 0) expect(entry!['item']).toMatchObject({ year: row.item.year, external_ids: expect.objectContaining(row.item.external_ids) });
    }
    for (const [title, fields] of Object.entries(c.expect)) expect(list.get(title)).toMatchObject(fields);
  });

  it('reports every row unchanged when the same file is imported again (either mode), and the change feed holds each applied row once', async () => {
    const c = cases[0]!;
    const user = newUserId();
    const body = fixture(c.file);
    const first = await importAndWait(h.app, user, { category, source: c.source, body, file: c.fileName });
    const applied = first.counts['added']!;
    for (const mode of ['skip_existing', 'overwrite'] as const) {
      const again = await importAndWait(h.app, user, { category, source: c.source, body, file: c.fileName, mode });
      expect(again.counts).toMatchObject({ rows: first.counts['rows'], added: 0, updated: 0, catalog_created: 0, unchanged: applied, matched: applied });
    }
    const feed = await request(h.app).get(`/api/v1/${category}/list/changes?limit=100`).set(asUser(user));
    expect(feed.status).toBe(200);
    // Each applied row once, with a `play` for each of its plays (not episodes': this catalog has none); the
    // imports again added none.
    const plays = (await parsedRows(body, category, c.source, c.fileName)).reduce((sum, row) => sum + (row.ok ? row.plays.filter((play) => play.season === null).length : 0), 0);
    const types = (feed.body.changes as Array<{ type: string }>).map((change) => change.type);
    expect(types.filter((type) => type === 'upsert')).toHaveLength(applied);
    expect(types.filter((type) => type === 'play')).toHaveLength(plays);
    expect(types.every((type) => type === 'upsert' || type === 'play')).toBe(true);
  });

  it('changes nothing on a dry run, and reports the counts the real import then has', async () => {
    const c = cases[0]!;
    const user = newUserId();
    const body = fixture(c.file);
    const entriesBefore = await h.module.connection.db!.collection(COLLECTIONS.entries).countDocuments();
    const dry = await importAndWait(h.app, user, { category, source: c.source, body, file: c.fileName, dryRun: true });
    expect(dry.dry_run).toBe(true);
    expect(await h.module.connection.db!.collection(COLLECTIONS.entries).countDocuments()).toBe(entriesBefore);
    expect((await listByTitle(h.app, category, user)).size).toBe(0);
    const feed = await request(h.app).get(`/api/v1/${category}/list/changes`).set(asUser(user));
    expect(feed.body.changes).toEqual([]);
    const real = await importAndWait(h.app, user, { category, source: c.source, body, file: c.fileName });
    expect(real.counts).toEqual(dry.counts);
    expect(real.errors).toEqual(dry.errors);
  });
});

describe('row warnings of an import', () => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'books', imports: {} });
  }, 60_000);
  afterAll(() => h.close());

  const CSV = [
    'title,year,authors,external_ids.goodreads,status,score',
    'Warned Book,1999,Someone,not-a-number,completed,8',
    'Clean Book,2001,Someone Else,18423,watching,',
  ].join('\n');

  it('applies a row whose invalid value was dropped and names the row and the value in `warnings`, on a dry run too', async () => {
    for (const dryRun of [true, false]) {
      const user = newUserId();
      const job = await importAndWait(h.app, user, { category: 'books', source: 'csv', body: CSV, dryRun });
      expect(job).toMatchObject({ status: 'completed', errors: [], counts: expect.objectContaining({ rows: 2, added: 2, failed: 0 }) });
      expect(job.warnings).toEqual([{ row: 2, message: expect.stringContaining("'not-a-number' is not valid and was dropped") }]);
    }
    const user = newUserId();
    await importAndWait(h.app, user, { category: 'books', source: 'csv', body: CSV });
    const list = await listByTitle(h.app, 'books', user);
    expect(list.get('Warned Book')).toMatchObject({ status: 'completed', score: 8 });
    expect((list.get('Warned Book')!['item'] as { external_ids: Record<string, string> }).external_ids).not.toHaveProperty('goodreads');
  });
});
