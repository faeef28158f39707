import type { Migration } from './migration';
import type { Id } from '../domain/ids';
import type { CatalogRepository } from '../data/catalog.repository';
import type { LegacyListEntriesRepository } from './legacy-list-entries.repository';
import { listedItem } from '../domain/records/list-entry.record';

const BATCH = 500;

/**
 * Start-up migration to list entries that keep a copy of their catalog entry's title, year, pages and poster (so
 * a page reads no catalog entry): entries stored before, or whose copy predates the poster, get theirs, a batch
 * at a time in _id order. Responses read only the copy: no instance of the previous version runs beside this
 * one (the upgrade stops them first). An entry whose catalog entry is gone (a database edited by hand) is
 * passed over and shown with an empty item. Idempotent, no transaction: an edit or merge of the catalog entry
 * meanwhile writes the copy itself, and wins. Removable after 1.0.0 (an upgrade from an older release passes
 * through it).
 */
export async function copyItemsIntoLegacyEntries(lists: LegacyListEntriesRepository, catalog: Pick<CatalogRepository, 'summaries'>): Promise<number> {
  let copied = 0;
  let after: Id | null = null;
  for (;;) {
    const entries = await lists.withoutItemCopy(after, BATCH);
    const items = await catalog.summaries(entries.map((entry) => entry.item_id));
    copied += await lists.setItemCopies(
      entries.flatMap((entry) => {
        const item = items.get(entry.item_id.toHexString());
        return item ? [{ entryId: entry._id, item: listedItem(item) }] : [];
      }),
    );
    const last = entries.at(-1);
    if (!last || entries.length < BATCH) return copied;
    after = last._id;
  }
}

export const itemCopiesMigration: Migration = {
  id: '004-legacy-item-copies',
  removableAfter: '1.0.0',
  done: "list entries: their catalog entry's title, year, pages and poster copied into them",
  run: async ({ listEntries, catalog }) => ({ entries: await copyItemsIntoLegacyEntries(listEntries, catalog) }),
};
