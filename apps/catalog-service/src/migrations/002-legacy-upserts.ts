import type { Migration } from './migration';
import type { LegacyListChangesRepository } from './legacy-list-changes.repository';
import type { LegacyListEntriesRepository } from './legacy-list-entries.repository';

const BATCH = 1000;

/**
 * Start-up migration from the feed that kept upserts in `list_changes` (one record per item changed) to
 * entries that carry their own `seq`: each legacy upsert record raises its entry's `seq` to the record's
 * and is removed; entries with neither get 0 (they start the feed, so a replay from the beginning gives the
 * whole list). The live feed reads only tombstones there: no instance of the previous version runs beside
 * this one (the upgrade stops them first), so once the step has run no upsert record is left. Idempotent, in
 * batches, no transaction: every step can be repeated. Removable after 1.0.0 (an upgrade from an older
 * release passes through it).
 */
export async function foldLegacyUpserts(changes: LegacyListChangesRepository, lists: LegacyListEntriesRepository): Promise<{ folded: number; numbered: number }> {
  let folded = 0;
  for (;;) {
    const records = await changes.upserts(BATCH);
    if (!records.length) break;
    await lists.raiseSeqs(records);
    await changes.deleteFolded(records);
    folded += records.length;
    // Fewer than a batch: every legacy record has been read.
    if (records.length < BATCH) break;
  }
  return { folded, numbered: await lists.numberUnnumbered() };
}

export const legacyUpsertsMigration: Migration = {
  id: '002-legacy-upserts',
  removableAfter: '1.0.0',
  done: 'change feed: legacy upsert records folded into the list entries',
  run: ({ listChanges, listEntries }) => foldLegacyUpserts(listChanges, listEntries),
};
