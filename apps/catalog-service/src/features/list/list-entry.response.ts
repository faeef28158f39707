import { posterPath, type ImageSources } from '@mt/providers';
import type { NewListEntryFields } from '../../domain/list-entry';
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

const percentOf = (progress: number | null, pages: number): number | null => (progress === null ? null : Math.min(100, Math.round((progress / pages) * 1000) / 10));

/** What an answer shows of a catalog entry: its title, year and poster (this API's image path, or null). */
const itemSummary = (id: string, title: string, year: number | null, posterUrl: string | null, images: ImageSources): ListEntryResponse['item'] => ({
  id,
  title,
  year,
  poster: posterPath(posterUrl, images),
});

/** Shown for a catalog entry that is gone: the catalog never deletes one a list points at, so only a database edited by hand has it. */
const goneItem = (id: string): ListEntryResponse['item'] => ({ id, title: '', year: null, poster: null });

/**
 * The API's view of a stored entry, with its copy of its catalog entry's title, year and poster. An entry
 * without a copy points at a catalog entry removed by hand, which the start-up copy had nothing to take from.
 */
function toResponse(doc: ListEntryDocument, images: ImageSources): ListEntryResponse {
  const id = doc.item_id.toHexString();
  return {
    item_id: id,
    item: doc.item_title === undefined ? goneItem(id) : itemSummary(id, doc.item_title, doc.item_year ?? null, doc.item_poster_url ?? null, images),
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
 * image path under the enabled providers' image hosts), from the entry's own copy: no catalog read.
 */
export class ListEntryViews {
  constructor(private readonly images: ImageSources = {}) {}

  many(docs: readonly ListEntryDocument[]): ListEntryResponse[] {
    return docs.map((doc) => toResponse(doc, this.images));
  }

  one(doc: ListEntryDocument): ListEntryResponse {
    return toResponse(doc, this.images);
  }

  /** A catalog entry as the `item` of an answer (the diary's plays): empty when it is gone. */
  item(id: string, row: ItemSummaryRow | undefined): ListEntryResponse['item'] {
    return row ? itemSummary(id, row.title, row.year, row.poster_url ?? null, this.images) : goneItem(id);
  }
}
