import { isDuplicateKeyError, type ShardingDeclaration } from '@mt/stores';
import { mongo } from 'mongoose';
import type { Session } from './atomic';
import { COLLECTIONS, type CatalogDatabase } from './database';
import { PROGRESS_LENGTH_FIELDS } from '@mt/domain';
import { DuplicateEntryError, DuplicateExternalIdError, type EntryChange, type EntryDocument, type ItemSummaryRow } from '../domain/records/catalog-entry.record';
import { anyShard, COUNTER_SHARDS, type CounterDocument } from './catalog-counter';
import type { CatalogStore } from '../domain/ports/catalog-store.port';
import type { EntryFilter } from '../domain/catalog-listing';

// The length of works counted in pages (books): list entries show their progress as a percentage of it.
const ITEM_SUMMARY = { _id: 1, title: 1, year: 1, title_key: 1, poster_url: 1, [`own.${PROGRESS_LENGTH_FIELDS.pages}`]: 1 } as const;

const EXTERNAL_IDS_INDEX = 'external_ids_unique';

/** The data layer's reading of E11000: which unique rule the write broke (anything else is rethrown as is). */
export function duplicateError(error: unknown): unknown {
  if (!isDuplicateKeyError(error)) return error;
  const { keyPattern, message } = error as { keyPattern?: Record<string, unknown>; message?: string };
  const external = (keyPattern && 'external_keys' in keyPattern) || (message ?? '').includes(EXTERNAL_IDS_INDEX);
  return external ? new DuplicateExternalIdError('external id taken', { cause: error }) : new DuplicateEntryError('duplicate entry', { cause: error });
}

/**
 * Indexes of the entries collection. Every listing sort has an index ending in `_id` (the tie-break) that
 * MongoDB can walk in either direction; `year` sorts use `year_missing` first so entries without a year
 * come last in both orders (hence one index per direction).
 */
export const ENTRY_INDEXES: mongo.IndexDescription[] = [
  // Duplicates: same folded title and same year (null = no year, and null equals null in a unique index).
  { name: 'title_year_unique', key: { title_key: 1, year: 1 }, unique: true },
  { name: 'title_sort', key: { title_key: 1, _id: 1 } },
  { name: 'year_sort_asc', key: { year_missing: 1, year: 1, _id: 1 } },
  { name: 'year_sort_desc', key: { year_missing: 1, year: -1, _id: -1 } },
  { name: 'created_sort', key: { created_at: 1, _id: 1 } },
  { name: 'updated_sort', key: { updated_at: 1, _id: 1 } },
  // Search: every query word is a title word prefix (multikey), in title order for the default sort.
  { name: 'search_prefix_title', key: { title_prefixes: 1, title_key: 1, _id: 1 } },
  // Relevance: entries containing the query words as whole words.
  { name: 'search_word_title', key: { title_words: 1, title_key: 1, _id: 1 } },
  // Filters, in the default (title) order.
  { name: 'genre_title', key: { genre_keys: 1, title_key: 1, _id: 1 } },
  { name: 'year_title', key: { year: 1, title_key: 1, _id: 1 } },
  // External ids: one entry per `key:value` pair; partial, as entries without any have no array.
  { name: EXTERNAL_IDS_INDEX, key: { external_keys: 1 }, unique: true, partialFilterExpression: { external_keys: { $exists: true } } },
  // person= search (director / network / authors), in the default (title) order.
  { name: 'search_person_title', key: { person_prefixes: 1, title_key: 1, _id: 1 } },
  // Account deletion: the entries a user created.
  { name: 'created_by', key: { created_by: 1 } },
];

/**
 * Unsharded: two unique rules span the whole catalog of a category (same title and year; each external id),
 * and no shard key can be a prefix of both. Each category is its own database, so categories are placed on
 * shards of their own (docs/operations.md "Sharding").
 */
export const ENTRY_SHARDING: ShardingDeclaration = {
  collection: COLLECTIONS.entries,
  unsharded: 'unique title+year and unique external ids span the whole catalog; one database per category spreads categories instead',
};

export class CatalogRepository implements CatalogStore {
  constructor(private readonly db: CatalogDatabase) {}

  private get entries() {
    return this.db.collection<EntryDocument>(COLLECTIONS.entries);
  }

