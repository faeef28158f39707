import type { ListRepository } from './list.repository';
import type { FeedResume } from '../domain/feed-position';
import type { ListChangesRepository } from './list-changes.repository';
import type { StoreProfile } from './store-profile/store-profile';
import { FEED_ROW_ORDER, wholeGroups, type FeedRow, type ListFeed } from '../domain/ports/list-feed.port';
import type { PlaysRepository } from './plays.repository';
import type { EpisodesRepository } from './episodes.repository';

/** The tie-break of rows of one write and one item: their kind, then the play they are about. */
function rowOrder(a: FeedRow, b: FeedRow): number {
  const kinds = FEED_ROW_ORDER[a.kind] - FEED_ROW_ORDER[b.kind];
  if (kinds) return kinds;
  const playOf = (row: FeedRow) => (row.kind === 'play' ? row.play._id.toHexString() : row.kind === 'play_delete' ? row.deletion.play_id.toHexString() : '');
  return playOf(a).localeCompare(playOf(b));
}

/**
 * The rows of a user's change feed in feed order (`seq`, then item id): the list entries, which carry the
 * `seq` of their last write, merged with the tombstones of `list_changes` and the plays and their removals.
 * Each is read after the same position up to the same `maxSeq`, `limit` of each: the first `limit` of
 * the merge are the feed's.
 */
export class ListFeedReader implements ListFeed {
  constructor(
    private readonly lists: ListRepository,
    private readonly changes: ListChangesRepository,
    /** On servers that sort every match, pages read windows of sequence numbers, widened until full. */
    private readonly profile: StoreProfile,
    private readonly plays: PlaysRepository,
    /** Episodic categories: plays say whether the episode they name is still in the catalog. */
    private readonly episodes: EpisodesRepository | null,
  ) {}

  page(userId: string, after: FeedResume | null, maxSeq: number, limit: number): Promise<FeedRow[]> {
    return this.profile.feedPage(after, maxSeq, limit, (upTo) => this.pageUpTo(userId, after, upTo, limit));
  }

  private async pageUpTo(userId: string, after: FeedResume | null, maxSeq: number, limit: number): Promise<FeedRow[]> {
    const entries = await this.lists.feedPage(userId, after, maxSeq, limit);
    const tombstones = await this.changes.page(userId, after, maxSeq, limit);
    const plays = await this.plays.feedPage(userId, after, maxSeq, limit);
    const deletions = await this.plays.deletionsFeedPage(userId, after, maxSeq, limit);
    const named = plays.flatMap((play) => (play.episode_id ? [play.episode_id] : []));
    const present = new Set((await (this.episodes?.byIds(named) ?? Promise.resolve([]))).map((episode) => episode.id.toHexString()));
    const rows: FeedRow[] = [
      ...entries.map((entry) => ({ kind: 'entry' as const, seq: entry.seq, item_id: entry.item_id, entry })),
      ...tombstones.map((tombstone) => ({ kind: 'tombstone' as const, ...tombstone })),
      ...plays.map((play) => ({ kind: 'play' as const, seq: play.seq, item_id: play.item_id, play, episodePresent: play.episode_id !== null && present.has(play.episode_id.toHexString()) })),
      ...deletions.map((deletion) => ({ kind: 'play_delete' as const, seq: deletion.seq, item_id: deletion.item_id, deletion })),
    ];
    rows.sort((a, b) => a.seq - b.seq || a.item_id.toHexString().localeCompare(b.item_id.toHexString()) || rowOrder(a, b));
    return wholeGroups(rows, limit);
  }
}
