import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { newUserId } from '../../../test/identity-headers';
import { playsClient, weekly } from '../../../test/plays-fixtures';

/** Trials of the races below: a few in `npm test`, many with RACE_TRIALS (npm run race). */
const RACE_TRIALS = Number(process.env['RACE_TRIALS'] ?? 3);
/** Steps of the randomized sequence (more with PLAY_SEQUENCE_STEPS). */
const STEPS = Number(process.env['PLAY_SEQUENCE_STEPS'] ?? 80);

/** A small seeded PRNG (mulberry32): the same seed gives the same sequence, so a failure can be replayed. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Play = { id: string; season: number; number: number; cycle: number };
type Entry = { status: string; progress: number; cycle: number };

const REGULAR_AIRED = ['1x1', '1x2', '1x3', '2x1', '2x2'];

/** What the plays say, recomputed from scratch: the show's progress and whether it is complete, in `cycle`. */
function recompute(plays: readonly Play[], cycle: number) {
  const played = new Set(plays.filter((p) => p.cycle === cycle && p.season > 0).map((p) => `${p.season}x${p.number}`));
  return { progress: played.size, complete: REGULAR_AIRED.every((key) => played.has(key)), next: ['1x1', '1x2', '1x3', '2x1', '2x2', '2x3'].find((key) => !played.has(key)) ?? null };
}

