import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { bundleTestProcess, startTestProcess } from '../../../test/catalog-process';
import { eventually } from '../../../test/eventually';
import { asUser, newUserId } from '../../../test/identity-headers';
import { finishedJob, importAndWait, listByTitle, postImport } from '../../../test/imports';
import { seedEntries } from '../../../test/seed';
import { COLLECTIONS } from '../../data/database';

const TRIALS = Number(process.env['IMPORT_CRASH_TRIALS'] ?? 1);
// npm test: one trial of 2 000 rows (4 batches; under a minute); the figure: IMPORT_CRASH_ROWS=20000 (about 4 minutes on the shared sandbox).
const ROWS = Number(process.env['IMPORT_CRASH_ROWS'] ?? 2000);

/** A Letterboxd diary of ROWS films (half of them already in the catalog), some rated, some not. */
const diary = () =>
  ['Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date', ...Array.from({ length: ROWS }, (_, i) => `2024-01-01,Crash Film ${i},${1950 + (i % 70)},https://boxd.it/c${i},${i % 3 ? ((i % 10) + 1) / 2 : ''},,,2024-0${1 + (i % 9)}-1${i % 10}`)].join('\n');
const seeded = () => Array.from({ length: ROWS / 2 }, (_, i) => ({ title: `Crash Film ${i * 2}`, year: 1950 + ((i * 2) % 70) }));

/** The list without what differs between databases (ids, timestamps): by title, the list fields. */
async function listFields(app: CatalogHarness['app'], user: string) {
  const list = await listByTitle(app, 'movies', user);
  return new Map([...list].map(([title, { status, score, progress, notes, started_at, finished_at, item }]) => [title, { status, score, progress, notes, started_at, finished_at, year: (item as { year: number }).year }]));
}

describe('an import survives the SIGKILL of the instance running it (movies)', () => {
  let reference: CatalogHarness;
  let dir: string;
  let script: string;
  let file: string;
  let expected: { counts: Record<string, number>; list: Awaited<ReturnType<typeof listFields>> };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'import-worker-'));
    script = await bundleTestProcess('crash-test-process.ts', dir);
    file = diary();
    // The uninterrupted run, on its own database with the same catalog.
    reference = await startCatalogHarness({ category: 'movies', imports: {} });
    await seedEntries(reference.module, seeded());
    const user = newUserId();
    const job = await importAndWait(reference.app, user, { category: 'movies', source: 'letterboxd', body: file }, 400_000);
    expected = { counts: job.counts, list: await listFields(reference.app, user) };
    expect(job.counts).toEqual({ rows: ROWS, matched: ROWS / 2, catalog_created: ROWS / 2, added: ROWS, updated: 0, unchanged: 0, skipped: 0, failed: 0 });
  }, 600_000);
  afterAll(async () => {
    await reference?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`finishes with the counts and list of an uninterrupted run, no row applied twice (${TRIALS} trial(s), ${ROWS} rows)`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      // Reads and checks only: this instance runs no jobs.
      const h = await startCatalogHarness({ category: 'movies', imports: { worker: false } });
      try {
        await seedEntries(h.module, seeded());
        const env = { CATALOG_TEST_DB: h.dbName, IMPORT_REDIS_PREFIX: h.redisPrefix! };
        const user = newUserId();
        const first = await startTestProcess(script, env);
        let id: string;
        try {
          const started = await postImport(first.url, user, { category: 'movies', source: 'letterboxd', body: file });
          expect(started.status).toBe(202);
          id = started.body.id;
          // Killed somewhere in the middle: a random point after the first committed batch.
          const killAt = Math.floor(ROWS * (0.1 + Math.random() * 0.5));
          await eventually(async () => {
            const job = await request(h.app).get(`/api/v1/movies/list/imports/${id}`).set(asUser(user));
            expect(job.body.counts.added).toBeGreaterThanOrEqual(killAt);
          }, 300_000, 20);
        } finally {
          first.child.kill('SIGKILL');
          await first.exited;
        }
        const halfway = await request(h.app).get(`/api/v1/movies/list/imports/${id}`).set(asUser(user));
        expect(halfway.body.status).toBe('running');
        expect(halfway.body.counts.added).toBeLessThan(ROWS);
        // A restarted instance takes the job over once its lock lapses, and resumes from the checkpoint.
        const second = await startTestProcess(script, env);
        try {
          const job = await finishedJob(h.app, 'movies', user, id, 300_000);
          expect(job.status).toBe('completed');
          expect(job.counts).toEqual(expected.counts);
          expect(await listFields(h.app, user)).toEqual(expected.list);
          const db = h.module.connection.db!;
          expect(await db.collection(COLLECTIONS.listEntries).countDocuments({ user_id: user })).toBe(ROWS);
          // Every entry numbered in the feed by the batch that wrote it; no removal, so no tombstone.
          expect(await db.collection(COLLECTIONS.listEntries).countDocuments({ user_id: user, seq: { $gt: 0 } })).toBe(ROWS);
          expect(await db.collection(COLLECTIONS.listChanges).countDocuments({ user_id: user })).toBe(0);
          expect(await db.collection(COLLECTIONS.entries).countDocuments()).toBe(ROWS);
          const stats = await request(h.app).get('/api/v1/movies/list/stats').set(asUser(user));
          expect(stats.body.total).toBe(ROWS);
        } finally {
          second.child.kill('SIGKILL');
          await second.exited;
        }
      } finally {
        await h.close();
      }
    }
  }, 900_000);
});
