import request from 'supertest';
import { mongo } from 'mongoose';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { seedEntries } from '../../../test/seed';
import { COLLECTIONS } from '../../data/database';
import { changesSchemas } from './list-changes.schemas';

/** The issue asks for 2 000 writes; `npm test` runs fewer (FEED_WRITES=2000 for the full figure). */
const FEED_WRITES = Number(process.env['FEED_WRITES'] ?? 240);
const DAY = 24 * 60 * 60 * 1000;

type Replica = Map<string, Record<string, unknown>>;

describe('change feed of the list (movies)', () => {
  let h: CatalogHarness;
  let items: string[];
  let clockOffset = 0;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies', now: () => new Date(Date.now() + clockOffset) });
    const docs = await seedEntries(h.module, Array.from({ length: 60 }, (_, i) => ({ title: `Feed Item ${i}`, year: 1990 + i })));
    items = docs.map((doc) => doc._id.toHexString());
  }, 60_000);
  afterAll(() => h.close());

  const api = (user: string) => ({
    add: (body: object) => request(h.app).post('/api/v1/movies/list').set(asUser(user)).send(body),
    patch: (id: string, body: object) => request(h.app).patch(`/api/v1/movies/list/${id}`).set(asUser(user)).send(body),
    remove: (id: string) => request(h.app).delete(`/api/v1/movies/list/${id}`).set(asUser(user)),
    bulkStatus: (ids: string[], status: string) => request(h.app).post('/api/v1/movies/bulk-status').set(asUser(user)).send({ item_ids: ids, status }),
    bulkDelete: (ids: string[]) => request(h.app).post('/api/v1/movies/bulk-delete').set(asUser(user)).send({ item_ids: ids }),
    changes: (query: Record<string, string | number | undefined> = {}) =>
      request(h.app).get('/api/v1/movies/list/changes').query(query).set(asUser(user)),
    list: () => request(h.app).get('/api/v1/movies/list').query({ limit: 100 }).set(asUser(user)),
  });

  /** Applies changes from `since` until has_more is false; returns the last next_since. */
  async function follow(user: string, replica: Replica, since?: string, limit = 7): Promise<string> {
    let position = since;
    for (;;) {
      const res = await api(user).changes(position === undefined ? { limit } : { since: position, limit });
      expect(res.status).toBe(200);
      for (const change of res.body.changes) {
        if (change.type === 'upsert') replica.set(change.item_id, change.entry);
        else replica.delete(change.item_id);
      }
      position = res.body.next_since;
      if (!res.body.has_more) return position!;
    }
  }

  async function currentList(user: string): Promise<Replica> {
    const res = await api(user).list();
    expect(res.status).toBe(200);
    return new Map(res.body.data.map((entry: { item_id: string }) => [entry.item_id, entry]));
  }

  it('records every kind of write, in commit order, with the entry as it is now', async () => {
    const user = newUserId();
    const me = api(user);
    expect((await me.add({ item_id: items[0] })).status).toBe(201);
    expect((await me.add({ item_id: items[1], status: 'watching' })).status).toBe(201);
    expect((await me.add({ item_id: items[2] })).status).toBe(201);
    expect((await me.patch(items[0]!, { score: 8 })).status).toBe(200);
    expect((await me.remove(items[1]!)).status).toBe(200);
    expect((await me.bulkStatus([items[0]!, items[2]!], 'completed')).status).toBe(200);
    expect((await me.bulkDelete([items[2]!])).status).toBe(200);

    const res = await me.changes();
    expect(res.status).toBe(200);
    expect(() => changesSchemas.ChangesPage.parse(res.body)).not.toThrow();
    // Compacted: one record per item, in the order of each item's latest write.
    expect(res.body.changes.map((c: { type: string; item_id: string }) => [c.type, c.item_id])).toEqual([
      ['delete', items[1]],
      ['upsert', items[0]],
      ['delete', items[2]],
    ]);
    expect(res.body.changes[1].entry).toMatchObject({ item_id: items[0], status: 'completed', score: 8, item: { title: 'Feed Item 0' } });
    expect(res.body.has_more).toBe(false);

    const after = await me.changes({ since: res.body.next_since });
    expect(after.body).toMatchObject({ changes: [], has_more: false });
    expect((await me.patch(items[0]!, { progress: 90 })).status).toBe(200);
    const next = await me.changes({ since: after.body.next_since });
    expect(next.body.changes).toEqual([expect.objectContaining({ type: 'upsert', item_id: items[0], entry: expect.objectContaining({ progress: 90 }) })]);
  }, 60_000);

  it("pages with limit, and never shows another user's changes", async () => {
    const user = newUserId();
    const other = newUserId();
    for (const id of items.slice(0, 12)) expect((await api(user).add({ item_id: id })).status).toBe(201);
    expect((await api(other).add({ item_id: items[20] })).status).toBe(201);
    const first = await api(user).changes({ limit: 5 });
    expect(first.body.changes).toHaveLength(5);
    expect(first.body.has_more).toBe(true);
    const replica: Replica = new Map();
    await follow(user, replica, undefined, 5);
    expect([...replica.keys()].sort()).toEqual(items.slice(0, 12).sort());
    const theirs = await api(other).changes();
    expect(theirs.body.changes.map((c: { item_id: string }) => c.item_id)).toEqual([items[20]]);
    const nobody = await api(newUserId()).changes();
    expect(nobody.body).toMatchObject({ changes: [], has_more: false });
  }, 60_000);

  it('answers 400 for a since it did not issue and for a bad limit, changing nothing', async () => {
    const user = newUserId();
    for (const query of [{ since: 'nonsense' }, { since: Buffer.from('f2:1:zz:1').toString('base64url') }, { limit: 0 }, { limit: 501 }]) {
      const res = await api(user).changes(query);
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'validation_failed' });
    }
  });

  it('shows an item removed and added again as its tombstone, then its entry', async () => {
    const user = newUserId();
    const me = api(user);
    expect((await me.add({ item_id: items[7] })).status).toBe(201);
    expect((await me.remove(items[7]!)).status).toBe(200);
    expect((await me.add({ item_id: items[7], status: 'watching' })).status).toBe(201);
    const res = await me.changes();
    expect(res.body.changes.map((c: { type: string; item_id: string }) => [c.type, c.item_id])).toEqual([
      ['delete', items[7]],
      ['upsert', items[7]],
    ]);
    const replica: Replica = new Map();
    await follow(user, replica);
    expect(replica).toEqual(await currentList(user));
  });

  it('answers 410 cursor_expired for a position of the previous feed format, which an instance of the previous version may have issued past changes it did not see', async () => {
    const user = newUserId();
    expect((await api(user).add({ item_id: items[8] })).status).toBe(201);
    const old = Buffer.from(`f1:1:${items[8]}:${Date.now()}`).toString('base64url');
    const res = await api(user).changes({ since: old });
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ status: 410, code: 'cursor_expired', error: expect.stringContaining('earlier version') });
  });

  it('answers 410 cursor_expired for a since older than the 90 days deletions are kept', async () => {
    const user = newUserId();
    expect((await api(user).add({ item_id: items[3] })).status).toBe(201);
    const { next_since } = (await api(user).changes()).body;
    try {
      clockOffset = 89 * DAY;
      expect((await api(user).changes({ since: next_since })).status).toBe(200);
      clockOffset = 91 * DAY;
      const res = await api(user).changes({ since: next_since });
      expect(res.status).toBe(410);
      expect(res.body).toMatchObject({ status: 410, code: 'cursor_expired' });
      // Starting again without since still works.
      expect((await api(user).changes()).status).toBe(200);
    } finally {
      clockOffset = 0;
    }
  });

  it('keeps a tombstone with an expiry (TTL index) per removal, and no record for an entry: the entry carries its seq', async () => {
    const user = newUserId();
    expect((await api(user).add({ item_id: items[4] })).status).toBe(201);
    expect((await api(user).add({ item_id: items[5] })).status).toBe(201);
    expect((await api(user).remove(items[5]!)).status).toBe(200);
    const records = await h.module.connection.db!.collection(COLLECTIONS.listChanges).find({ user_id: user }).sort({ seq: 1 }).toArray();
    expect(records.map((r) => [String(r['item_id']), r['type'], r['seq'], r['expires_at'] instanceof Date])).toEqual([[items[5], 'delete', 3, true]]);
    const entries = await h.module.connection.db!.collection(COLLECTIONS.listEntries).find({ user_id: user }).toArray();
    expect(entries.map((entry) => [String(entry['item_id']), entry['seq']])).toEqual([[items[4], 1]]);
    const lifetime = (records[0]!['expires_at'] as Date).getTime() - (records[0]!['changed_at'] as Date).getTime();
    expect(lifetime).toBe(91 * DAY);
    const indexes = await h.module.connection.db!.collection(COLLECTIONS.listChanges).indexes();
    expect(indexes.find((index) => index.name === 'tombstone_ttl')).toMatchObject({ key: { expires_at: 1 }, expireAfterSeconds: 0 });
  });

  it("records moderators' removals and merges in each owner's feed", async () => {
    const [a, b] = [newUserId(), newUserId()];
    const [gone, from, into] = [items[40]!, items[41]!, items[42]!];
    for (const user of [a, b]) {
      expect((await api(user).add({ item_id: gone })).status).toBe(201);
      expect((await api(user).add({ item_id: from, score: 6 })).status).toBe(201);
    }
    expect((await api(b).add({ item_id: into, score: 9 })).status).toBe(201);
    const replicas = new Map<string, { replica: Replica; since: string }>();
    for (const user of [a, b]) {
      const replica: Replica = new Map();
      replicas.set(user, { replica, since: await follow(user, replica) });
    }
    // The list side of a moderator's removal and merge, their guards first (as ModerationService has them).
    for (const id of [gone, from]) await h.module.listItemCascades.ensureGuard(new mongo.ObjectId(id));
    const removed = await h.module.atomic.run((session) => h.module.listItemCascades.removeEntriesOfItem(new mongo.ObjectId(gone), session));
    expect(removed).toBe(2);
    const merged = await h.module.atomic.run((session) =>
      h.module.listItemCascades.moveEntries(new mongo.ObjectId(from), { id: new mongo.ObjectId(into), titleKey: 'feed item 42', title: 'Feed Item 42', year: 2032, pages: null, posterUrl: null }, session),
    );
    expect(merged).toEqual({ moved: 1, removed: 1 });
    for (const user of [a, b]) {
      const { replica, since } = replicas.get(user)!;
      await follow(user, replica, since);
      expect(replica).toEqual(await currentList(user));
      expect(replica.has(gone)).toBe(false);
      expect(replica.has(from)).toBe(false);
    }
    expect(replicas.get(a)!.replica.get(into)).toMatchObject({ score: 6 });
    expect(replicas.get(b)!.replica.get(into)).toMatchObject({ score: 9 });
  }, 60_000);

  it('forgets the feed with the account', async () => {
    const user = newUserId();
    expect((await api(user).add({ item_id: items[6] })).status).toBe(201);
    await h.module.userDeletion.eraseUser(user);
    expect(await h.module.connection.db!.collection(COLLECTIONS.listChanges).countDocuments({ user_id: user })).toBe(0);
  });

  it(`replays to exactly the list after ${FEED_WRITES} random writes from 4 clients, from the start and from midpoints`, async () => {
    const user = newUserId();
    const me = api(user);
    const pool = items.slice(0, 30);
    const statuses = ['watching', 'completed', 'on_hold', 'dropped', 'plan_to_watch'];
    const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)]!;
    const someIds = () => [...new Set(Array.from({ length: 1 + Math.floor(Math.random() * 6) }, () => pick(pool)))];
    const randomWrite = () => {
      const id = pick(pool);
      switch (Math.floor(Math.random() * 6)) {
        case 0:
          return me.add({ item_id: id, status: pick(statuses) });
        case 1:
          return me.patch(id, { score: 1 + Math.floor(Math.random() * 10), progress: Math.floor(Math.random() * 100) });
        case 2:
          return me.patch(id, { status: pick(statuses), notes: `n${Math.random()}` });
        case 3:
          return me.remove(id);
        case 4:
          return me.bulkStatus(someIds(), pick(['watching', 'on_hold', 'dropped', 'plan_to_watch']));
        default:
          return me.bulkDelete(someIds());
      }
    };
    let remaining = FEED_WRITES;
    const acknowledged: number[] = [];
    const client = async () => {
      while (remaining-- > 0) {
        const res = await randomWrite();
        acknowledged.push(res.status);
        expect([200, 201, 400, 404, 409]).toContain(res.status);
      }
    };
    // A follower syncs while the writes run and keeps copies of its state at random midpoints.
    const midpoints: { replica: Replica; since: string }[] = [];
    let writing = true;
    const follower = async () => {
      const replica: Replica = new Map();
      let since: string | undefined;
      while (writing) {
        since = await follow(user, replica, since, 1 + Math.floor(Math.random() * 20));
        if (Math.random() < 0.5) midpoints.push({ replica: new Map(replica), since });
      }
      return { replica, since: since! };
    };
    const following = follower();
    await Promise.all([client(), client(), client(), client()]);
    writing = false;
    const live = await following;
    expect(acknowledged.filter((status) => status < 300).length).toBeGreaterThan(FEED_WRITES / 3);

    const list = await currentList(user);
    const fromStart: Replica = new Map();
    await follow(user, fromStart, undefined, 13);
    expect(fromStart).toEqual(list);
    await follow(user, live.replica, live.since);
    expect(live.replica).toEqual(list);
    expect(midpoints.length).toBeGreaterThan(0);
    for (const midpoint of midpoints) {
      await follow(user, midpoint.replica, midpoint.since, 50);
      expect(midpoint.replica).toEqual(list);
    }
  }, 600_000);
});