describe('plays, rewatches and status changes stay consistent', () => {
  let h: CatalogHarness;
  let other: CatalogHarness;
  let c: ReturnType<typeof playsClient>;
  let c2: ReturnType<typeof playsClient>;
  const creator = newUserId();
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'tvshows' });
    // A second instance on the same database: races between instances meet in the store, not in one process.
    other = await startCatalogHarness({ category: 'tvshows', dbName: h.dbName });
    c = playsClient(h, 'tvshows');
    c2 = playsClient(other, 'tvshows');
  });
  afterAll(async () => {
    await other.close({ keepDatabase: true });
    await h.close();
  });

  /** Season 1: 3 aired; season 2: 2 aired and 1 not yet; one aired special. */
  const show = async (title: string) => {
    const id = await c.createItem(creator, { title });
    await c.putSeason(creator, id, 1, weekly(3, '2020-01-01'));
    await c.putSeason(creator, id, 2, [...weekly(2, '2021-01-01'), { number: 3, air_date: '2999-01-01' }]);
    await c.putSeason(creator, id, 0, weekly(1, '2020-06-01'));
    return id;
  };

  it('derives status and progress equal to a recomputation from the plays after every step of a random sequence', async () => {
    const seed = Number(process.env['PLAY_SEQUENCE_SEED'] ?? 20261202);
    const random = prng(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const user = newUserId();
    const id = await show('Random Sequence');
    const plays: Play[] = [];
    let model: Entry | null = null;
    const episodes = [[0, 1], [1, 1], [1, 2], [1, 3], [2, 1], [2, 2]] as const;
    for (let step = 0; step < STEPS; step++) {
      const roll = random();
      let where = `seed ${seed}, step ${step}`;
      if (roll < 0.55 || !model) {
        const chosen = [pick(episodes), pick(episodes)];
        const res = await pick([c, c2]).play(user, id, { episodes: chosen.map(([season, number]) => ({ season, number })), watched_at: pick(['now', 'unknown', '2024-05-01', 'release']) });
        expect({ where, status: res.status }).toEqual({ where, status: 201 });
        for (const play of res.body.added as Play[]) plays.push(play);
        const cycle: number = model?.cycle ?? 1;
        const after = recompute(plays, cycle);
        // Plays already recorded (same episode, same instant) change nothing.
        if (!res.body.added.length && model) continue;
        const started: string = model?.status === 'plan_to_watch' || !model ? 'watching' : model.status;
        model = { cycle, progress: after.progress, status: started !== 'completed' && after.complete ? 'completed' : started };
      } else if (roll < 0.7 && plays.length) {
        const victim = pick(plays);
        where += ` delete ${victim.season}x${victim.number}`;
        expect((await c.unplay(user, id, victim.id)).status).toBe(200);
        plays.splice(plays.indexOf(victim), 1);
        const current: Entry = model;
        const after = recompute(plays, current.cycle);
        model = { ...current, progress: after.progress, status: current.status === 'completed' && !after.complete ? 'watching' : current.status };
      } else if (roll < 0.85) {
        const res = await c.rewatch(user, id);
        const allowed = model.status === 'completed' || model.status === 'dropped';
        expect({ where, status: res.status }).toEqual({ where, status: allowed ? 200 : 409 });
        if (allowed) model = { status: 'watching', progress: 0, cycle: model.cycle + 1 };
      } else {
        const status = pick(['watching', 'completed', 'on_hold', 'dropped', 'plan_to_watch']);
        const current: Entry = model;
        where += ` patch ${status} from ${current.status}`;
        expect((await c.patch(user, id, { status })).status).toBe(200);
        model = { ...current, status };
      }
      const entry = (await c.entry(user, id)).body as Entry;
      const progress = (await c.progress(user, id)).body as { completed: number; cycle: number; next_episode: { season: number; number: number } | null };
      const expected = recompute(plays, model.cycle);
      const actualNext = progress.next_episode && `${progress.next_episode.season}x${progress.next_episode.number}`;
      expect({ where, status: entry.status, progress: entry.progress, cycle: entry.cycle, completed: progress.completed, next: actualNext }).toEqual({
        where,
        status: model.status,
        progress: model.progress,
        cycle: model.cycle,
        completed: expected.progress,
        next: expected.next,
      });
    }
  }, 30_000 + STEPS * 1000);

  it('gives 20 concurrent plays with one source_event_id one set of plays', async () => {
    for (let trial = 0; trial < RACE_TRIALS; trial++) {
      const user = newUserId();
      const id = await show(`Event Race ${trial}`);
      const body = { episodes: [{ season: 1, number: 1 }, { season: 1, number: 2 }], source_event_id: `race-${trial}` };
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? c : c2).play(user, id, body)));
      for (const res of results) expect([201, 503]).toContain(res.status);
      const winners = results.filter((res) => res.status === 201 && res.body.added.length);
      expect(winners).toHaveLength(1);
      const listed = (await c.plays(user, id, { limit: 100 })).body.data as Play[];
      expect(listed).toHaveLength(2);
      expect((await c.entry(user, id)).body.progress).toBe(2);
    }
  });

  it('ends consistent when plays of different episodes race a rewatch and a manual status change', async () => {
    for (let trial = 0; trial < RACE_TRIALS; trial++) {
      const user = newUserId();
      const id = await show(`Rewatch Race ${trial}`);
      expect((await c.play(user, id, { all_aired: true, watched_at: '2024-01-01' })).status).toBe(201);
      const results = await Promise.all([
        c.play(user, id, { episodes: [{ season: 1, number: 1 }] }),
        c2.play(user, id, { episodes: [{ season: 1, number: 2 }] }),
        c.rewatch(user, id),
        c2.patch(user, id, { status: 'on_hold' }),
        c2.play(user, id, { episodes: [{ season: 2, number: 1 }] }),
      ]);
      for (const res of results) expect([200, 201, 409, 503]).toContain(res.status);
      const entry = (await c.entry(user, id)).body as Entry;
      const plays = (await c.plays(user, id, { limit: 100 })).body.data as Play[];
      const expected = recompute(plays, entry.cycle);
      expect(entry.progress).toBe(expected.progress);
      expect(Math.max(...plays.map((p) => p.cycle))).toBeLessThanOrEqual(entry.cycle);
      expect((await c.progress(user, id)).body.completed).toBe(expected.progress);
      if (entry.status === 'completed') expect(expected.complete || results[3]!.status === 200).toBe(true);
    }
  });

  it('lists up next: watching shows with an aired next episode, most recently played first', async () => {
    const user = newUserId();
    const [a, b, done] = [await show('Up Next A'), await show('Up Next B'), await show('Up Next Done')];
    await c.play(user, a, { episodes: [{ season: 1, number: 1 }], watched_at: '2024-01-01' });
    await c.play(user, b, { episodes: [{ season: 1, number: 1 }, { season: 1, number: 2 }], watched_at: '2024-02-01' });
    await c.play(user, done, { all_aired: true, watched_at: '2024-03-01' });
    const page = (await c.upNext(user, { limit: 1 })).body;
    const rest = (await c.upNext(user, { limit: 1, cursor: page.next_cursor })).body;
    expect([...page.data, ...rest.data].map((row: { item: { id: string }; next_episode: { season: number; number: number }; completed: number; aired: number }) => [row.item.id, `${row.next_episode.season}x${row.next_episode.number}`, row.completed, row.aired])).toEqual([
      [b, '1x3', 2, 5],
      [a, '1x2', 1, 5],
    ]);
    expect(rest.next_cursor).toBeNull();
  });
});