  private get counters() {
    return this.db.collection<CounterDocument>(COLLECTIONS.counters);
  }

  async ensureIndexes(): Promise<void> {
    await this.entries.createIndexes(ENTRY_INDEXES);
  }

  /** Inserts and counts the entry (in the caller's transaction); a duplicate throws DuplicateEntryError. */
  async insert(doc: EntryDocument, session: Session): Promise<void> {
    try {
      await this.entries.insertOne(doc, { session });
    } catch (error) {
      throw duplicateError(error);
    }
    await this.bumpCounter({ count: 1, version: 1 }, session);
  }

  /**
   * Inserts and counts several entries in the caller's transaction, in one statement (list imports); a
   * duplicate throws DuplicateEntryError / DuplicateExternalIdError and the transaction is to be aborted.
   */
  async insertAll(docs: readonly EntryDocument[], session: Session): Promise<void> {
    if (!docs.length) return;
    try {
      await this.entries.insertMany([...docs], { session, ordered: true });
    } catch (error) {
      throw duplicateError(error);
    }
    await this.bumpCounter({ count: docs.length, version: 1 }, session);
  }

  /**
   * Bulk import (seeding, benchmarks) of documents built with `newEntryDocument`. Not atomic: if the
   * insert fails part-way, the counter is recounted before the error is rethrown.
   */
  async importMany(docs: EntryDocument[]): Promise<void> {
    if (!docs.length) return;
    try {
      await this.entries.insertMany(docs, { ordered: true });
    } catch (error) {
      await this.reconcileEntryCount(undefined);
      throw error;
    }
    await this.bumpCounter({ count: docs.length, version: 1 }, undefined);
  }

  /**
   * Applies `change` when `createdBy` created the entry (and it is still as the change expects);
   * null when it is unknown, someone else's, or changed meanwhile.
   */
  async updateIfCreatedBy(id: mongo.ObjectId, createdBy: string | null, change: EntryChange, session: Session): Promise<EntryDocument | null> {
    // createdBy null: a moderator's change, to any entry (also one whose creator is gone).
    const filter: EntryFilter = createdBy === null ? { _id: id } : { _id: id, created_by: createdBy };
    if (change.expect) {
      filter.updated_at = change.expect.updatedAt;
      filter.external_keys = change.expect.externalKeys === null ? { $exists: false } : change.expect.externalKeys;
    }
    const update: mongo.UpdateFilter<EntryDocument> = { $set: change.set };
    if (change.unset.length) update.$unset = Object.fromEntries(change.unset.map((field) => [field, '']));
    let updated: EntryDocument | null;
    try {
      updated = await this.entries.findOneAndUpdate(filter, update, { returnDocument: 'after', session });
    } catch (error) {
      throw duplicateError(error);
    }
    if (updated) await this.bumpCounter({ version: 1 }, session);
    return updated;
  }

  /** Moderation: removes the entry and uncounts it in the caller's transaction; null when there is none. */
  async deleteById(id: mongo.ObjectId, session: Session): Promise<EntryDocument | null> {
    const removed = await this.entries.findOneAndDelete({ _id: id }, { session });
    if (removed) await this.bumpCounter({ count: -1, version: 1 }, session);
    return removed;
  }

  /**
   * A list addition about to point at the entry, in its transaction: the entry's summary, written (see
   * `list_claims`) so that a concurrent removal or merge of the entry conflicts with the addition; null when
   * the entry is gone.
   */
  async claimForList(id: mongo.ObjectId, session: Session): Promise<ItemSummaryRow | null> {
    return this.entries.findOneAndUpdate({ _id: id }, { $inc: { list_claims: 1 } }, { session, returnDocument: 'after', projection: ITEM_SUMMARY }) as Promise<ItemSummaryRow | null>;
  }

  findById(id: mongo.ObjectId, session?: Session): Promise<EntryDocument | null> {
    return this.entries.findOne({ _id: id }, { session });
  }

