import type { Id } from './ids';

/** How many plays the user has of one work, or of one episode of it (`episodeId`). */
export interface PlayedTally {
  itemId: Id;
  episodeId: Id | null;
  /** Set for episode plays, also when the episode was later removed from the catalog. */
  season: number | null;
  plays: number;
}

/** What the statistics read of a user's plays: counts by month of `watched_at` and by what was played. */
export interface PlayTallies {
  /** `YYYY-MM` → plays in that month (UTC); plays whose time is unknown are in no month. */
  byMonth: Record<string, number>;
  byPlayed: PlayedTally[];
}

/** Runtimes in minutes, by the hex id of a work or an episode; an unknown runtime is absent. */
export type Runtimes = ReadonlyMap<string, number>;

/** The play statistics of docs/api.md "Statistics" (`episodes_watched` for episodic categories only). */
export interface PlayStats {
  plays_by_month: Record<string, number>;
  minutes_watched: number;
  episodes_watched?: number;
}

/**
 * Runtime × plays: an episode's play by the episode's own runtime, a work's play by the work's; a play whose
 * runtime is unknown (or of an episode since removed) adds nothing. Episode plays count rewatches.
 */
export function toPlayStats(tallies: PlayTallies, runtimes: Runtimes, episodic: boolean): PlayStats {
  let minutes = 0;
  let episodes = 0;
  for (const tally of tallies.byPlayed) {
    const runtime = runtimes.get((tally.episodeId ?? tally.itemId).toHexString()) ?? 0;
    minutes += runtime * tally.plays;
    if (tally.season !== null) episodes += tally.plays;
  }
  const months = Object.keys(tallies.byMonth).sort();
  return {
    plays_by_month: Object.fromEntries(months.map((month) => [month, tallies.byMonth[month] ?? 0])),
    minutes_watched: minutes,
    ...(episodic ? { episodes_watched: episodes } : {}),
  };
}
