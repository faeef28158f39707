import type { mongo } from 'mongoose';
import { retryTransient, isDuplicateKeyError, type ShardingDeclaration } from '@mt/stores';
import type { Session } from './atomic';
import { COLLECTIONS, type CatalogDatabase } from './database';
import { ItemGuardsMissingError, type GuardHolder, type ItemGuardsStore } from '../domain/ports/item-guards.port';

/** Guards per catalog entry: batches of users in different shards do not conflict with each other. */
const GUARD_SHARDS = 8;

function guardKeys(itemIds: readonly mongo.ObjectId[], holder: GuardHolder): string[] {
  const shards = holder === 'all' ? Array.from({ length: GUARD_SHARDS }, (_, shard) => shard) : [shardOf(holder.userId)];
  return itemIds.flatMap((id) => shards.map((shard) => `${id.toHexString()}:${shard}`));
}

const shardOf = (userId: string) => [...userId].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 0) % GUARD_SHARDS;

/**
 * Unsharded: a few small documents per catalog entry that catalog changes write in their transactions; they
 * stay on the database's primary shard with the unsharded entries.
 */
export const ITEM_GUARD_SHARDING: ShardingDeclaration = { collection: COLLECTIONS.listItemGuards, unsharded: 'a few small documents per catalog entry, beside the unsharded entries' };

/** The guards of catalog entries that list writes and catalog changes meet on (`list_item_guards`). */
export class ItemGuardsRepository implements ItemGuardsStore {
  constructor(private readonly db: CatalogDatabase) {}

  private get guards() {
    return this.db.collection<{ _id: string; n: number }>(COLLECTIONS.listItemGuards);
  }

  /**
   * Creates the missing guards of these catalog entries, outside any transaction, before those that touch
   * them (withItemGuards): two transactions inserting one guard would meet on its _id as a duplicate key (an
   * error), where two updating it meet as a conflict, and one runs again.
   */
  async ensureGuards(itemIds: readonly mongo.ObjectId[], holder: GuardHolder): Promise<void> {
    if (!itemIds.length) return;
    const upserts = guardKeys(itemIds, holder).map((key) => ({ updateOne: { filter: { _id: key }, update: { $setOnInsert: { n: 0 } }, upsert: true } }));
    await retryTransient(async () => {
      try {
        await this.guards.bulkWrite(upserts, { ordered: false });
      } catch (error) {
        // Those a concurrent ensureGuards inserted first exist: that is all this is for.
        const writeErrors = (error as { writeErrors?: unknown[] }).writeErrors;
        if (!writeErrors?.length || !writeErrors.every(isDuplicateKeyError)) throw error;
      }
    });
  }

  /**
   * Writes guards of these catalog entries in the caller's transaction (`list_item_guards`, `{ _id:
   * "<entry id>:<shard>", n }`). An import batch adding entries to a list writes the guard of its user's
   * shard; a change that lists follow (an edit of title or year, a removal, a merge) writes every shard. So
   * a batch and a change that overlap conflict, and one runs again after the other and sees the entry
   * renamed, gone or merged, or the list entries the batch added; two batches of different users conflict
   * only when their users share a shard (1 in GUARD_SHARDS). (A single addition claims the catalog entry
   * itself, CatalogRepository.claimForList, in the statement that reads it.) Not the catalog entry for a
   * batch: a write of one rewrites its dozen index entries, a guard has none (figures in the README,
   * "Import").
   */
  async touchGuards(itemIds: readonly mongo.ObjectId[], holder: GuardHolder, session: Session): Promise<void> {
    if (!itemIds.length) return;
    const keys = guardKeys(itemIds, holder);
    const touched = await this.guards.updateMany({ _id: { $in: keys } }, { $inc: { n: 1 } }, { session });
    if (touched.matchedCount < keys.length) throw new ItemGuardsMissingError(`${keys.length - touched.matchedCount} guards missing`);
  }
}
