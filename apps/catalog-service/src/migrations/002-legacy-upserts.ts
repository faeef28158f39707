import type { Migration } from './migration';
import type { LegacyListEntriesRepository } from './legacy-list-entries.repository';
import type { ListChangesRepository } from '../data/list-changes.repository';

const BATCH = 1000;

/**
 * Start-up migration from the feed that kept upserts in `list_changes` (one record per item changed) to
 * entries that carry their own `seq`: each legacy upsert record raises its entry's `seq` to the record's
 * and is removed (unless an instance of the previous version wrote the item again meanwhile: then the
 * newer record stays, is read by the feed as before, and is folded at the next start); entries with
 * neither get 0 (they start the feed, so a replay from the beginning gives the whole list). Idempotent,
 * in batches, no transaction: every step can be repeated.
 */
export async function foldLegacyUpserts(changes: ListChangesRepository, lists: LegacyListEntriesRepository): Promise<{ folded: number; numbered: number }> {
  let folded = 0;
  for (;;) {
    const records = await changes.legacyUpserts(BATCH);
    if (!records.length) break;
    await lists.raiseSeqs(records);
    await changes.deleteFolded(records);
    folded += records.length;
    // Fewer than a batch: every legacy record has been read (one rewritten meanwhile stays for the next start).
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
