import request from 'supertest';
import { mongo } from 'mongoose';
import { startCatalogHarness, type CatalogHarness } from '../../test/catalog-harness';
import { asUser, newUserId } from '../../test/identity-headers';
import { seedEntries } from '../../test/seed';
import { COLLECTIONS } from '../data/database';
import { legacyUpsertsMigration } from './002-legacy-upserts';

describe('start-up migration 002: the upsert records the previous feed kept (movies)', () => {
  let h: CatalogHarness;
  let items: string[];
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
    items = (await seedEntries(h.module, Array.from({ length: 5 }, (_, i) => ({ title: `Legacy Feed ${i}` })))).map((doc) => doc._id.toHexString());
  }, 60_000);
  afterAll(() => h.close());

  const collection = (name: string) => h.module.connection.db!.collection(name);
  const migrate = () => legacyUpsertsMigration.run(h.module.migrationContext);

  /** The whole feed from its start, a page of `limit` at a time, as [type, item_id]. */
  async function feed(user: string, limit = 2): Promise<Array<[string, string]>> {
    const changes: Array<[string, string]> = [];
    let since: string | undefined;
    for (;;) {
      const res = await request(h.app).get('/api/v1/movies/list/changes').query(since === undefined ? { limit } : { since, limit }).set(asUser(user));
      expect(res.status).toBe(200);
      for (const change of res.body.changes) changes.push([change.type, change.item_id]);
      since = res.body.next_since;
      if (!res.body.has_more) return changes;
    }
  }

  it("folds them into the entries' seq, after which the live feed gives the whole list once, in the records' order", async () => {
    const user = newUserId();
    const listed = items.slice(0, 4);
    for (const id of listed) expect((await request(h.app).post('/api/v1/movies/list').set(asUser(user)).send({ item_id: id })).status).toBe(201);
    // As the previous version left them: entries without seq, an upsert record per item in reverse order of
    // addition (the first item never recorded), and a removal's tombstone.
    await collection(COLLECTIONS.listEntries).updateMany({ user_id: user }, { $unset: { seq: '' } });
    const recorded = listed.slice(1).reverse();
    await collection(COLLECTIONS.listChanges).insertMany([
      ...recorded.map((id, i) => ({ user_id: user, item_id: new mongo.ObjectId(id), seq: 10 + i, type: 'upsert', changed_at: new Date() })),
      { user_id: user, item_id: new mongo.ObjectId(items[4]), seq: 13, type: 'delete', changed_at: new Date(), expires_at: new Date(Date.now() + 86_400_000) },
    ]);
    await collection(COLLECTIONS.listOwners).updateOne({ _id: user } as object, { $set: { seq: 13 } });

    expect(await migrate()).toEqual({ folded: 3, numbered: 1 });
    expect(await collection(COLLECTIONS.listChanges).countDocuments({ user_id: user, type: 'upsert' })).toBe(0);
    expect(await feed(user)).toEqual([['upsert', listed[0]], ...recorded.map((id): [string, string] => ['upsert', id]), ['delete', items[4]]]);
    expect(await migrate()).toEqual({ folded: 0, numbered: 0 });
  });
});
