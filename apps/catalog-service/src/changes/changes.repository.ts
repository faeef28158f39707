import type { mongo } from 'mongoose';
import type { Session } from '../shared/atomic';
import { COLLECTIONS, type CatalogDatabase } from '../shared/database';

/**
 * The change feed of one user's list, compacted per item: one record per (user, item) holding the
 * latest change of that item — `upsert` (the entry exists; its state is read from `list_entries` when the
 * feed is served) or `delete` (a tombstone). Every list write rewrites the records of the items it
 * touched, in its own transaction, with the sequence number it took from the user's `list_owners`
 * document, so `seq` orders the records in commit order. Replaying every record in `seq` order gives
 * exactly the list; a superseded change of an item is not kept (its newer record replaces it), so the feed
 * grows with the list, not with the number of writes. Tombstones expire (TTL on `expires_at`).
 */
export interface ListChangeDocument {
  _id?: mongo.ObjectId;
  user_id: string;
  item_id: mongo.ObjectId;
  seq: number;
  type: 'upsert' | 'delete';
  changed_at: Date;
  /** Only on tombstones: when the TTL monitor may remove it. */
  expires_at?: Date;
}

export interface ChangePosition {
  seq: number;
  itemId: mongo.ObjectId | null;
}

export const LIST_CHANGE_INDEXES: mongo.IndexDescription[] = [
  // One record per (user, item): the compaction key, also how a write finds the record it replaces.
  { name: 'user_item_unique', key: { user_id: 1, item_id: 1 }, unique: true },
  // The feed: a user's records after a position, in commit order (ties of one write by item id).
  { name: 'user_seq', key: { user_id: 1, seq: 1, item_id: 1 } },
  // Tombstones only (upserts have no expires_at and never expire).
  { name: 'tombstone_ttl', key: { expires_at: 1 }, expireAfterSeconds: 0 },
];

/** A narrowed feed read first looks at one sequence number: a bulk write or an import batch may hold 500 records. */
const FIRST_WINDOW_SEQS = 1;
/** Each retry looks at a window at least this many times as wide. */
const WIDENING = 4;

export class ListChangesRepository {
  /**
   * Set at start-up on servers that sort every match instead of walking an index in order (see
   * RangeHints): feed pages then read windows of sequence numbers, widened until the page is full.
   */
  narrowBySeq = false;

  constructor(private readonly db: CatalogDatabase) {}

  private get changes() {
    return this.db.collection<ListChangeDocument>(COLLECTIONS.listChanges);
  }

  async ensureIndexes(): Promise<void> {
    await this.changes.createIndexes(LIST_CHANGE_INDEXES);
  }

  /** Inside a list write's transaction: the items now exist (added or changed) as of `seq`. */
  async recordUpserts(userId: string, seq: number, itemIds: readonly mongo.ObjectId[], at: Date, session: Session): Promise<void> {
    await this.write(userId, itemIds, { seq, type: 'upsert', changed_at: at }, null, session);
  }

  /**
   * The same records as `recordUpserts`, written in bulk statements instead of one upsert per item (each
   * costs a round of index work per item on the store): the import's batches and bulk-status, hundreds of
   * items. One `updateMany` moves the items' existing records; items without one (never recorded, or
   * tombstones already expired) are found by one read, only when there are some, and inserted at once.
   */
  async recordManyUpserts(userId: string, seq: number, itemIds: readonly mongo.ObjectId[], at: Date, session: Session): Promise<void> {
    if (!itemIds.length) return;
    const filter = { user_id: userId, item_id: { $in: [...itemIds] } };
    const { matchedCount } = await this.changes.updateMany(filter, { $set: { seq, type: 'upsert', changed_at: at }, $unset: { expires_at: '' } }, { session });
    if (matchedCount === itemIds.length) return;
    const recorded = matchedCount === 0 ? new Set<string>() : new Set((await this.changes.find(filter, { projection: { _id: 0, item_id: 1 }, session }).toArray()).map((doc) => doc.item_id.toHexString()));
    const missing = itemIds.filter((itemId) => !recorded.has(itemId.toHexString()));
    // The driver refuses an empty insert (an item named twice is matched once, so none may be missing).
    if (!missing.length) return;
    await this.changes.insertMany(
      missing.map((itemId) => ({ user_id: userId, item_id: itemId, seq, type: 'upsert' as const, changed_at: at })),
      { session, ordered: false },
    );
  }

