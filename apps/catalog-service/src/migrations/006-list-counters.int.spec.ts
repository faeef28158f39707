import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../test/catalog-harness';
import { asUser, newUserId } from '../../test/identity-headers';
import { seedEntries } from '../../test/seed';
import { COLLECTIONS } from '../data/database';
import { countersOf, toListStats, type StatsFields } from '../domain/list-stats';
import { countLegacyLists, listCountersMigration } from './006-list-counters';

/** Trials of each race: a few in `npm test`, many with RACE_TRIALS (npm run race). */
const RACE_TRIALS = Number(process.env['RACE_TRIALS'] ?? 3);

type Owner = { _id: string; seq: number; stats?: Record<string, unknown> };

describe('start-up migration 006: lists from before the statistics counters (movies)', () => {
  let h: CatalogHarness;
  let items: string[];
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
    items = (await seedEntries(h.module, Array.from({ length: 8 }, (_, i) => ({ title: `Legacy Counters ${i}` })))).map((doc) => doc._id.toHexString());
  }, 60_000);
  afterAll(() => h.close());

  const db = () => h.module.connection.db!;
  const owners = () => db().collection<Owner>(COLLECTIONS.listOwners);
  const owner = async (user: string) => (await owners().findOne({ _id: user }))!;
  const add = (user: string, body: object) => request(h.app).post('/api/v1/movies/list').set(asUser(user)).send(body);
  const get = (user: string, path: string) => request(h.app).get(`/api/v1/movies${path}`).set(asUser(user));
  const migrate = () => listCountersMigration.run(h.module.migrationContext);
  /** As the version before the counters left the owner document. */
  const dropCounters = (users: string[]) => owners().updateMany({ _id: { $in: users } }, { $unset: { stats: '' } });
  /** The statistics of the stored counters, and of a recount of the stored entries. */
  const counters = async (user: string) => toListStats((await h.module.listOwners.stats(user)) ?? {});
  const recount = async (user: string) => toListStats(countersOf(await db().collection<StatsFields>(COLLECTIONS.listEntries).find({ user_id: user }).toArray()));
  const listUser = async (entries: object[]) => {
    const user = newUserId();
    for (const [i, body] of entries.entries()) expect((await add(user, { item_id: items[i], ...body })).status).toBe(201);
    return user;
  };

  it('counts each list without counters, after which the statistics and the list page read them', async () => {
    const user = await listUser([
      { status: 'completed', score: 8, progress: 120, finished_at: '2024-03-01' },
      { status: 'completed', score: 6, finished_at: '2023-05-02' },
      { status: 'watching', score: 7, progress: 40 },
      { status: 'dropped' },
      { status: 'plan_to_watch' },
    ]);
    const emptied = await listUser([{ status: 'watching' }]);
    expect((await request(h.app).delete(`/api/v1/movies/list/${items[0]}`).set(asUser(emptied))).status).toBe(200);
    const deleted = await listUser([{ status: 'watching' }]);
    await h.module.userDeletion.eraseUser(deleted);
    // Counters the step must leave alone: a list that has them is never recounted.
    const counted = await listUser([{ status: 'watching' }]);
    await owners().updateOne({ _id: counted }, { $set: { 'stats.total': 7 } });
    await dropCounters([user, emptied, deleted]);
    const seqBefore = (await owner(user)).seq;

    expect(await migrate()).toEqual({ created: 0, counted: 2, deleted: 1 });
    expect((await get(user, '/list/stats')).body).toEqual({
      total: 5,
      by_status: { watching: 1, completed: 2, on_hold: 0, dropped: 1, plan_to_watch: 1 },
      mean_score: 7,
      score_histogram: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0, '6': 1, '7': 1, '8': 1, '9': 0, '10': 0 },
      progress_total: 160,
      completed_by_year: { '2023': 1, '2024': 1 },
      plays_by_month: {},
      minutes_watched: 0,
    });
    expect((await get(user, '/list')).body).toMatchObject({ total: 5, total_pages: 1 });
    expect((await get(user, '/list?status=completed')).body).toMatchObject({ total: 2 });
    expect((await get(emptied, '/list/stats')).body).toMatchObject({ total: 0, mean_score: null });
    expect((await owner(deleted)).stats).toEqual({});
    expect((await owner(counted)).stats).toMatchObject({ total: 7 });
    // The recount took one position of the list, as the recount the statistics read did before.
    expect((await owner(user)).seq).toBe(seqBefore + 1);

    // Later writes keep the counters exact.
    expect((await request(h.app).patch(`/api/v1/movies/list/${items[2]}`).set(asUser(user)).send({ status: 'completed', score: 10 })).status).toBe(200);
    expect((await request(h.app).delete(`/api/v1/movies/list/${items[3]}`).set(asUser(user))).status).toBe(200);
    expect(await counters(user)).toEqual(await recount(user));
    expect((await get(user, '/list?status=completed')).body).toMatchObject({ total: 3 });
    expect(await migrate()).toEqual({ created: 0, counted: 0, deleted: 0 });
  });

  /** As a version before the owner documents left a list: its entries (and feed records), no document. */
  const dropOwners = (users: string[]) => owners().deleteMany({ _id: { $in: users } });
  /** The highest feed position the list's entries and change records reached. */
  const highestSeq = async (user: string) => {
    const seqs = [
      ...(await db().collection<{ seq: number }>(COLLECTIONS.listEntries).find({ user_id: user }).toArray()),
      ...(await db().collection<{ seq: number }>(COLLECTIONS.listChanges).find({ user_id: user }).toArray()),
    ].map((doc) => doc.seq);
    return Math.max(0, ...seqs);
  };

  it('gives a list from before the owner documents its document, counted, numbered after its feed positions', async () => {
    const user = await listUser([
      { status: 'completed', score: 9, finished_at: '2024-01-05' },
      { status: 'watching', progress: 3 },
      { status: 'plan_to_watch' },
    ]);
    expect((await request(h.app).delete(`/api/v1/movies/list/${items[2]}`).set(asUser(user))).status).toBe(200);
    const reached = await highestSeq(user);
    expect(reached).toBeGreaterThan(0);
    await dropOwners([user]);
    expect((await get(user, '/list')).body).toMatchObject({ total: 0 });

    expect(await migrate()).toEqual({ created: 1, counted: 1, deleted: 0 });
    expect((await get(user, '/list/stats')).body).toMatchObject({ total: 2, by_status: { watching: 1, completed: 1, on_hold: 0, dropped: 0, plan_to_watch: 0 }, mean_score: 9 });
    expect((await get(user, '/list')).body).toMatchObject({ total: 2 });
    // The recount took the position after the list's last one; the next write numbers after that.
    expect((await owner(user)).seq).toBe(reached + 1);
    expect((await add(user, { item_id: items[5], status: 'watching' })).status).toBe(201);
    expect(await highestSeq(user)).toBe(reached + 2);
    expect(await counters(user)).toEqual(await recount(user));
    expect(await migrate()).toEqual({ created: 0, counted: 0, deleted: 0 });
  });

  it(`gives each list from before the owner documents one document when several instances run the step at once (${RACE_TRIALS} trials)`, async () => {
    for (let trial = 0; trial < RACE_TRIALS; trial++) {
      const users = await Promise.all([0, 1, 2].map((n) => listUser(Array.from({ length: 2 }, (_, i) => ({ status: i ? 'dropped' : 'completed', score: n + i + 2 })))));
      const reached = await Promise.all(users.map(highestSeq));
      await dropOwners(users);

      const results = await Promise.all([migrate(), migrate(), migrate()]);
      expect(results.reduce((sum, result) => sum + result.created, 0)).toBe(users.length);
      expect(results.reduce((sum, result) => sum + result.counted, 0)).toBe(users.length);
      for (const [i, user] of users.entries()) {
        expect(await counters(user)).toEqual(await recount(user));
        expect((await owner(user)).seq).toBe(reached[i]! + 1);
      }
    }
  }, 60_000 + RACE_TRIALS * 20_000);

  it(`counts each list once when several instances run the step at once (${RACE_TRIALS} trials)`, async () => {
    for (let trial = 0; trial < RACE_TRIALS; trial++) {
      const users = await Promise.all([0, 1, 2].map((n) => listUser(Array.from({ length: 3 }, (_, i) => ({ status: i ? 'watching' : 'completed', score: n + i + 1, progress: i * 10 })))));
      const seqs = await Promise.all(users.map(async (user) => (await owner(user)).seq));
      await dropCounters(users);

      const results = await Promise.all([migrate(), migrate(), migrate()]);
      expect(results.reduce((sum, result) => sum + result.counted, 0)).toBe(users.length);
      for (const [i, user] of users.entries()) {
        expect(await counters(user)).toEqual(await recount(user));
        expect((await owner(user)).seq).toBe(seqs[i]! + 1);
      }
    }
  }, 60_000 + RACE_TRIALS * 20_000);

  it(`ends with counters equal to a recount when a list addition races the step's recount (${RACE_TRIALS} trials)`, async () => {
    const { listOwners, listEntries, atomic } = h.module.migrationContext;
    for (let trial = 0; trial < RACE_TRIALS; trial++) {
      const user = await listUser([{ status: 'completed', score: 9, finished_at: '2022-02-02' }, { status: 'watching', progress: 12 }]);
      await dropCounters([user]);
      // The addition is sent while the recount's transaction is open (it has claimed the list and is counting):
      // a live instance meets no list without counters, so that overlap is the race the step has to win.
      let addition: Promise<request.Response> | undefined;
      const racedLists = {
        statsFieldsOfUser: async (userId: string, session: Parameters<typeof listEntries.statsFieldsOfUser>[1]) => {
          addition ??= Promise.resolve(add(user, { item_id: items[2 + trial % 4], status: 'completed', score: 3, finished_at: '2021-06-06' }));
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
          return listEntries.statsFieldsOfUser(userId, session);
        },
      };

      expect(await countLegacyLists(listOwners, racedLists, atomic)).toEqual({ counted: 1, deleted: 0 });
      expect((await addition!).status).toBe(201);
      expect(await counters(user)).toEqual(await recount(user));
      expect((await get(user, '/list/stats')).body).toMatchObject({ total: 3 });
    }
  }, 60_000 + RACE_TRIALS * 20_000);
});
