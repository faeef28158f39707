import { Readable } from 'node:stream';
import { mongo } from 'mongoose';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { eventually } from '../../../test/eventually';
import { asUser, newUserId } from '../../../test/identity-headers';
import { fixture, importAndWait, postImport } from '../../../test/imports';
import { COLLECTIONS } from '../../data/database';

const RACERS = 8;
/** Trials of the insert race below: 40 in `npm test` (about 8 s), more with RACE_TRIALS. */
const INSERT_TRIALS = Number(process.env['RACE_TRIALS'] ?? 40);

/** A Letterboxd ratings.csv of `n` distinct films. */
const ratingsCsv = (n: number, prefix = 'Film') =>
  ['Date,Name,Year,Letterboxd URI,Rating', ...Array.from({ length: n }, (_, i) => `2024-01-01,${prefix} ${i},${1900 + (i % 120)},https://boxd.it/x${i},${((i % 10) + 1) / 2}`)].join('\n');

describe('import requests and jobs (movies)', () => {
  let h: CatalogHarness;
  const db = () => h.module.connection.db!;
  const jobsOf = (user: string) => request(h.app).get('/api/v1/movies/list/imports').set(asUser(user));
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies', imports: {} });
  }, 60_000);
  afterAll(() => h.close());

  it('refuses a file that cannot be read with 400 before any job exists, and stores nothing', async () => {
    const user = newUserId();
    const broken = await postImport(h.app, user, { category: 'movies', source: 'letterboxd', body: 'Date,Name,Year,Letterboxd URI,Rating\n2024-01-01,"never closed,1999,x,4\n' });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe('validation_failed');
    const notJson = await postImport(h.app, user, { category: 'movies', source: 'media-tracker', body: '{"format":"media-tracker/list@1",' });
    expect(notJson.status).toBe(400);
    const ambiguous = await postImport(h.app, user, { category: 'movies', source: 'letterboxd', body: fixture('letterboxd/watched.csv') });
    expect(ambiguous.status).toBe(400);
    expect((await jobsOf(user)).body.total).toBe(0);
    expect(await db().collection(COLLECTIONS.importUploads).countDocuments()).toBe(0);
  });

  it('refuses 50 001 rows with 413 while reading, a source of another category or media type with 400/415', async () => {
    const user = newUserId();
    const tooMany = await postImport(h.app, user, { category: 'movies', source: 'letterboxd', body: ratingsCsv(50_001) });
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.code).toBe('payload_too_large');
    const otherCategory = await postImport(h.app, user, { category: 'movies', source: 'goodreads', body: fixture('goodreads/goodreads_library_export.csv') });
    expect(otherCategory.status).toBe(400);
    const wrongType = await postImport(h.app, user, { category: 'movies', source: 'letterboxd', body: fixture('letterboxd/ratings.csv'), contentType: 'application/json' });
    expect(wrongType.status).toBe(415);
    expect((await jobsOf(user)).body.total).toBe(0);
    expect(await db().collection(COLLECTIONS.importUploads).countDocuments()).toBe(0);
  }, 60_000);

  it('fails the rows that would create a catalog entry when the token lacks catalog:write, with the reason', async () => {
    const user = newUserId();
    const known = await importAndWait(h.app, newUserId(), { category: 'movies', source: 'letterboxd', body: ratingsCsv(2, 'Known') });
    expect(known.counts['catalog_created']).toBe(2);
    const body = ratingsCsv(3, 'Known'); // Known 0 and 1 exist now, Known 2 does not
    const job = await importAndWait(h.app, user, { category: 'movies', source: 'letterboxd', body, headers: asUser(user, ['list:write', 'list:read']) });
    expect(job.counts).toMatchObject({ rows: 3, matched: 2, catalog_created: 0, added: 2, failed: 1 });
    expect(job.errors).toEqual([{ row: 4, message: expect.stringContaining('needs the catalog:write scope') }]);
  });

  it('lists the caller\'s jobs newest first, by page and by cursor, and hides them from other users', async () => {
    const user = newUserId();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await importAndWait(h.app, user, { category: 'movies', source: 'letterboxd', body: ratingsCsv(1, `Paged ${i}`) })).id);
    const first = await request(h.app).get('/api/v1/movies/list/imports?limit=2').set(asUser(user));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 3, page: 1, limit: 2, total_pages: 2 });
    expect(first.body.data.map((job: { id: string }) => job.id)).toEqual([ids[2], ids[1]]);
    const start = await request(h.app).get('/api/v1/movies/list/imports?limit=2&cursor=start').set(asUser(user));
    const next = await request(h.app).get(`/api/v1/movies/list/imports?limit=2&cursor=${encodeURIComponent(start.body.next_cursor)}`).set(asUser(user));
    expect(next.body.data.map((job: { id: string }) => job.id)).toEqual([ids[0]]);
    expect(next.body.next_cursor).toBeNull();
    expect((await request(h.app).get(`/api/v1/movies/list/imports/${ids[0]}`).set(asUser(newUserId()))).status).toBe(404);
    expect((await jobsOf(newUserId())).body.total).toBe(0);
  });

  it('stops the job of an account deleted meanwhile and leaves nothing of it behind', async () => {
    const user = newUserId();
    const started = await postImport(h.app, user, { category: 'movies', source: 'letterboxd', body: ratingsCsv(10_000, 'Erased') });
    expect(started.status).toBe(202);
    const id = started.body.id as string;
    await eventually(async () => {
      const job = await request(h.app).get(`/api/v1/movies/list/imports/${id}`).set(asUser(user));
      expect(job.body.counts.added).toBeGreaterThan(0);
    }, 60_000);
    const before = await request(h.app).get(`/api/v1/movies/list/imports/${id}`).set(asUser(user));
    await h.module.userDeletion.eraseUser(user);
    expect(before.body.status).toBe('running'); // the deletion met a job in the middle of its rows
    expect(before.body.counts.added).toBeLessThan(10_000);
    // Whatever batch was in flight either committed before the deletion (and was removed with the list) or fails.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await request(h.app).get(`/api/v1/movies/list/imports/${id}`).set(asUser(user))).status).toBe(404);
    expect(await db().collection(COLLECTIONS.listEntries).countDocuments({ user_id: user })).toBe(0);
    expect(await db().collection(COLLECTIONS.listChanges).countDocuments({ user_id: user })).toBe(0);
    expect(await db().collection(COLLECTIONS.importJobs).countDocuments({ user_id: user })).toBe(0);
    expect(await db().collection(COLLECTIONS.importUploads).countDocuments({ upload_id: new mongo.ObjectId(id) })).toBe(0);
  }, 120_000);
});

