import { isDuplicateKeyError, type ShardingDeclaration } from '@mt/stores';
import type { Session } from './atomic';
import { COLLECTIONS, type CatalogDatabase } from './database';
import { ListOwnerDeletedError, type ListOwnersStore } from '../domain/ports/list-owners-store.port';

/**
 * One document per user who has (had) a list in this category: the serialisation point of that list.
 * Every list write updates it in the write's own transaction (so two writes of one user, or a write and
 * the account's deletion, conflict and run one after the other), and `seq` numbers the writes in commit
 * order. The account's deletion sets `deleted_at` in the transaction that removes the entries; a write
 * that comes after finds it and fails. Kept after the deletion (a few bytes per deleted user).
 */
export interface ListOwnerDocument {
  _id: string;
  seq: number;
  deleted_at: Date | null;
  /**
   * The list's statistics counters (see domain/list-stats.ts), `$inc`ed in every write's transaction. Every
   * document is created with them; those created before they existed got theirs from start-up step
   * migrations/006-list-counters.ts.
   */
  stats: NestedCounters;
}

/** One document per user, its `_id` the user id: it lives on the shard of the user's list. */
export const LIST_OWNER_SHARDING: ShardingDeclaration = { collection: COLLECTIONS.listOwners, shardKey: { _id: 1 }, scatterGather: [] };

/** The counters as stored: `stats.status.watching`, `stats.completed.2024`, ... */
export type NestedCounters = { [key: string]: number | NestedCounters };

/** `{ status: { watching: 2 } }` → `{ 'status.watching': 2 }`. */
function flatten(counters: NestedCounters, prefix = ''): Record<string, number> {
  const flat: Record<string, number> = {};
  for (const [key, value] of Object.entries(counters)) {
    if (typeof value === 'number') flat[prefix + key] = value;
    else Object.assign(flat, flatten(value, `${prefix}${key}.`));
  }
  return flat;
}

/** Owners known to have their document, remembered to save a round trip per write (cleared when full). */
const KNOWN_OWNERS_LIMIT = 50_000;

export class ListOwnersRepository implements ListOwnersStore {
  /** Owner documents are never removed, so "it exists" stays true once seen. */
  private readonly known = new Set<string>();

  constructor(private readonly db: CatalogDatabase) {}

  private get owners() {
    return this.db.collection<ListOwnerDocument>(COLLECTIONS.listOwners);
  }

  /**
   * Creates the user's document if it is missing, outside any transaction: two first writes of a new user
   * then meet on an existing document (a retried conflict), never on a duplicate insert.
   */
  async ensure(userId: string): Promise<void> {
    if (this.known.has(userId)) return;
    try {
      await this.owners.updateOne({ _id: userId }, { $setOnInsert: { seq: 0, deleted_at: null, stats: {} } }, { upsert: true });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error; // a concurrent ensure() created it
    }
    if (this.known.size >= KNOWN_OWNERS_LIMIT) this.known.clear();
    this.known.add(userId);
  }

  /**
   * Inside a list write's transaction, first: takes the next sequence number of the user's list.
   * Throws ListOwnerDeletedError when the account was deleted (ensure() has run, so "no match" means that).
   */
  async recordWrite(userId: string, session: Session): Promise<number> {
    const owner = await this.owners.findOneAndUpdate(
      { _id: userId, deleted_at: null },
      { $inc: { seq: 1 } },
      { session, returnDocument: 'after', projection: { seq: 1 } },
    );
    if (!owner) throw new ListOwnerDeletedError(`the owner of this list was deleted`);
    return owner.seq;
  }

  /**
   * Inside a transaction that changes other users' lists (moderation): takes the next sequence number of
   * `userId`'s list whatever its state, creating the document for a list older than the owner documents.
   */
  async recordForeignWrite(userId: string, session: Session): Promise<number> {
    const owner = await this.owners.findOneAndUpdate(
      { _id: userId },
      { $inc: { seq: 1 }, $setOnInsert: { deleted_at: null, stats: {} } },
      { session, upsert: true, returnDocument: 'after', projection: { seq: 1 } },
    );
    return owner?.seq ?? 1;
  }

  /**
   * recordForeignWrite for many users at once (a moderation touching thousands of lists): one bulk write
   * and one read, not two round trips per user. Returns each user's new sequence number.
   */
  async recordForeignWrites(userIds: readonly string[], session: Session): Promise<Map<string, number>> {
    if (!userIds.length) return new Map();
    await this.owners.bulkWrite(
      userIds.map((userId) => ({
        updateOne: { filter: { _id: userId }, update: { $inc: { seq: 1 }, $setOnInsert: { deleted_at: null, stats: {} } }, upsert: true },
      })),
      { session, ordered: false },
    );
    const rows = await this.owners.find({ _id: { $in: [...userIds] } }, { projection: { seq: 1 }, session }).toArray();
    return new Map(rows.map((row) => [row._id, row.seq]));
  }

  /** addToStats for many users in one bulk write (moderation). */
  async addToStatsOfMany(deltas: ReadonlyArray<{ userId: string; delta: Record<string, number> }>, session: Session): Promise<void> {
    const writes = deltas
      .filter(({ delta }) => Object.keys(delta).length)
      .map(({ userId, delta }) => ({
        updateOne: {
          filter: { _id: userId },
          update: { $inc: Object.fromEntries(Object.entries(delta).map(([key, value]) => [`stats.${key}`, value])) },
        },
      }));
    if (writes.length) await this.owners.bulkWrite(writes, { session, ordered: false });
  }

  /** Inside a list write's transaction: adds `delta` to the counters. */
  async addToStats(userId: string, delta: Record<string, number>, session: Session): Promise<void> {
    const keys = Object.keys(delta);
    if (!keys.length) return;
    const inc = Object.fromEntries(keys.map((key) => [`stats.${key}`, delta[key]]));
    await this.owners.updateOne({ _id: userId }, { $inc: inc }, { session });
  }

  /**
   * The counters (flat keys; with `keys`, only those), `null` when there is no document (a user who never
   * wrote to the list). A list page needs two of the counters: the rest (a year per completion year) is
   * neither read nor flattened.
   */
  async stats(userId: string, keys?: readonly string[]): Promise<Record<string, number> | null> {
    const projection = keys ? Object.fromEntries(keys.map((key) => [`stats.${key}`, 1])) : { stats: 1 };
    const owner = await this.owners.findOne({ _id: userId }, { projection });
    return owner ? flatten(owner.stats) : null;
  }

  /**
   * The last committed sequence number of the user's list (0 before the first write). A transaction
   * increments it first and commits in sequence order, so every change numbered up to it is committed.
   */
  async committedSeq(userId: string): Promise<number> {
    const owner = await this.owners.findOne({ _id: userId }, { projection: { seq: 1 } });
    return owner?.seq ?? 0;
  }

  /**
   * Inside the deletion's transaction: from its commit on, every write of the user fails. Idempotent: a
   * redelivered deletion keeps the first `deleted_at`.
   */
  async markDeleted(userId: string, deletedAt: Date, session: Session): Promise<void> {
    // The list goes in the same transaction: its counters are reset with it (the page total reads them).
    await this.owners.updateOne({ _id: userId, deleted_at: null }, { $set: { deleted_at: deletedAt, stats: {} }, $inc: { seq: 1 } }, { session });
  }
}
