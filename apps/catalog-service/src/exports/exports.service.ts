import { csvExport, jsonExport, type Category, type ExportEntry, type ExportItem } from '@mt/importers';
import type { Readable } from 'node:stream';
import type { CategoryDefinition } from '../categories/categories';
import type { CatalogRepository } from '../catalog/catalog.repository';
import { toEntryResponse } from '../catalog/entry.document';
import type { ExportedListEntry, ListRepository } from '../lists/lists.repository';
import type { ExportFormat } from './exports.schemas';
import { listFieldsOf } from '../lists/list-import';


/** List entries joined with their catalog entries this many at a time: one `$in` read per batch. */
const JOIN_BATCH = 200;

export interface ListExport {
  stream: Readable;
  contentType: string;
  fileName: string;
}

/** Groups an async sequence into arrays of up to `size`, pulling only as fast as the groups are consumed. */
async function* inGroups<T>(source: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let group: T[] = [];
  for await (const value of source) {
    group.push(value);
    if (group.length >= size) {
      yield group;
      group = [];
    }
  }
  if (group.length) yield group;
}

/**
 * The export of a user's list (API.md §12): the entries in the order they were added, each with its full
 * catalog entry, written by `@mt/importers` (JSON `media-tracker/list@1` or CSV). Everything is pulled: the
 * list cursor is read in batches as the response is written, so memory does not grow with the list.
 */
export class ListExportService {
  constructor(
    private readonly category: CategoryDefinition,
    private readonly lists: ListRepository,
    private readonly catalog: CatalogRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  export(userId: string, format: ExportFormat): ListExport {
    const exportedAt = this.now();
    const options = { category: this.category.id as Category, exportedAt };
    const entries = this.entries(userId);
    const day = exportedAt.toISOString().slice(0, 10);
    return format === 'csv'
      ? { stream: csvExport(entries, options), contentType: 'text/csv; charset=utf-8', fileName: `${this.category.id}-list-${day}.csv` }
      : { stream: jsonExport(entries, options), contentType: 'application/json; charset=utf-8', fileName: `${this.category.id}-list-${day}.json` };
  }

  private async *entries(userId: string): AsyncGenerator<ExportEntry> {
    for await (const group of inGroups(this.lists.streamForExport(userId), JOIN_BATCH)) {
      const items = await this.catalog.responsesByIds(group.map((entry) => entry.item_id));
      for (const entry of group) {
        const item = items.get(entry.item_id.toHexString());
        // An item removed by moderation after the list was read is gone from the list too.
        if (item) yield exportEntry(entry, toEntryResponse(this.category, item) as ExportItem);
      }
    }
  }
}

function exportEntry(entry: ExportedListEntry, item: ExportItem): ExportEntry {
  return { item, ...listFieldsOf(entry), created_at: entry.created_at.toISOString(), updated_at: entry.updated_at.toISOString() };
}
