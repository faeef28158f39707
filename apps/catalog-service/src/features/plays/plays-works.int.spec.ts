import request from 'supertest';
import { INTERNAL_PATHS } from '@mt/contracts';
import { INTERNAL_SECRET_HEADER } from '@mt/identity';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId, TEST_SECRET } from '../../../test/identity-headers';
import { playsClient } from '../../../test/plays-fixtures';

describe('plays of movies', () => {
  let h: CatalogHarness;
  let c: ReturnType<typeof playsClient>;
  const creator = newUserId();
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
    c = playsClient(h, 'movies');
  });
  afterAll(() => h.close());

  it('completes the entry with the play\'s date, a later start moving back to it', async () => {
    const user = newUserId();
    const id = await c.createItem(creator, { title: 'Works Complete', year: 1999 });
    await request(h.app).post('/api/v1/movies/list').set(asUser(user)).send({ item_id: id, status: 'plan_to_watch', started_at: '2024-05-01' });
    const res = await c.play(user, id, { watched_at: '2024-04-20' });
    expect(res.status).toBe(201);
    expect(res.body.added[0]).toMatchObject({ episode: null, season: null, number: null, precision: 'day', cycle: 1, source: 'manual' });
    expect((await c.entry(user, id)).body).toMatchObject({ status: 'completed', finished_at: '2024-04-20', started_at: '2024-04-20' });
  });

  it('resolves every watched_at form and refuses what cannot be dated', async () => {
    const user = newUserId();
    const id = await c.createItem(creator, { title: 'Works Dates', year: 1984 });
    const undated = await c.createItem(creator, { title: 'Works Undated' });
    expect((await c.play(user, id, { watched_at: 'release' })).body.added[0]).toMatchObject({ watched_at: '1984-01-01T00:00:00.000Z', precision: 'release' });
    expect((await c.play(user, id, { watched_at: 'unknown' })).body.added[0]).toMatchObject({ watched_at: null, precision: 'unknown' });
    expect((await c.play(user, id, { watched_at: '2024-02-03T04:05:06+02:00' })).body.added[0]).toMatchObject({ watched_at: '2024-02-03T02:05:06.000Z', precision: 'exact' });
    expect((await c.play(user, id)).body.added[0].precision).toBe('exact');
    for (const body of [{ watched_at: 'release' }, { watched_at: 'yesterday' }, { watched_at: '2999-01-01' }, { episodes: [{ season: 1, number: 1 }] }, { all_aired: true }, { seasons: [1] }, { bogus: 1 }, { source_event_id: 'x'.repeat(201) }]) {
      const res = await c.play(user, undated, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    expect((await c.entry(user, undated)).status).toBe(404);
    expect((await c.play(user, 'f'.repeat(24))).status).toBe(404);
  });

  it('refuses progress above a known runtime (400) on POST and PATCH of the entry', async () => {
    const user = newUserId();
    const id = await c.createItem(creator, { title: 'Works Runtime', runtime_minutes: 100 });
    expect((await request(h.app).post('/api/v1/movies/list').set(asUser(user)).send({ item_id: id, progress: 101 })).status).toBe(400);
    expect((await request(h.app).post('/api/v1/movies/list').set(asUser(user)).send({ item_id: id, progress: 100 })).status).toBe(201);
    expect((await c.patch(user, id, { progress: 150 })).status).toBe(400);
    expect((await c.entry(user, id)).body.progress).toBe(100);
  });

  it('records a source_event_id once, and the same instant once', async () => {
    const user = newUserId();
    const id = await c.createItem(creator, { title: 'Works Idempotent' });
    expect((await c.play(user, id, { source_event_id: 'evt-1' })).body.added).toHaveLength(1);
    expect((await c.play(user, id, { source_event_id: 'evt-1' })).body).toEqual({ added: [], existing: 1 });
    expect((await c.play(user, id, { watched_at: '2024-01-01' })).body.existing).toBe(0);
    expect((await c.play(user, id, { watched_at: '2024-01-01' })).body).toEqual({ added: [], existing: 1 });
    // Another user's event with the same id is theirs.
    expect((await c.play(newUserId(), id, { source_event_id: 'evt-1' })).body.added).toHaveLength(1);
  });

  it('keeps the diary in order across items, days inclusive, with the items', async () => {
    const user = newUserId();
    const a = await c.createItem(creator, { title: 'Diary A', year: 2001 });
    const b = await c.createItem(creator, { title: 'Diary B', year: 2002 });
    await c.play(user, a, { watched_at: '2024-03-01T23:59:00Z' });
    await c.play(user, b, { watched_at: '2024-03-02' });
    await c.play(user, b, { watched_at: '2024-03-04' });
    await c.play(user, a, { watched_at: 'unknown' });
    const range = (await c.diary(user, { from: '2024-03-01', to: '2024-03-02' })).body;
    expect(range.data.map((p: { item: { title: string }; watched_at: string }) => [p.item.title, p.watched_at])).toEqual([
      ['Diary B', '2024-03-02T00:00:00.000Z'],
      ['Diary A', '2024-03-01T23:59:00.000Z'],
    ]);
    const all = (await c.diary(user, { limit: 3 })).body;
    const rest = (await c.diary(user, { limit: 3, cursor: all.next_cursor })).body;
    expect([...all.data, ...rest.data].map((p: { watched_at: string | null }) => p.watched_at)).toEqual(['2024-03-04T00:00:00.000Z', '2024-03-02T00:00:00.000Z', '2024-03-01T23:59:00.000Z', null]);
    expect((await c.diary(user, { from: '2024-03-05', to: '2024-03-01' })).status).toBe(400);
    expect((await c.diary(user, { cursor: all.next_cursor, from: '2024-01-01' })).status).toBe(400);
  });

  it('tells plays in the change feed: play, the entry\'s upsert, play_delete; the entry\'s removal takes its plays', async () => {
    const user = newUserId();
    const id = await c.createItem(creator, { title: 'Works Feed' });
    const played = (await c.play(user, id, { watched_at: '2024-01-01' })).body.added[0];
    await c.play(user, id, { watched_at: '2024-01-02' });
    expect((await c.unplay(user, id, played.id)).status).toBe(200);
    // Compacted like the entries: a removed play is gone from the feed, its removal stays.
    const changes = (await c.changes(user)).body.changes as Array<{ type: string; play?: { id: string }; play_id?: string }>;
    expect(changes.map((change) => change.type)).toEqual(['upsert', 'play', 'play_delete']);
    expect(changes[2]!.play_id).toBe(played.id);
    expect((await request(h.app).delete(`/api/v1/movies/list/${id}`).set(asUser(user))).status).toBe(200);
    expect((await c.plays(user, id)).status).toBe(404);
    expect(await h.module.playsRepository.page(user, { from: undefined }, null, 10)).toEqual([]);
  });

  it('applies a batch item by item, reporting the unknown ones', async () => {
    const user = newUserId();
    const id = await c.createItem(creator, { title: 'Batch Known', external_ids: { imdb: 'tt7000001' } });
    const res = await c.batch(user, [
      { item_id: id, watched_at: '2024-01-01' },
      { external_ids: { imdb: 'tt7000001' }, watched_at: '2024-01-02' },
      { external_ids: { imdb: 'tt7999999' } },
      { item_id: 'f'.repeat(24) },
      { item_id: id, episodes: [{ season: 1, number: 1 }] },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ added: 2, existing: 0 });
    expect(res.body.not_found.map((n: { index: number }) => n.index)).toEqual([2, 3, 4]);
    expect((await c.batch(user, [{ item_id: id, watched_at: '2024-01-01' }])).body).toEqual({ added: 0, existing: 1, not_found: [] });
    expect((await c.batch(user, [])).status).toBe(400);
    expect((await c.batch(user, [{ item_id: id, external_ids: { imdb: 'tt7000001' } }])).status).toBe(400);
    expect((await h.module.playBatch.record(user, [{ item_id: id, watched_at: '2024-02-01' }], 'import:trakt')).added).toBe(1);
    expect((await c.plays(user, id)).body.data[0].source).toBe('import:trakt');
  });

  it('removes the plays with the account', async () => {
    const user = newUserId();
    const id = await c.createItem(creator, { title: 'Works Erased' });
    await c.play(user, id);
    await h.module.userDeletion.eraseUser(user);
    expect(await h.module.playsRepository.page(user, { from: undefined }, null, 10)).toEqual([]);
  });

  describe('the scrobble service\'s internal endpoint', () => {
    const internal = (user: string | null, id: string, body: object, secret = TEST_SECRET) => {
      const req = request(h.app).post(INTERNAL_PATHS.listPlays('movies', id)).set(INTERNAL_SECRET_HEADER, secret);
      return (user ? req.set(asUser(user)) : req).send(body);
    };

    it('records plays under the signed identity with the scrobble source, and starts an entry with start_only', async () => {
      const user = newUserId();
      const id = await c.createItem(creator, { title: 'Scrobbled' });
      const started = await internal(user, id, { source: 'scrobble:jellyfin', start_only: true });
      expect(started.status).toBe(200);
      expect(started.body).toMatchObject({ created: true, entry: { status: 'watching', item_id: id } });
      expect((await internal(user, id, { source: 'scrobble:jellyfin', start_only: true })).body.created).toBe(false);
      const played = await internal(user, id, { source: 'scrobble:jellyfin', source_event_id: 'jf-1' });
      expect(played.status).toBe(201);
      expect(played.body.added[0].source).toBe('scrobble:jellyfin');
    });

    it('needs the internal secret, a signed identity and a scrobble source', async () => {
      const user = newUserId();
      const id = await c.createItem(creator, { title: 'Scrobble Guarded' });
      expect((await internal(user, id, { source: 'scrobble:plex' }, 'wrong-secret')).status).toBe(401);
      expect((await internal(null, id, { source: 'scrobble:plex' })).status).toBe(401);
      expect((await internal(user, id, { source: 'manual' })).status).toBe(400);
      expect((await internal(user, id, {})).status).toBe(400);
      expect((await c.entry(user, id)).status).toBe(404);
    });
  });
});
