import type { ItemSummaryRow } from '../catalog/catalog.repository';
import type { ListEntryDocument } from './lists.repository';
import type { ListStatus } from './lists.schemas';

export interface ListEntryResponse {
  item_id: string;
  item: { id: string; title: string; year: number | null };
  status: ListStatus;
  score: number | null;
  progress: number | null;
  notes: string | null;
  started_at: string | null;
  finished_at: string | null;
  repeat_count: number;
  created_at: string;
  updated_at: string;
}

/** The API's view of a stored entry, with the catalog item's summary joined. */
export function toResponse(doc: ListEntryDocument, item: ItemSummaryRow | undefined): ListEntryResponse {
  const id = doc.item_id.toHexString();
  return {
    item_id: id,
    // The catalog never deletes entries; the fallback only covers a database edited by hand.
    item: item ? { id, title: item.title, year: item.year } : { id, title: '', year: null },
    status: doc.status,
    score: doc.score,
    progress: doc.progress,
    notes: doc.notes,
    started_at: doc.started_at,
    finished_at: doc.finished_at,
    repeat_count: doc.repeat_count ?? 0,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

