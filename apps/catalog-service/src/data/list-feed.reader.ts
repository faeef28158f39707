import type { ListRepository } from './list.repository';
import type { FeedResume } from '../domain/feed-position';
import type { ListChangesRepository } from './list-changes.repository';
import type { StoreProfile } from './store-profile/store-profile';
import type { FeedRow, ListFeed } from '../domain/ports/list-feed.port';

/**
 * The rows of a user's change feed in feed order (`seq`, then item id): the list entries, which carry the
 * `seq` of their last write, merged with the tombstones (and legacy upsert records) of `list_changes`.
 * Both are read after the same position up to the same `maxSeq`, `limit` of each: the first `limit` of
 * the merge are the feed's.
 */
export class ListFeedReader implements ListFeed {
  constructor(
    private readonly lists: ListRepository,
    private readonly changes: ListChangesRepository,
    /** On servers that sort every match, pages read windows of sequence numbers, widened until full. */
    private readonly profile: StoreProfile,
  ) {}

  page(userId: string, after: FeedResume | null, maxSeq: number, limit: number): Promise<FeedRow[]> {
    return this.profile.feedPage(after, maxSeq, limit, (upTo) => this.pageUpTo(userId, after, upTo, limit));
  }

  private async pageUpTo(userId: string, after: FeedResume | null, maxSeq: number, limit: number): Promise<FeedRow[]> {
    const entries = await this.lists.feedPage(userId, after, maxSeq, limit);
    const records = await this.changes.page(userId, after, maxSeq, limit);
    const rows: FeedRow[] = [
      ...entries.map((entry) => ({ kind: 'entry' as const, seq: entry.seq, item_id: entry.item_id, entry })),
      ...records.map((record) => ({ kind: 'record' as const, ...record })),
    ];
    rows.sort((a, b) => a.seq - b.seq || a.item_id.toHexString().localeCompare(b.item_id.toHexString()) || (a.kind === 'entry' ? -1 : 1));
    // A legacy record folded into its entry's seq while it was still kept: the entry tells it once (read shim
    // of migrations/002-legacy-upserts.ts: removable after 1.0.0, with the step).
    const distinct = rows.filter((row, i) => {
      const previous = rows[i - 1];
      return !previous || row.seq !== previous.seq || !row.item_id.equals(previous.item_id);
    });
    return distinct.slice(0, limit);
  }
}
