import { titleKey } from '@mt/domain';
import { posterPath, type ImageSources } from '@mt/providers';
import type { NewListEntryFields } from '../../domain/list-entry';
import type { CatalogStore } from '../../domain/ports/catalog-store.port';
import type { ItemSummaryRow } from '../../domain/records/catalog-entry.record';
import type { ListEntryDocument } from '../../domain/records/list-entry.record';

export interface ListEntryResponse extends NewListEntryFields {
  item_id: string;
  item: { id: string; title: string; year: number | null; poster: string | null };
  repeat_count: number;
  cycle: number;
  /** Books whose `pages` is known: `progress` as a percentage of them (one decimal, at most 100). */
  progress_percent?: number | null;
  created_at: string;
  updated_at: string;
}

interface ItemCopy {
  title: string;
  year: number | null;
  posterUrl: string | null;
}

/** The answer of storedItem per document read (null: no current copy); gone with the document. */
const storedItems = new WeakMap<ListEntryDocument, ItemCopy | null>();

/**
 * What the entry keeps of its catalog entry (title, year, poster), or undefined where the catalog entry must be
 * read instead: an entry stored before entries kept a copy (or before the copy had the poster), or one whose
 * copy an instance of the previous version left behind during a rolling upgrade (it renames only the sort key,
 * so the copy no longer folds to it). Read shim of migrations 004 and 006: removable after 1.0.0, with them.
 */
function storedItem(doc: ListEntryDocument): ItemCopy | undefined {
  // Folding the title is the costly part, and a page asks twice per entry (the join, then the response).
  let copy = storedItems.get(doc);
  if (copy === undefined) {
    const current = doc.item_title !== undefined && doc.item_poster_url !== undefined && titleKey(doc.item_title) === doc.item_title_key;
    copy = current ? { title: doc.item_title as string, year: doc.item_year ?? null, posterUrl: doc.item_poster_url ?? null } : null;
    storedItems.set(doc, copy);
  }
  return copy ?? undefined;
}

/** The catalog entries of the entries that keep no current copy of theirs, in one read (none when all do). */
function itemsToJoin(catalog: Pick<CatalogStore, 'summaries'>, docs: Iterable<ListEntryDocument>): Promise<Map<string, ItemSummaryRow>> {
  return catalog.summaries([...docs].filter((doc) => !storedItem(doc)).map((doc) => doc.item_id));
}

const percentOf = (progress: number | null, pages: number): number | null => (progress === null ? null : Math.min(100, Math.round((progress / pages) * 1000) / 10));

const joinedCopy = (row: ItemSummaryRow): ItemCopy => ({ title: row.title, year: row.year, posterUrl: row.poster_url ?? null });

/** The `item` of an answer; the catalog never deletes entries a list points at, so an empty one only covers a database edited by hand. */
const itemSummary = (id: string, item: ItemCopy | undefined, images: ImageSources): ListEntryResponse['item'] =>
  item ? { id, title: item.title, year: item.year, poster: posterPath(item.posterUrl, images) } : { id, title: '', year: null, poster: null };

/** The API's view of a stored entry, with its catalog entry's title, year and poster (the entry's copy, else `joined`). */
function toResponse(doc: ListEntryDocument, joined: ItemSummaryRow | undefined, images: ImageSources): ListEntryResponse {
  const id = doc.item_id.toHexString();
  return {
    item_id: id,
    item: itemSummary(id, storedItem(doc) ?? (joined && joinedCopy(joined)), images),
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

/**
 * List entries as the API shows them: each with its catalog entry's title, year and poster (`poster`, this API's
 * image path under the enabled providers' image hosts), from the entry's own copy, the catalog read once for
 * those that keep none.
 */
export class ListEntryViews {
  constructor(
    private readonly catalog: Pick<CatalogStore, 'summaries'>,
    private readonly images: ImageSources = {},
  ) {}

  async many(docs: readonly ListEntryDocument[]): Promise<ListEntryResponse[]> {
    const joined = await itemsToJoin(this.catalog, docs);
    return docs.map((doc) => toResponse(doc, joined.get(doc.item_id.toHexString()), this.images));
  }

  async one(doc: ListEntryDocument): Promise<ListEntryResponse> {
    return (await this.many([doc]))[0] as ListEntryResponse;
  }

  /** A catalog entry as the `item` of an answer (the diary's plays): empty when it is gone. */
  item(id: string, row: ItemSummaryRow | undefined): ListEntryResponse['item'] {
    return itemSummary(id, row && joinedCopy(row), this.images);
  }
}
