import type { FeedResume } from '../feed-position';
import type { ListChangeDocument } from '../records/list-change.record';
import type { ListEntryDocument } from '../records/list-entry.record';

/** One row of the feed: a list entry (its current state, at its `seq`) or a record of `list_changes`. */
export type FeedRow = { kind: 'entry'; seq: number; item_id: ListEntryDocument['item_id']; entry: ListEntryDocument } | ({ kind: 'record' } & ListChangeDocument);

/** The rows of a user's change feed in feed order (data/list-feed.reader.ts). */
export interface ListFeed {
  page(userId: string, after: FeedResume | null, maxSeq: number, limit: number): Promise<FeedRow[]>;
}
