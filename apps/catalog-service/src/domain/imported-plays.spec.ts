import { playsToAdd, type PlayFacts } from './imported-plays';

const play = (season: number | null, number: number | null, watched_at: string | null): PlayFacts => ({ season, number, watched_at });

describe('playsToAdd', () => {
  it('adds nothing the list already has, counting repeated plays one by one', () => {
    const file = [play(1, 1, null), play(1, 1, null), play(1, 1, '2026-01-01T20:00:00.000Z'), play(null, null, null)];
    expect(playsToAdd(file, [])).toEqual(file);
    expect(playsToAdd(file, file)).toEqual([]);
    expect(playsToAdd(file, [play(1, 1, null)])).toEqual([play(1, 1, null), play(1, 1, '2026-01-01T20:00:00.000Z'), play(null, null, null)]);
  });

  it('tells episodes, times and whole works apart', () => {
    const listed = [play(1, 1, '2026-01-01T20:00:00.000Z')];
    expect(playsToAdd([play(1, 2, '2026-01-01T20:00:00.000Z'), play(2, 1, '2026-01-01T20:00:00.000Z'), play(1, 1, '2026-01-02T20:00:00.000Z'), play(null, null, '2026-01-01T20:00:00.000Z')], listed)).toHaveLength(4);
  });
});
