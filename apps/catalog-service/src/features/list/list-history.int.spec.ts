import request from 'supertest';
import { mongo } from 'mongoose';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { seedEntries } from '../../../test/seed';
import { MAX_HISTORY_PER_ENTRY, type HistoryEvent } from '../../domain/list-history';
import { listSchemas } from './list.schemas';
import { WITHOUT_HISTORY } from '../../data/store-profile/store-profile';

describe('entry history and repeat count (movies)', () => {
  let h: CatalogHarness;
  let items: string[];
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
    items = (await seedEntries(h.module, Array.from({ length: 10 }, (_, i) => ({ title: `History Item ${i}` })))).map((doc) => doc._id.toHexString());
  }, 60_000);
  afterAll(() => h.close());

  const api = (user: string) => ({
    add: (body: object) => request(h.app).post('/api/v1/movies/list').set(asUser(user)).send(body),
    patch: (id: string, body: object) => request(h.app).patch(`/api/v1/movies/list/${id}`).set(asUser(user)).send(body),
    remove: (id: string) => request(h.app).delete(`/api/v1/movies/list/${id}`).set(asUser(user)),
    bulkStatus: (ids: string[], status: string) => request(h.app).post('/api/v1/movies/bulk-status').set(asUser(user)).send({ item_ids: ids, status }),
    history: (id: string) => request(h.app).get(`/api/v1/movies/list/${id}/history`).set(asUser(user)),
  });
  const brief = (events: Array<{ field: string; from: unknown; to: unknown }>) => events.map((e) => [e.field, e.from, e.to]);

  it('lists status, score and progress changes newest first, from the addition on', async () => {
    const user = newUserId();
    const me = api(user);
    const id = items[0]!;
    expect((await me.add({ item_id: id, status: 'watching', progress: 10 })).status).toBe(201);
    expect((await me.patch(id, { score: 7, notes: 'not tracked' })).status).toBe(200);
    expect((await me.patch(id, { progress: 42, score: 8 })).status).toBe(200);
    expect((await me.bulkStatus([id], 'on_hold')).status).toBe(200);
    const res = await me.history(id);
    expect(res.status).toBe(200);
    expect(() => listSchemas.ListEntryHistory.parse(res.body)).not.toThrow();
    expect(brief(res.body)).toEqual([
      ['status', 'watching', 'on_hold'],
      ['progress', 10, 42],
      ['score', 7, 8],
      ['score', null, 7],
      ['progress', null, 10],
      ['status', null, 'watching'],
    ]);
    const times = res.body.map((e: { at: string }) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("answers 404 for an entry not on the caller's list, and starts afresh after a removal", async () => {
    const user = newUserId();
    const id = items[1]!;
    expect((await api(user).add({ item_id: id, score: 3 })).status).toBe(201);
    const other = await api(newUserId()).history(id);
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('not_found');
    expect((await api(user).remove(id)).status).toBe(200);
    expect((await api(user).history(id)).status).toBe(404);
    expect((await api(user).add({ item_id: id })).status).toBe(201);
    expect(brief((await api(user).history(id)).body)).toEqual([['status', null, 'plan_to_watch']]);
    expect((await api(user).history('not-an-id')).status).toBe(400);
  });

  it('counts a repeat each time an entry goes from completed back to watching, by PATCH or bulk-status', async () => {
    const user = newUserId();
    const me = api(user);
    const [a, b] = [items[2]!, items[3]!];
    expect((await me.add({ item_id: a, status: 'completed' })).body.repeat_count).toBe(0);
    expect((await me.add({ item_id: b, status: 'completed' })).status).toBe(201);
    expect((await me.patch(a, { status: 'watching' })).body.repeat_count).toBe(1);
    expect((await me.patch(a, { status: 'on_hold' })).body.repeat_count).toBe(1);
    expect((await me.patch(a, { status: 'watching' })).body.repeat_count).toBe(1); // from on_hold: not a repeat
    expect((await me.bulkStatus([a, b], 'completed')).status).toBe(200);
    expect((await me.bulkStatus([a, b], 'watching')).status).toBe(200);
    const page = await request(h.app).get('/api/v1/movies/list').set(asUser(user));
    const counts = Object.fromEntries(page.body.data.map((e: { item_id: string; repeat_count: number }) => [e.item_id, e.repeat_count]));
    expect(counts).toEqual({ [a]: 2, [b]: 1 });
  });

  it.each([
    ['leaving it out of the read', WITHOUT_HISTORY],
    ['reading it along (servers that sort matches)', undefined],
  ] as const)('keeps the history out of every other answer, %s', async (_name, projection) => {
    const repository = h.module.listRepository;
    const chosen = jest.spyOn(h.module.storeProfile, 'listEntryProjection', 'get').mockReturnValue(projection);
    try {
      const user = newUserId();
      const id = items[6]!;
      expect((await api(user).add({ item_id: id, status: 'watching' })).status).toBe(201);
      const answers = [
        await api(user).patch(id, { progress: 2 }),
        await request(h.app).get(`/api/v1/movies/list/${id}`).set(asUser(user)),
        await request(h.app).get('/api/v1/movies/list').set(asUser(user)),
        await request(h.app).get('/api/v1/movies/list/changes').set(asUser(user)),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(JSON.stringify(answer.body)).not.toContain('history');
      }
      const stored = await repository.find(user, new mongo.ObjectId(id));
      expect(stored && 'history' in stored).toBe(projection === undefined);
    } finally {
      chosen.mockRestore();
    }
  });

  it(`keeps at most ${MAX_HISTORY_PER_ENTRY} changes per entry, dropping the oldest, whichever write adds them`, async () => {
    const user = newUserId();
    const id = items[2]!;
    const itemId = new mongo.ObjectId(id);
    expect((await api(user).add({ item_id: id, progress: 0 })).status).toBe(201);
    const event = (n: number): HistoryEvent => ({ at: new Date(Date.now() + n), field: 'progress', from: n - 1, to: n });
    for (let batch = 0; batch < 3; batch++) {
      const events = Array.from({ length: 400 }, (_, i) => event(batch * 400 + i + 1));
      const change = { progress: batch * 400 + 400, updated_at: new Date(), seq: 1 };
      const written = await h.module.atomic.run((session) => h.module.listRepository.updateAtRevision(user, itemId, batch, change, events, session));
      expect(written?.rev).toBe(batch + 1);
    }
    const kept = (await api(user).history(id)).body as Array<{ to: unknown }>;
    expect(kept).toHaveLength(MAX_HISTORY_PER_ENTRY);
    expect(kept[0]!.to).toBe(1200);
    expect(kept.at(-1)!.to).toBe(201);
    // Bulk-status adds its change in its own statement (an update pipeline): capped the same way.
    expect((await api(user).bulkStatus([id], 'dropped')).status).toBe(200);
    const after = (await api(user).history(id)).body as Array<{ field: string; to: unknown }>;
    expect(after).toHaveLength(MAX_HISTORY_PER_ENTRY);
    expect([after[0]!.field, after[0]!.to, after[1]!.to, after.at(-1)!.to]).toEqual(['status', 'dropped', 1200, 202]);
  }, 60_000);
});
