import type { Id } from '../ids';
import type { PlayTallies, Runtimes } from '../play-stats';

/** What the list statistics read of the plays and of the runtimes they are counted by (data/play-stats.reader.ts). */
export interface PlayStatsReader {
  tallies(userId: string): Promise<PlayTallies>;
  /** Runtimes of works (the category's runtime field, when it has one). */
  workRuntimes(itemIds: readonly Id[]): Promise<Runtimes>;
  episodeRuntimes(episodeIds: readonly Id[]): Promise<Runtimes>;
}