describe('one import at a time per list (movies, no worker: jobs stay queued)', () => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies', imports: { worker: false } });
  }, 60_000);
  afterAll(() => h.close());

  it('answers 409 to a second import while the first is queued', async () => {
    const user = newUserId();
    const first = await postImport(h.app, user, { category: 'movies', source: 'letterboxd', body: fixture('letterboxd/ratings.csv') });
    expect(first.status).toBe(202);
    const second = await postImport(h.app, user, { category: 'movies', source: 'letterboxd', body: fixture('letterboxd/ratings.csv') });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('conflict');
    // Another user is not affected.
    expect((await postImport(h.app, newUserId(), { category: 'movies', source: 'letterboxd', body: fixture('letterboxd/ratings.csv') })).status).toBe(202);
  });

  it(`lets exactly one of ${RACERS} concurrent imports of one user through (the database decides)`, async () => {
    const user = newUserId();
    const answers = await Promise.all(Array.from({ length: RACERS }, () => postImport(h.app, user, { category: 'movies', source: 'letterboxd', body: fixture('letterboxd/ratings.csv') })));
    expect(answers.map((res) => res.status).sort()).toEqual([202, ...Array(RACERS - 1).fill(409)]);
    const listed = await request(h.app).get('/api/v1/movies/list/imports').set(asUser(user));
    expect(listed.body.total).toBe(1);
    // The refused uploads were removed: only the accepted job's copy is stored.
    const jobId = answers.find((res) => res.status === 202)!.body.id as string;
    const jobs = await h.module.connection.db!.collection(COLLECTIONS.importJobs).distinct('_id', {});
    const stored = await h.module.connection.db!.collection(COLLECTIONS.importUploads).distinct('upload_id', {});
    expect(stored.map(String).sort()).toEqual(jobs.map(String).sort());
    expect(stored.map(String)).toContain(jobId);
  }, 60_000);

  // Found by CI: servers on PostgreSQL report a deadlock among three or more inserts meeting on one unique
  // key as WriteConflict (112), not E11000, and retried inserts can go on deadlocking — all seven losers got 500.
  it(`refuses all but one of ${RACERS} imports of one user started at once as a conflict, over ${INSERT_TRIALS} trials`, async () => {
    const csv = ratingsCsv(1, 'Raced');
    for (let trial = 0; trial < INSERT_TRIALS; trial++) {
      const user = newUserId();
      const outcomes = await Promise.allSettled(Array.from({ length: RACERS }, () => h.module.imports.start(user, true, { source: 'letterboxd', dry_run: false }, Readable.from([csv]))));
      const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as { status?: number; code?: string; message: string }] : []));
      expect(refused.map((error) => `${error.status} ${error.code}: ${error.message}`)).toEqual(Array(RACERS - 1).fill(expect.stringMatching(/^409 conflict: an import into this list is already queued/)));
    }
  }, 60_000 + INSERT_TRIALS * 1000);
});
