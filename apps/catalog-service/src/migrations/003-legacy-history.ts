import type { Migration } from './migration';
import type { mongo } from 'mongoose';
import type { AtomicRunner } from '../data/atomic';
import { MAX_HISTORY_PER_ENTRY, type HistoryEvent } from '../domain/list-history';
import type { LegacyHistoryRepository } from './legacy-history.repository';
import type { LegacyListEntriesRepository } from './legacy-list-entries.repository';

/** Small batches: each is one transaction, and `$or` of its (user, item) pairs finds the entries. */
const BATCH = 200;

/**
 * An entry's history with the events the previous version kept apart: newest first, each event once (a fold
 * interrupted and repeated adds nothing twice), capped. Events older than the entry belong to an entry of the
 * same item that was removed since.
 */
export function withLegacyHistory(history: readonly HistoryEvent[], legacy: readonly HistoryEvent[], createdAt: Date): HistoryEvent[] {
  if (!legacy.length) return history.slice(0, MAX_HISTORY_PER_ENTRY);
  const seen = new Set<string>();
  return [...history, ...legacy.filter((event) => event.at >= createdAt)]
    .sort((a, b) => b.at.getTime() - a.at.getTime())
    .filter((event) => {
      const key = JSON.stringify([event.at.getTime(), event.field, event.from, event.to]);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, MAX_HISTORY_PER_ENTRY);
}

/**
 * Start-up migration from the history kept apart (`list_history`, one document per entry) to the history in
 * the entry: each legacy document's events are merged into its entry's and the document is removed; a document
 * whose entry is gone is removed. One transaction per batch: a list write racing the fold conflicts with it and
 * one of the two runs again. The emptied collection is then dropped: the live services neither read nor write
 * it, and no instance of the previous version runs beside this one (the upgrade stops them first).
 * Removable after 1.0.0 (an upgrade from an older release passes through it).
 */
export async function foldLegacyHistories(
  legacy: LegacyHistoryRepository,
  lists: LegacyListEntriesRepository,
  atomic: AtomicRunner,
): Promise<{ folded: number; orphans: number; dropped: number }> {
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
  return { folded, orphans, dropped: (await legacy.dropWhenEmpty()) ? 1 : 0 };
}

export const legacyHistoryMigration: Migration = {
  id: '003-legacy-history',
  removableAfter: '1.0.0',
  done: 'list history: list_history folded into the list entries (and dropped once empty)',
  run: ({ legacyHistory, listEntries, atomic }) => foldLegacyHistories(legacyHistory, listEntries, atomic),
};
