import request from 'supertest';
import { mongo } from 'mongoose';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { seedEntries } from '../../../test/seed';
import { COLLECTIONS } from '../../data/database';

const STATUSES = ['plan_to_watch', 'watching', 'completed', 'on_hold', 'dropped'] as const;
const COUNT = 40;
/** Entries unnumbered in the feed (seq 0) and without history, by hand: lists older than the feed and the history. */
const OLDER = 8;

describe('bulk-status writes what single updates write (movies)', () => {
  let h: CatalogHarness;
  let items: string[];
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
    items = (await seedEntries(h.module, Array.from({ length: COUNT }, (_, i) => ({ title: `Bulk Item ${i}` })))).map((doc) => doc._id.toHexString());
  }, 60_000);
  afterAll(() => h.close());

  const collection = (name: string) => h.module.connection.db!.collection(name);
  const byItem = <T>(docs: Array<Record<string, unknown>>, value: (doc: Record<string, unknown>) => T) =>
    Object.fromEntries(docs.map((doc) => [String(doc['item_id']), value(doc)]));

  /** A list of every status (some with dates), the first entries without feed record or history. */
  async function fillList(user: string): Promise<void> {
    for (const [i, id] of items.entries()) {
      const status = STATUSES[i % STATUSES.length];
      const body = { item_id: id, status, score: i % 3 === 0 ? null : 1 + (i % 9), ...(i % 4 === 0 ? { started_at: '2024-01-01' } : {}) };
      expect((await request(h.app).post('/api/v1/movies/list').set(asUser(user)).send(body)).status).toBe(201);
    }
    const older = { user_id: user, item_id: { $in: items.slice(0, OLDER).map((id) => new mongo.ObjectId(id)) } };
    await collection(COLLECTIONS.listEntries).updateMany(older, { $set: { seq: 0 }, $unset: { history: '' } });
  }

  async function stateOf(user: string) {
    const entries = await collection(COLLECTIONS.listEntries).find({ user_id: user }).toArray();
    const tombstones = await collection(COLLECTIONS.listChanges).find({ user_id: user }).toArray();
    const stats = await request(h.app).get('/api/v1/movies/list/stats').set(asUser(user));
    expect(stats.status).toBe(200);
    return {
      entries: byItem(entries, (doc) => [doc['status'], doc['started_at'], doc['finished_at'], doc['repeat_count'], doc['rev']]),
      // The feed: each entry numbered by its last write, tombstones for removals (none here).
      changes: { ...byItem(entries, (doc) => ['upsert', (doc['seq'] as number) > 0]), ...byItem(tombstones, (doc) => [doc['type'], 'expires_at' in doc]) },
      seqs: new Set(entries.map((doc) => doc['seq'])),
      // An entry without history may have none stored or an empty one: the same to its reader.
      history: byItem(entries, (doc) => {
        const events = (doc['history'] ?? []) as Array<Record<string, unknown>>;
        return events.length ? events.map((event) => [event['field'], event['from'], event['to']]) : undefined;
      }),
      stats: stats.body,
    };
  }

  it.each(['watching', 'completed'] as const)('moving %s entries of every status gives the feed positions, history and counters of one PATCH per entry', async (status) => {
    const bulkUser = newUserId();
    const singleUser = newUserId();
    await fillList(bulkUser);
    await fillList(singleUser);

    const bulk = await request(h.app).post('/api/v1/movies/bulk-status').set(asUser(bulkUser)).send({ item_ids: items, status });
    expect(bulk.status).toBe(200);
    expect(bulk.body).toEqual({ updated: COUNT, not_found: [] });
    for (const id of items) expect((await request(h.app).patch(`/api/v1/movies/list/${id}`).set(asUser(singleUser)).send({ status })).status).toBe(200);

    const after = await stateOf(bulkUser);
    const expected = await stateOf(singleUser);
    expect(after.entries).toEqual(expected.entries);
    expect(after.changes).toEqual(expected.changes);
    expect(Object.keys(after.changes)).toHaveLength(COUNT);
    expect(after.history).toEqual(expected.history);
    // Entries without a history before the move now have exactly the move (none when already in the status).
    items.slice(0, OLDER).forEach((id, i) => {
      const from = STATUSES[i % STATUSES.length];
      expect(after.history[id]).toEqual(from === status ? undefined : [['status', from, status]]);
    });
    expect(after.stats).toEqual(expected.stats);
    // One write: every entry of the bulk user at its one sequence number, and no record besides.
    const bulkSeq = Math.max(...[...after.seqs].map(Number));
    expect(await collection(COLLECTIONS.listEntries).countDocuments({ user_id: bulkUser, seq: bulkSeq })).toBe(COUNT);
    expect(await collection(COLLECTIONS.listChanges).countDocuments({ user_id: bulkUser })).toBe(0);
  }, 120_000);
});
