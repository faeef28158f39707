import { csvExport, jsonExport, type Category, type ExportEntry, type ExportItem } from '@mt/importers';
import type { Readable } from 'node:stream';
import type { CategoryDefinition } from '../../domain/categories';
import type { ExportFormat } from './list-export.schemas';
import { listFieldsOf } from '../../domain/list-import';
import { toEntryResponse } from '../../domain/catalog-entry';
import type { ListStore } from '../../domain/ports/list-store.port';
import type { ExportedListEntry } from '../../domain/records/list-entry.record';

export interface ListExport {
  stream: Readable;
  contentType: string;
  fileName: string;
}

/**
 * The export of a user's list: the entries in the order they were added, each with its full
 * catalog entry, written by `@mt/importers` (JSON `media-tracker/list@1` or CSV). Everything is pulled: the
 * list (joined to the catalog by the store) is read in batches as the response is written, so memory does not
 * grow with the list.
 */
export class ListExportService {
  constructor(
    private readonly category: CategoryDefinition,
    private readonly lists: ListStore,
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
    for await (const entry of this.lists.streamForExport(userId)) {
      const [item] = entry.item;
      // An item removed by moderation while the list is read is gone from the list too.
      if (item) yield exportEntry(entry, toEntryResponse(this.category, item) as ExportItem);
    }
  }
}

function exportEntry(entry: ExportedListEntry, item: ExportItem): ExportEntry {
  return { item, ...listFieldsOf(entry), created_at: entry.created_at.toISOString(), updated_at: entry.updated_at.toISOString() };
}
