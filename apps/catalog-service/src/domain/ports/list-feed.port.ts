import type { FeedResume } from '../feed-position';
import type { ListChangeDocument } from '../records/list-change.record';
import type { ListEntryDocument } from '../records/list-entry.record';
import type { PlayDeletionDocument, PlayDocument } from '../records/play.record';

/**
 * One row of the feed: a list entry (its current state, at its `seq`), a tombstone of `list_changes` (a removal), a play
 * (`episodePresent`: the episode it names is still in the catalog) or a play's removal.
 */
export type FeedRow =
  | { kind: 'entry'; seq: number; item_id: ListEntryDocument['item_id']; entry: ListEntryDocument }
  | ({ kind: 'tombstone' } & Pick<ListChangeDocument, 'item_id' | 'seq' | 'changed_at'>)
  | { kind: 'play'; seq: number; item_id: PlayDocument['item_id']; play: PlayDocument; episodePresent: boolean }
  | { kind: 'play_delete'; seq: number; item_id: PlayDocument['item_id']; deletion: PlayDeletionDocument };

/** Rows of one write and one item come in this order; plays and removals by their play id. */
export const FEED_ROW_ORDER: Readonly<Record<FeedRow['kind'], number>> = { entry: 0, tombstone: 1, play: 2, play_delete: 3 };

/**
 * The first `limit` rows, and the rest of the last one's write and item: a position names a write and an
 * item, so a page never ends inside their rows (one write may add many plays of one item).
 */
export function wholeGroups(rows: readonly FeedRow[], limit: number): FeedRow[] {
  const last = rows[limit - 1];
  if (!last) return [...rows];
  let end = limit;
  while (end < rows.length && rows[end]!.seq === last.seq && rows[end]!.item_id.equals(last.item_id)) end++;
  return rows.slice(0, end);
}

/** The rows of a user's change feed in feed order (data/list-feed.reader.ts). */
export interface ListFeed {
  page(userId: string, after: FeedResume | null, maxSeq: number, limit: number): Promise<FeedRow[]>;
}
