import request from 'supertest';
import { mongo } from 'mongoose';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { seedEntries } from '../../../test/seed';
import { COLLECTIONS } from '../../data/database';
import { ListStatsSchema } from './list-stats.schemas';

const STEPS = Number(process.env['STATS_STEPS'] ?? 80);
const STATUSES = ['watching', 'completed', 'on_hold', 'dropped', 'plan_to_watch'] as const;

interface StoredEntry {
  status: string;
  score: number | null;
  progress: number | null;
  finished_at: string | null;
}

/** The statistics recomputed from the stored entries, independently of the service's counters. */
function recompute(entries: StoredEntry[]) {
  const scored = entries.filter((e) => e.score !== null);
  const completedByYear: Record<string, number> = {};
  for (const e of entries) if (e.status === 'completed' && e.finished_at) completedByYear[e.finished_at.slice(0, 4)] = (completedByYear[e.finished_at.slice(0, 4)] ?? 0) + 1;
  return {
    total: entries.length,
    by_status: Object.fromEntries(STATUSES.map((s) => [s, entries.filter((e) => e.status === s).length])),
    mean_score: scored.length ? Math.round((scored.reduce((sum, e) => sum + e.score!, 0) / scored.length) * 10) / 10 : null,
    score_histogram: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [String(i + 1), entries.filter((e) => e.score === i + 1).length])),
    progress_total: entries.reduce((sum, e) => sum + (e.progress ?? 0), 0),
    completed_by_year: completedByYear,
    // No plays in these tests: play-stats.int.spec.ts counts them.
    plays_by_month: {},
    minutes_watched: 0,
  };
}

describe('list statistics (movies)', () => {
  let h: CatalogHarness;
  let items: string[];
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
    items = (await seedEntries(h.module, Array.from({ length: 25 }, (_, i) => ({ title: `Stats Item ${i}` })))).map((doc) => doc._id.toHexString());
  }, 60_000);
  afterAll(() => h.close());

  const stats = (user: string) => request(h.app).get('/api/v1/movies/list/stats').set(asUser(user));
  const stored = (user: string) =>
    h.module.connection.db!.collection<StoredEntry>(COLLECTIONS.listEntries).find({ user_id: user }).toArray();

  it('answers zeros for an empty list, every key present', async () => {
    const res = await stats(newUserId());
    expect(res.status).toBe(200);
    expect(() => ListStatsSchema.parse(res.body)).not.toThrow();
    expect(res.body).toEqual(recompute([]));
  });

  it(`equals a recomputation after every step of ${STEPS} random writes`, async () => {
    const user = newUserId();
    const pool = items.slice(0, 12);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)]!;
    const date = () => `${pick(['2019', '2023', '2024', '2025'])}-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 9)}`;
    const send = () => {
      const id = pick(pool);
      const req = (method: 'post' | 'patch' | 'delete', path: string) => request(h.app)[method](`/api/v1/movies${path}`).set(asUser(user));
      switch (Math.floor(Math.random() * 7)) {
        case 0:
          return req('post', '/list').send({ item_id: id, status: pick(STATUSES), score: pick([null, 1 + Math.floor(Math.random() * 10)]), progress: pick([null, 3, 40]) });
        case 1:
          return req('patch', `/list/${id}`).send({ score: pick([null, 1 + Math.floor(Math.random() * 10)]), progress: pick([null, 0, 7, 120]) });
        case 2:
          return req('patch', `/list/${id}`).send({ status: pick(STATUSES) });
        case 3:
          return req('patch', `/list/${id}`).send({ started_at: null, finished_at: pick([null, date()]) });
        case 4:
          return req('delete', `/list/${id}`);
        case 5:
          return req('post', '/bulk-status').send({ item_ids: [...new Set([id, pick(pool), pick(pool)])], status: pick(STATUSES) });
        default:
          return req('post', '/bulk-delete').send({ item_ids: [...new Set([id, pick(pool)])] });
      }
    };
    for (let step = 0; step < STEPS; step++) {
      const res = await send();
      expect([200, 201, 400, 404, 409]).toContain(res.status);
      if (step % 15 === 14) {
        // A moderator's removal of the item from every list (its guards first, as ModerationService has them).
        const itemId = new mongo.ObjectId(pick(pool));
        await h.module.listItemCascades.ensureGuard(itemId);
        await h.module.atomic.run((session) => h.module.listItemCascades.removeEntriesOfItem(itemId, session));
      }
      const read = await stats(user);
      expect({ step, stats: read.body }).toEqual({ step, stats: recompute(await stored(user)) });
    }
  }, 300_000);
});