  /** Inside a list write's transaction: the items left the list as of `seq`; the tombstone lives until `expiresAt`. */
  async recordDeletes(
    userId: string,
    seq: number,
    itemIds: readonly mongo.ObjectId[],
    at: Date,
    expiresAt: Date,
    session: Session,
  ): Promise<void> {
    await this.write(userId, itemIds, { seq, type: 'delete', changed_at: at }, expiresAt, session);
  }

  /**
   * Moderation, inside its transaction: one record per (user, item), each at its user's own `seq`, in one
   * bulk write whatever the number of lists touched.
   */
  async recordForMany(
    records: ReadonlyArray<{ userId: string; seq: number; itemId: mongo.ObjectId; type: 'upsert' | 'delete' }>,
    at: Date,
    expiresAt: Date,
    session: Session,
  ): Promise<void> {
    if (!records.length) return;
    await this.changes.bulkWrite(
      records.map(({ userId, seq, itemId, type }) => ({
        updateOne: {
          filter: { user_id: userId, item_id: itemId },
          update:
            type === 'delete'
              ? { $set: { seq, type, changed_at: at, expires_at: expiresAt } }
              : { $set: { seq, type, changed_at: at }, $unset: { expires_at: '' } },
          upsert: true,
        },
      })),
      { session, ordered: false },
    );
  }

  private async write(
    userId: string,
    itemIds: readonly mongo.ObjectId[],
    set: Pick<ListChangeDocument, 'seq' | 'type' | 'changed_at'>,
    expiresAt: Date | null,
    session: Session,
  ): Promise<void> {
    if (!itemIds.length) return;
    const update: mongo.UpdateFilter<ListChangeDocument> = expiresAt
      ? { $set: { ...set, expires_at: expiresAt } }
      : { $set: set, $unset: { expires_at: '' } };
    await this.changes.bulkWrite(
      itemIds.map((itemId) => ({ updateOne: { filter: { user_id: userId, item_id: itemId }, update, upsert: true } })),
      { session, ordered: false },
    );
  }

  /**
   * Up to `limit` records of the user strictly after `after` (from the start without it; after all of
   * `after.seq` when it names no item) and numbered at most `maxSeq`, in feed order.
   */
  async page(userId: string, after: ChangePosition | null, maxSeq: number, limit: number): Promise<ListChangeDocument[]> {
    if (!this.narrowBySeq) return this.pageUpTo(userId, after, maxSeq, limit);
    // Sequence numbers grow by one per write, but a bulk write or an import batch gives all its records (up to
    // 500) one, and compaction keeps only each item's latest record: how many records a window of sequence
    // numbers holds is known only by reading it. Start with one number and widen by what the last window
    // held, until the page is full or the window reaches maxSeq; every read is an index range of about a
    // page, and the last one is the plain read.
    let window = FIRST_WINDOW_SEQS;
    for (;;) {
      const upTo = Math.min(maxSeq, (after?.seq ?? 0) + window);
      const rows = await this.pageUpTo(userId, after, upTo, limit);
      if (rows.length >= limit || upTo >= maxSeq) return rows;
      const perSeq = Math.max(rows.length / window, 1 / WIDENING);
      window = Math.max(window * WIDENING, Math.ceil((2 * (limit - rows.length)) / perSeq));
    }
  }

  private pageUpTo(userId: string, after: ChangePosition | null, maxSeq: number, limit: number): Promise<ListChangeDocument[]> {
    const filter: mongo.Filter<ListChangeDocument> = { user_id: userId, seq: { $lte: maxSeq } };
    if (after?.itemId) filter.$or = [{ seq: { $gt: after.seq, $lte: maxSeq } }, { seq: after.seq, item_id: { $gt: after.itemId } }];
    else if (after) filter.seq = { $gt: after.seq, $lte: maxSeq };
    return this.changes
      .find(filter, { projection: { _id: 0, item_id: 1, seq: 1, type: 1, changed_at: 1 } })
      .sort({ seq: 1, item_id: 1 })
      .limit(limit)
      .toArray();
  }

  /** Account deletion: the feed goes with the list (API.md §10: deletion is not a change of the list). */
  async deleteAllOfUser(userId: string, session: Session): Promise<void> {
    await this.changes.deleteMany({ user_id: userId }, { session });
  }
}
