import { toListStats, type ListStats } from '../../domain/list-stats';
import { toPlayStats, type PlayStats } from '../../domain/play-stats';
import type { PlayStatsReader } from '../../domain/ports/list-plays-reader.port';
import type { ListOwnersStore } from '../../domain/ports/list-owners-store.port';

/**
 * The counters live on the user's `list_owners` document and every list write changes them in
 * its own transaction, so one read of one document is exact at that moment and costs the same for 10 or
 * 50 000 entries.
 */
export interface ListStatsDeps {
  owners: ListOwnersStore;
  plays: PlayStatsReader;
  /** Plays of the category name episodes: `episodes_watched` is counted. */
  episodic: boolean;
}

/**
 * The play statistics are grouped from the plays when read (runtimes can change after a play, so minutes are
 * not kept as counters): one grouping per month and per work or episode played.
 */
export class ListStatsService {
  private readonly owners: ListOwnersStore;
  private readonly plays: PlayStatsReader;
  private readonly episodic: boolean;

  constructor(deps: ListStatsDeps) {
    this.owners = deps.owners;
    this.plays = deps.plays;
    this.episodic = deps.episodic;
  }

  async stats(userId: string): Promise<ListStats & PlayStats> {
    const [list, plays] = await Promise.all([this.listStats(userId), this.playStats(userId)]);
    return { ...list, ...plays };
  }

  private async playStats(userId: string): Promise<PlayStats> {
    const tallies = await this.plays.tallies(userId);
    const works = tallies.byPlayed.filter((tally) => tally.episodeId === null).map((tally) => tally.itemId);
    const episodes = tallies.byPlayed.flatMap((tally) => (tally.episodeId === null ? [] : [tally.episodeId]));
    const [workRuntimes, episodeRuntimes] = await Promise.all([this.plays.workRuntimes(works), this.plays.episodeRuntimes(episodes)]);
    return toPlayStats(tallies, new Map([...workRuntimes, ...episodeRuntimes]), this.episodic);
  }

  private async listStats(userId: string): Promise<ListStats> {
    // No owner document: the user never wrote to this list.
    return toListStats((await this.owners.stats(userId)) ?? {});
  }
}
