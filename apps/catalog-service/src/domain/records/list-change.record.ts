import type { Id } from '../ids';

/**
 * The removals of the change feed of one user's list, compacted per item: one tombstone per (user, item)
 * removed from the list, `{ seq, type: 'delete', changed_at, expires_at }`, written in the removal's
 * transaction with the sequence number it took from the user's `list_owners` document. The feed's upserts
 * are the list entries themselves (each carries the `seq` of its last write, `ListEntryDocument.seq`): a
 * write of 500 entries is one statement, not one more per entry here. An item added again after its
 * removal has its tombstone (older `seq`) and its entry (newer) in the feed until the tombstone expires
 * (TTL on `expires_at`): replayed in order they give the entry. (The version before kept upserts here too:
 * migrations/002-legacy-upserts.ts folds them into the entries.)
 */
export interface ListChangeDocument {
  _id?: Id;
  user_id: string;
  item_id: Id;
  seq: number;
  type: 'delete';
  changed_at: Date;
  /** When the TTL monitor may remove it. */
  expires_at: Date;
}
