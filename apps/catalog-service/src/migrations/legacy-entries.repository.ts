import { COLLECTIONS, type CatalogDatabase } from '../data/database';
import { anyShard, type CounterDocument } from '../data/catalog-counter';
import { duplicateError } from '../data/catalog.repository';
import { DuplicateExternalIdError, type EntryDocument } from '../domain/records/catalog-entry.record';

/** The writes of the start-up migrations to the catalog's `entries`: older entries brought to the current shape. */
export class LegacyEntriesRepository {
  constructor(private readonly db: CatalogDatabase) {}

  private get entries() {
    return this.db.collection<EntryDocument>(COLLECTIONS.entries);
  }

  /** What filters match changed: cached counts of the old catalog version must not be served. */
  private async bumpVersion(): Promise<void> {
    await this.db.collection<CounterDocument>(COLLECTIONS.counters).updateOne({ _id: anyShard() }, { $inc: { version: 1 } }, { upsert: true });
  }

  /**
   * Start-up migration of entries written before external ids existed: stores the ids derived from their own
   * fields (`derive` returns them, possibly {}). Idempotent, batched; an entry whose derived pair another entry
   * already holds keeps no pair (it is counted in `conflicts` and left for a moderator to merge).
   */
  async migrateExternalIds(derive: (doc: EntryDocument) => Record<string, string>, toKeys: (ids: Record<string, string>) => string[]): Promise<{ migrated: number; conflicts: number }> {
    let migrated = 0;
    let conflicts = 0;
    for (;;) {
      const batch = await this.entries.find({ external_ids: { $exists: false } }).limit(500).toArray();
      if (!batch.length) {
        if (migrated || conflicts) await this.bumpVersion();
        return { migrated, conflicts };
      }
      for (const doc of batch) {
        const ids = derive(doc);
        const keys = toKeys(ids);
        try {
          await this.entries.updateOne({ _id: doc._id, external_ids: { $exists: false } }, { $set: { external_ids: ids, ...(keys.length ? { external_keys: keys } : {}) } });
        } catch (error) {
          if (!(duplicateError(error) instanceof DuplicateExternalIdError)) throw error;
          conflicts++;
          await this.entries.updateOne({ _id: doc._id, external_ids: { $exists: false } }, { $set: { external_ids: {} } });
          continue;
        }
        migrated++;
      }
    }
  }

  /** Start-up backfill of a derived field that entries written before it existed lack (idempotent, batched). */
  async backfillMissing(field: 'person_prefixes', compute: (doc: EntryDocument) => string[]): Promise<number> {
    let done = 0;
    for (;;) {
      const batch = await this.entries.find({ [field]: { $exists: false } }).limit(500).toArray();
      // What filters match changed: cached counts of the old version must not be served.
      if (!batch.length) {
        if (done) await this.bumpVersion();
        return done;
      }
      await this.entries.bulkWrite(
        batch.map((doc) => ({ updateOne: { filter: { _id: doc._id, [field]: { $exists: false } }, update: { $set: { [field]: compute(doc) } } } })),
        { ordered: false },
      );
      done += batch.length;
    }
  }
}
