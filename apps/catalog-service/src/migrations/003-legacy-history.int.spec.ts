import request from 'supertest';
import { mongo } from 'mongoose';
import { startCatalogHarness, type CatalogHarness } from '../../test/catalog-harness';
import { asUser, newUserId } from '../../test/identity-headers';
import { seedEntries } from '../../test/seed';
import { COLLECTIONS } from '../data/database';
import { legacyHistoryMigration } from './003-legacy-history';
import { LEGACY_HISTORY_COLLECTION } from './legacy-history.repository';

/** Trials of the race below: a few in `npm test`, many with RACE_TRIALS (npm run race). */
const RACE_TRIALS = Number(process.env['RACE_TRIALS'] ?? 3);

describe('start-up migration 003: the history the previous version kept apart (movies)', () => {
  let h: CatalogHarness;
  let items: string[];
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
    items = (await seedEntries(h.module, Array.from({ length: 6 }, (_, i) => ({ title: `Legacy History ${i}` })))).map((doc) => doc._id.toHexString());
  }, 60_000);
  afterAll(() => h.close());

  const db = () => h.module.connection.db!;
  const add = (user: string, body: object) => request(h.app).post('/api/v1/movies/list').set(asUser(user)).send(body);
  const history = async (user: string, id: string) => {
    const res = await request(h.app).get(`/api/v1/movies/list/${id}/history`).set(asUser(user));
    expect(res.status).toBe(200);
    return (res.body as Array<{ field: string; from: unknown; to: unknown }>).map((e) => [e.field, e.from, e.to]);
  };
  const createdAt = async (user: string, id: string) => (await db().collection(COLLECTIONS.listEntries).findOne({ user_id: user, item_id: new mongo.ObjectId(id) }))!['created_at'] as Date;
  const legacyKept = async () => (await db().listCollections({ name: LEGACY_HISTORY_COLLECTION }).toArray()).length > 0;
  const migrate = () => legacyHistoryMigration.run(h.module.migrationContext);

  it('folds list_history into the entries, drops the emptied collection, and the history endpoint shows every event', async () => {
    const user = newUserId();
    const [older, newer, gone] = [items[0]!, items[1]!, items[2]!];
    expect((await add(user, { item_id: older, status: 'watching' })).status).toBe(201);
    expect((await add(user, { item_id: newer, score: 5 })).status).toBe(201);
    const at = ((added: Date) => (ms: number) => new Date(added.getTime() + ms))(await createdAt(user, newer));
    // As the previous version left them: `older` stored before entries carried their history; `newer` changed by
    // that version after it was added (with a left-over event of an earlier entry of the item); `gone` removed.
    await db().collection(COLLECTIONS.listEntries).updateOne({ user_id: user, item_id: new mongo.ObjectId(older) }, { $unset: { history: '' } });
    await db().collection(LEGACY_HISTORY_COLLECTION).insertMany([
      { user_id: user, item_id: new mongo.ObjectId(older), events: [{ at: await createdAt(user, older), field: 'status', from: null, to: 'watching' }] },
      {
        user_id: user,
        item_id: new mongo.ObjectId(newer),
        events: [
          { at: at(1000), field: 'score', from: 5, to: 6 },
          { at: at(-60_000), field: 'status', from: null, to: 'dropped' },
        ],
      },
      { user_id: user, item_id: new mongo.ObjectId(gone), events: [{ at: at(0), field: 'status', from: null, to: 'completed' }] },
    ]);

    expect(await migrate()).toEqual({ folded: 2, orphans: 1, dropped: 1 });
    expect(await legacyKept()).toBe(false);
    expect(await history(user, older)).toEqual([['status', null, 'watching']]);
    expect(await history(user, newer)).toEqual([
      ['score', 5, 6],
      ['score', null, 5],
      ['status', null, 'plan_to_watch'],
    ]);
    expect(await migrate()).toEqual({ folded: 0, orphans: 0, dropped: 0 });
  });

  it(`keeps each event once and leaves no list_history when several instances run the step at once (${RACE_TRIALS} trials)`, async () => {
    for (let trial = 0; trial < RACE_TRIALS; trial++) {
      const user = newUserId();
      const listed = items.slice(3);
      for (const id of listed) expect((await add(user, { item_id: id, status: 'watching' })).status).toBe(201);
      const docs = await Promise.all(
        listed.map(async (id) => {
          const added = (await createdAt(user, id)).getTime();
          const events = [2, 1].map((n) => ({ at: new Date(added + n * 1000), field: 'progress', from: n - 1, to: n }));
          return { user_id: user, item_id: new mongo.ObjectId(id), events };
        }),
      );
      await db().collection(LEGACY_HISTORY_COLLECTION).insertMany(docs);

      await Promise.all([migrate(), migrate(), migrate()]);
      expect(await legacyKept()).toBe(false);
      for (const id of listed) {
        expect(await history(user, id)).toEqual([
          ['progress', 1, 2],
          ['progress', 0, 1],
          ['status', null, 'watching'],
        ]);
      }
    }
  }, 60_000 + RACE_TRIALS * 20_000);
});