  /** A merge's survivor takes the combined external ids (in the merge's transaction, after the merged entry is gone). */
  async setExternalIds(id: mongo.ObjectId, ids: Record<string, string>, keys: string[], now: Date, session: Session): Promise<EntryDocument | null> {
    // No `external_keys: []`: the unique index is partial on the array's existence.
    const update: mongo.UpdateFilter<EntryDocument> = keys.length
      ? { $set: { external_ids: ids, external_keys: keys, updated_at: now } }
      : { $set: { external_ids: ids, updated_at: now }, $unset: { external_keys: '' } };
    let updated: EntryDocument | null;
    try {
      updated = await this.entries.findOneAndUpdate({ _id: id }, update, { returnDocument: 'after', session });
    } catch (error) {
      throw duplicateError(error);
    }
    if (updated) await this.bumpCounter({ version: 1 }, session);
    return updated;
  }

  /** Import matching: the entries holding any of these `key:value` pairs (index-served), with what matching needs. */
  findByExternalKeys(keys: readonly string[]): Promise<Array<Pick<EntryDocument, '_id' | 'external_keys'>>> {
    if (!keys.length) return Promise.resolve([]);
    return this.entries.find({ external_keys: { $in: [...keys] } }, { projection: { _id: 1, external_keys: 1 } }).toArray();
  }

  /** Import matching: the entries with these folded titles (the duplicate index's first key), to be matched with their years. */
  findByTitleKeys(titleKeys: readonly string[]): Promise<Array<Pick<EntryDocument, '_id' | 'title_key' | 'year'>>> {
    if (!titleKeys.length) return Promise.resolve([]);
    return this.entries.find({ title_key: { $in: [...titleKeys] } }, { projection: { _id: 1, title_key: 1, year: 1 } }).toArray();
  }

  /** The item summaries that list entries show, with the title sort key; absent ids are left out. */
  async summaries(ids: readonly mongo.ObjectId[], session?: Session): Promise<Map<string, ItemSummaryRow>> {
    if (!ids.length) return new Map();
    const rows = await this.entries
      .find({ _id: { $in: [...ids] } }, { projection: ITEM_SUMMARY, session })
      .toArray();
    return new Map(rows.map((row) => [row._id.toHexString(), row as ItemSummaryRow]));
  }

  /** The entry another write collided with (the duplicate key: folded title and year). */
  async findDuplicate(titleKeyValue: string, year: number | null, excludeId?: mongo.ObjectId): Promise<mongo.ObjectId | null> {
    const filter: EntryFilter = { title_key: titleKeyValue, year };
    if (excludeId) filter._id = { $ne: excludeId };
    const found = await this.entries.findOne(filter, { projection: { _id: 1 } });
    return found?._id ?? null;
  }

  /** The entry holding the `key:value` external id pair, if any (index-served). */
  findByExternalKey(key: string): Promise<EntryDocument | null> {
    return this.entries.findOne({ external_keys: key });
  }

  /** Some entry other than `excludeId` holding one of these `key:value` pairs (the one a write collided with). */
  async findExternalKeyHolder(keys: readonly string[], excludeId?: mongo.ObjectId): Promise<mongo.ObjectId | null> {
    if (!keys.length) return null;
    const filter: EntryFilter = { external_keys: { $in: [...keys] } };
    if (excludeId) filter._id = { $ne: excludeId };
    const found = await this.entries.findOne(filter, { projection: { _id: 1 } });
    return found?._id ?? null;
  }



  /** Account deletion: the user's entries stay, without a creator. Idempotent. */
  async releaseCreator(userId: string): Promise<number> {
    const result = await this.entries.updateMany({ created_by: userId }, { $set: { created_by: null } });
    // Entries show their creator: listings cached for the version before must not be served again.
    if (result.modifiedCount) await this.bumpCounter({ version: 1 }, undefined);
    return result.modifiedCount;
  }

  /**
   * Start-up: sets the counter to the true number of entries (it may have drifted if entries were
   * written without the service, or on a standalone server without transactions).
   */
  async reconcileEntryCount(session: Session): Promise<number> {
    const count = await this.entries.countDocuments({}, { session });
    const [first = 'entries', ...others] = COUNTER_SHARDS;
    await this.counters.updateMany({ _id: { $in: others } }, { $set: { count: 0 } }, { session });
    await this.counters.updateOne({ _id: first }, { $set: { count }, $inc: { version: 1 } }, { upsert: true, session });
    return count;
  }

  private async bumpCounter(inc: { count?: number; version: number }, session: Session): Promise<void> {
    await this.counters.updateOne({ _id: anyShard() }, { $inc: inc }, { upsert: true, session });
  }


}
