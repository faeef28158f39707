import { mongo } from 'mongoose';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asModerator, asUser, newUserId } from '../../../test/identity-headers';
import { importAndWait } from '../../../test/imports';
import { COLLECTIONS } from '../../data/database';
import { ListedItemGoneError } from '../list/list-import-batches';

/** Trials of the race below: a few in `npm test`, many with RACE_TRIALS (npm run race). */
const RACE_TRIALS = Number(process.env['RACE_TRIALS'] ?? 3);

/** A Letterboxd ratings.csv of the films `Import Raced <trial> <i>` (2000), i < n. */
const ratingsCsv = (trial: number, n: number) =>
  ['Date,Name,Year,Letterboxd URI,Rating', ...Array.from({ length: n }, (_, i) => `2024-01-01,Import Raced ${trial} ${i},2000,https://boxd.it/r${trial}x${i},4`)].join('\n');

describe('imports racing moderators', () => {
  let h: CatalogHarness;
  const creator = newUserId();
  const moderator = newUserId();
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies', imports: {} });
  }, 60_000);
  afterAll(() => h.close());

  const create = async (title: string) => {
    const res = await request(h.app).post('/api/v1/movies').set(asUser(creator)).send({ title, year: 2000 });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const remove = (id: string) => request(h.app).delete(`/api/v1/movies/${id}`).set(asModerator(moderator));
  const merge = (id: string, into: string) => request(h.app).post(`/api/v1/movies/${id}/merge`).set(asModerator(moderator)).send({ into });
  const pointingAt = (id: string) => h.module.connection.db!.collection(COLLECTIONS.listEntries).countDocuments({ item_id: new mongo.ObjectId(id) });
  const fields = { status: 'completed', score: 8, progress: null, notes: null, started_at: null, finished_at: null } as const;

  /** An import batch of `id` whose transaction is open (its list's sequence number taken) while `moderate` runs to its end. */
  const importAround = (user: string, id: string, moderate: () => Promise<request.Response>) => {
    let moderated: Promise<request.Response> | undefined;
    return h.module.listImports.importEntries(
      user,
      'skip_existing',
      [{ itemId: new mongo.ObjectId(id), fields }],
      async () => {
        moderated ??= moderate();
        expect((await moderated).status).toBe(200);
      },
      async () => undefined,
    );
  };

  it('writes no list entry of a catalog entry a moderator removed while the batch was being written', async () => {
    const id = await create('Import Around Removal');
    await expect(importAround(newUserId(), id, () => remove(id))).rejects.toThrow(ListedItemGoneError);
    expect(await pointingAt(id)).toBe(0);
  });

  it('writes no list entry of a catalog entry a moderator merged away while the batch was being written', async () => {
    const [from, into] = [await create('Import Around Merge'), await create('Import Around Merge Survivor')];
    await expect(importAround(newUserId(), from, () => merge(from, into))).rejects.toThrow(ListedItemGoneError);
    expect(await pointingAt(from)).toBe(0);
  });

  it('creates no guard for a change that is refused (an unknown id: 404; not the creator: 403), and 8 for one that is made', async () => {
    const guards = () => h.module.connection.db!.collection(COLLECTIONS.listItemGuards).countDocuments();
    const before = await guards();
    const nobody = new mongo.ObjectId().toHexString();
    const id = await create('Import Guard Entry');
    expect((await request(h.app).patch(`/api/v1/movies/${nobody}`).set(asUser(creator)).send({ title: 'Nothing' })).status).toBe(404);
    expect((await request(h.app).patch(`/api/v1/movies/${id}`).set(asUser(newUserId())).send({ title: 'Not Yours' })).status).toBe(403);
    expect((await remove(nobody)).status).toBe(404);
    expect((await merge(nobody, id)).status).toBe(404);
    expect(await guards()).toBe(before);
    expect((await request(h.app).patch(`/api/v1/movies/${id}`).set(asUser(creator)).send({ year: 2001 })).status).toBe(200);
    expect(await guards()).toBe(before + 8);
  });

  it(`leaves no list entry pointing at a removed entry while imports race the removals, and every job completes (${RACE_TRIALS} trials)`, async () => {
    const rows = 60;
    for (let trial = 0; trial < RACE_TRIALS; trial++) {
      const ids: string[] = [];
      for (let i = 0; i < rows; i++) ids.push(await create(`Import Raced ${trial} ${i}`));
      const removed = ids.filter((_, i) => i % 6 === 0);
      const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const [jobs, removals] = await Promise.all([
        Promise.all([newUserId(), newUserId()].map((user) => importAndWait(h.app, user, { category: 'movies', source: 'letterboxd', body: ratingsCsv(trial, rows) }))),
        Promise.all(removed.map((id) => delay(Math.random() * 150).then(() => remove(id)))),
      ]);
      for (const res of removals) expect(res.status).toBe(200);
      for (const job of jobs) {
        expect(job.status).toBe('completed');
        // Each row is on the list: on its entry, or on one the import created again after the removal.
        expect(job.counts['added']).toBe(rows);
      }
      for (const id of removed) expect(await pointingAt(id)).toBe(0);
    }
  }, 60_000 + RACE_TRIALS * 30_000);
});
