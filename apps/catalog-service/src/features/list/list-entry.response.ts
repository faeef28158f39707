import { titleKey } from '@mt/domain';
import type { NewListEntryFields } from '../../domain/list-entry';
import type { CatalogStore } from '../../domain/ports/catalog-store.port';
import type { ItemSummaryRow } from '../../domain/records/catalog-entry.record';
import type { ListEntryDocument } from '../../domain/records/list-entry.record';

export interface ListEntryResponse extends NewListEntryFields {
  item_id: string;
  item: { id: string; title: string; year: number | null };
  repeat_count: number;
  cycle: number;
  /** Books whose `pages` is known: `progress` as a percentage of them (one decimal, at most 100). */
  progress_percent?: number | null;
  created_at: string;
  updated_at: string;
}

/** The answer of storedItem per document read (null: no current copy); gone with the document. */
const storedItems = new WeakMap<ListEntryDocument, { title: string; year: number | null } | null>();

/**
 * What the entry keeps of its catalog entry (title, year), or undefined where the catalog entry must be read
 * instead: an entry stored before entries kept a copy, or one whose copy an instance of the previous version
 * left behind during a rolling upgrade (it renames only the sort key, so the copy no longer folds to it).
 * Read shim of migrations/004-legacy-item-copies.ts: removable after 1.0.0, with the step.
 */
function storedItem(doc: ListEntryDocument): { title: string; year: number | null } | undefined {
  // Folding the title is the costly part, and a page asks twice per entry (itemsToJoin, then toResponse).
  let copy = storedItems.get(doc);
  if (copy === undefined) {
    copy = doc.item_title === undefined || titleKey(doc.item_title) !== doc.item_title_key ? null : { title: doc.item_title, year: doc.item_year ?? null };
    storedItems.set(doc, copy);
  }
  return copy ?? undefined;
}

/** The catalog entries of the entries that keep no current copy of theirs, in one read (none when all do). */
export function itemsToJoin(catalog: Pick<CatalogStore, 'summaries'>, docs: Iterable<ListEntryDocument>): Promise<Map<string, ItemSummaryRow>> {
  return catalog.summaries([...docs].filter((doc) => !storedItem(doc)).map((doc) => doc.item_id));
}

const percentOf = (progress: number | null, pages: number): number | null => (progress === null ? null : Math.min(100, Math.round((progress / pages) * 1000) / 10));

/** The API's view of a stored entry, with its catalog entry's title and year (the entry's copy, else `joined`). */
export function toResponse(doc: ListEntryDocument, joined: ItemSummaryRow | undefined): ListEntryResponse {
  const id = doc.item_id.toHexString();
  const item = storedItem(doc) ?? joined;
  return {
    item_id: id,
    // The catalog never deletes entries a list points at; the fallback only covers a database edited by hand.
    item: item ? { id, title: item.title, year: item.year } : { id, title: '', year: null },
    status: doc.status,
    score: doc.score,
    progress: doc.progress,
    notes: doc.notes,
    started_at: doc.started_at,
    finished_at: doc.finished_at,
    repeat_count: doc.repeat_count ?? 0,
    cycle: doc.cycle ?? 1,
    ...(typeof doc.item_pages === 'number' ? { progress_percent: percentOf(doc.progress, doc.item_pages) } : {}),
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

