import type { Id } from '../ids';
import type { Session } from './atomic.port';
import type { PlayTallies, Runtimes } from '../play-stats';

/** One play as the list's exports write it (`@mt/importers` ExportPlay). */
export interface ExportedPlay {
  season: number | null;
  number: number | null;
  watched_at: string | null;
  precision: 'exact' | 'day' | 'unknown' | 'release';
  cycle: number;
  source: string;
}

/** What the list's exports read of its plays (data/list-plays.reader.ts). */
export interface ExportPlaysReader {
  /** The plays of these items, by the item's hex id, oldest first by cycle then `watched_at` (unknown first in its cycle). */
  ofItems(userId: string, itemIds: readonly Id[], session?: Session): Promise<Map<string, ExportedPlay[]>>;
}

/** What the list statistics read of the plays and of the runtimes they are counted by (data/list-plays.reader.ts). */
export interface PlayStatsReader {
  tallies(userId: string): Promise<PlayTallies>;
  /** Runtimes of works (the category's runtime field, when it has one). */
  workRuntimes(itemIds: readonly Id[]): Promise<Runtimes>;
  episodeRuntimes(episodeIds: readonly Id[]): Promise<Runtimes>;
}
