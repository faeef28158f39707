import { csvExport, csvPlaysExport, jsonExport, type Category, type ExportEntry, type ExportItem } from '@mt/importers';
import type { Readable } from 'node:stream';
import type { CategoryDefinition } from '../../domain/categories';
import type { ExportFormat, ExportRows } from './list-export.schemas';
import type { ExportPlaysReader } from '../../domain/ports/list-plays-reader.port';
import { listFieldsOf } from '../../domain/list-import';
import { toEntryResponse } from '../../domain/catalog-entry';
import type { ImageSources } from '@mt/providers';
import type { ListStore } from '../../domain/ports/list-store.port';
import type { Id } from '../../domain/ids';
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
    private readonly plays: ExportPlaysReader,
    private readonly now: () => Date = () => new Date(),
    /** The enabled providers' image bases: each item as the API shows it, `poster` included. */
    private readonly images: ImageSources = {},
  ) {}

  export(userId: string, format: ExportFormat, rows: ExportRows = 'entries'): ListExport {
    const exportedAt = this.now();
    const options = { category: this.category.id as Category, exportedAt };
    const entries = this.withPlays(userId, this.entries(userId));
    const day = exportedAt.toISOString().slice(0, 10);
    if (format === 'json') return { stream: jsonExport(entries, options), contentType: 'application/json; charset=utf-8', fileName: `${this.category.id}-list-${day}.json` };
    return rows === 'plays'
      ? { stream: csvPlaysExport(entries), contentType: 'text/csv; charset=utf-8', fileName: `${this.category.id}-plays-${day}.csv` }
      : { stream: csvExport(entries, options), contentType: 'text/csv; charset=utf-8', fileName: `${this.category.id}-list-${day}.csv` };
  }

  private async *entries(userId: string): AsyncGenerator<ExportEntry & { itemId: Id }> {
    for await (const entry of this.lists.streamForExport(userId)) {
      const [item] = entry.item;
      // An item removed by moderation while the list is read is gone from the list too.
      if (item) yield { ...exportEntry(entry, toEntryResponse(this.category, item, this.images) as ExportItem), itemId: entry.item_id };
    }
  }

  /** Each entry with its plays, read for a batch of entries at a time: one query per batch, not per entry. */
  private async *withPlays(userId: string, entries: AsyncIterable<ExportEntry & { itemId: Id }>): AsyncGenerator<ExportEntry> {
    let batch: Array<ExportEntry & { itemId: Id }> = [];
    const flush = async function* (this: ListExportService): AsyncGenerator<ExportEntry> {
      const plays = await this.plays.ofItems(userId, batch.map((entry) => entry.itemId));
      for (const { itemId, ...entry } of batch) yield { ...entry, plays: plays.get(itemId.toHexString()) ?? [] };
      batch = [];
    }.bind(this);
    for await (const entry of entries) {
      batch.push(entry);
      if (batch.length >= PLAYS_BATCH_ENTRIES) yield* flush();
    }
    yield* flush();
  }
}

/** Entries whose plays are read together (the list itself is read in batches of 500). */
const PLAYS_BATCH_ENTRIES = 200;

function exportEntry(entry: ExportedListEntry, item: ExportItem): ExportEntry {
  return { item, ...listFieldsOf(entry), created_at: entry.created_at.toISOString(), updated_at: entry.updated_at.toISOString() };
}
