import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { newUserId } from '../../../test/identity-headers';
import { playsClient, weekly } from '../../../test/plays-fixtures';

describe('plays of tvshows', () => {
  let h: CatalogHarness;
  let c: ReturnType<typeof playsClient>;
  const creator = newUserId();
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'tvshows' });
    c = playsClient(h, 'tvshows');
  });
  afterAll(() => h.close());

  /** A show with 2 aired seasons of 3, one special and a third season not aired yet. */
  const show = async (title: string) => {
    const id = await c.createItem(creator, { title });
    expect((await c.putSeason(creator, id, 1, weekly(3, '2020-01-01'))).status).toBe(200);
    expect((await c.putSeason(creator, id, 2, weekly(3, '2021-01-01'))).status).toBe(200);
    expect((await c.putSeason(creator, id, 0, weekly(1, '2020-06-01'))).status).toBe(200);
    expect((await c.putSeason(creator, id, 3, weekly(2, null))).status).toBe(200);
    return id;
  };

  it('adds a play of one episode: the show joins the list as watching, progress 1, dates from the play', async () => {
    const user = newUserId();
    const id = await show('Plays Join');
    const res = await c.play(user, id, { episodes: [{ season: 1, number: 1 }], watched_at: '2024-03-02' });
    expect(res.status).toBe(201);
    expect(res.body.existing).toBe(0);
    expect(res.body.added).toEqual([
      expect.objectContaining({ item_id: id, season: 1, number: 1, watched_at: '2024-03-02T00:00:00.000Z', precision: 'day', cycle: 1, source: 'manual', episode: expect.objectContaining({ season: 1, number: 1 }) }),
    ]);
    const entry = (await c.entry(user, id)).body;
    expect(entry).toMatchObject({ status: 'watching', progress: 1, started_at: '2024-03-02', finished_at: null, cycle: 1 });
  });

  it('completes a show only when every aired regular episode is played (specials and unaired ones aside)', async () => {
    const user = newUserId();
    const id = await show('Plays Complete');
    expect((await c.play(user, id, { seasons: [0], watched_at: '2024-01-01' })).status).toBe(201);
    expect((await c.entry(user, id)).body).toMatchObject({ status: 'watching', progress: 0 });
    expect((await c.play(user, id, { seasons: [1], watched_at: '2024-01-02' })).body.added).toHaveLength(3);
    expect((await c.entry(user, id)).body).toMatchObject({ status: 'watching', progress: 3 });
    const last = await c.play(user, id, { all_aired: true, watched_at: '2024-01-05' });
    expect(last.body.added).toHaveLength(6);
    expect((await c.entry(user, id)).body).toMatchObject({ status: 'completed', progress: 6, finished_at: '2024-01-05', started_at: '2024-01-01' });
    const progress = (await c.progress(user, id)).body;
    expect(progress).toMatchObject({ cycle: 1, aired: 6, completed: 6, next_episode: expect.objectContaining({ season: 3, number: 1 }) });
    expect(progress.seasons.map((s: { number: number; aired: number; completed: number }) => [s.number, s.aired, s.completed])).toEqual([[0, 1, 1], [1, 3, 3], [2, 3, 3], [3, 0, 0]]);
  });

  it('starts a rewatch from completed: a new cycle, progress 0, earlier plays kept; 409 from watching', async () => {
    const user = newUserId();
    const id = await show('Plays Rewatch');
    expect((await c.play(user, id, { all_aired: true, watched_at: '2024-01-05' })).status).toBe(201);
    const rewatch = await c.rewatch(user, id);
    expect(rewatch.status).toBe(200);
    expect(rewatch.body).toMatchObject({ status: 'watching', progress: 0, cycle: 2, repeat_count: 1, finished_at: null });
    expect((await c.rewatch(user, id)).status).toBe(409);
    expect((await c.play(user, id, { episodes: [{ season: 1, number: 1 }] })).body.added[0].cycle).toBe(2);
    expect((await c.plays(user, id, { limit: 100 })).body.data).toHaveLength(7);
    expect((await c.progress(user, id)).body).toMatchObject({ cycle: 2, completed: 1, next_episode: expect.objectContaining({ season: 1, number: 2 }) });
  });

  it('removes a play: progress counted again, a completed show no longer complete goes back to watching', async () => {
    const user = newUserId();
    const id = await show('Plays Remove');
    const added = (await c.play(user, id, { all_aired: true, watched_at: '2024-01-05' })).body.added as Array<{ id: string }>;
    expect((await c.entry(user, id)).body.status).toBe('completed');
    expect((await c.unplay(user, id, added[0]!.id)).status).toBe(200);
    expect((await c.entry(user, id)).body).toMatchObject({ status: 'watching', progress: 5 });
    expect((await c.unplay(user, id, added[0]!.id)).status).toBe(404);
    expect((await c.unplay(newUserId(), id, added[1]!.id)).status).toBe(404);
  });

  it('lists plays newest first, unknown last, by cursor', async () => {
    const user = newUserId();
    const id = await show('Plays Order');
    await c.play(user, id, { episodes: [{ season: 1, number: 1 }], watched_at: 'unknown' });
    await c.play(user, id, { episodes: [{ season: 1, number: 2 }], watched_at: '2024-02-01T10:00:00Z' });
    await c.play(user, id, { episodes: [{ season: 1, number: 3 }], watched_at: '2024-03-01' });
    await c.play(user, id, { episodes: [{ season: 2, number: 1 }], watched_at: 'release' });
    const first = await c.plays(user, id, { limit: 2, cursor: 'start' });
    expect(first.status).toBe(200);
    const second = await c.plays(user, id, { limit: 2, cursor: first.body.next_cursor });
    expect(second.body.next_cursor).toBeNull();
    const order = [...first.body.data, ...second.body.data].map((p: { season: number; number: number }) => `${p.season}x${p.number}`);
    expect(order).toEqual(['1x3', '1x2', '2x1', '1x1']);
    expect(second.body.data[0]).toMatchObject({ precision: 'release', watched_at: '2021-01-01T00:00:00.000Z' });
  });
});
