import type { Migration } from './migration';
import type { mongo } from 'mongoose';
import type { AtomicRunner } from '../data/atomic';
import type { LegacyHistoryRepository } from '../data/legacy-history.repository';
import { withLegacyHistory } from '../domain/list-history';
import type { LegacyListEntriesRepository } from './legacy-list-entries.repository';

/** Small batches: each is one transaction, and `$or` of its (user, item) pairs finds the entries. */
const BATCH = 200;

/**
 * Start-up migration from the history kept apart (`list_history`, one document per entry) to the history in
 * the entry: each legacy document's events are merged into its entry's (`withLegacyHistory`: each event once,
 * so a fold interrupted and repeated adds nothing twice) and the document is removed; a document whose entry
 * is gone is removed. One transaction per batch: a list write racing the fold conflicts with it and one of the
 * two runs again. Documents written meanwhile by an instance of the previous version are read beside the
 * entry's history until the next start folds them.
 */
export async function foldLegacyHistories(legacy: LegacyHistoryRepository, lists: LegacyListEntriesRepository, atomic: AtomicRunner): Promise<{ folded: number; orphans: number }> {
  let folded = 0;
  let orphans = 0;
  let after: mongo.ObjectId | null = null;
  for (;;) {
    const step: { last: mongo.ObjectId | null; folded: number; orphans: number; full: boolean } = await atomic.run(async (session) => {
      const docs = await legacy.batch(after, BATCH, session);
      const entries = new Map((await lists.entriesWithHistory(docs, session)).map((entry) => [`${entry.user_id}:${entry.item_id.toHexString()}`, entry]));
      const histories = docs.flatMap((doc) => {
        const entry = entries.get(`${doc.user_id}:${doc.item_id.toHexString()}`);
        return entry ? [{ id: entry._id, history: withLegacyHistory(entry.history ?? [], doc.events, entry.created_at) }] : [];
      });
      await lists.setHistories(histories, session);
      await legacy.deleteByIds(docs.map((doc) => doc._id), session);
      return { last: docs.at(-1)?._id ?? null, folded: histories.length, orphans: docs.length - histories.length, full: docs.length === BATCH };
    });
    folded += step.folded;
    orphans += step.orphans;
    if (!step.full) break;
    after = step.last;
  }
  return { folded, orphans };
}

export const legacyHistoryMigration: Migration = {
  id: '003-legacy-history',
  removableAfter: '1.0.0',
  done: 'list history: list_history folded into the list entries',
  run: ({ legacyHistory, listEntries, atomic }) => foldLegacyHistories(legacyHistory, listEntries, atomic),
};
