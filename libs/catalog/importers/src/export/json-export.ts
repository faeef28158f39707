import { Readable } from 'node:stream';
import {
  EXPORT_FORMAT,
  type ExportEntry,
  type ExportOptions,
  type ExportPlay,
} from '../own-format/export-entry';
import { batched } from './batch';

/** The entry as the export format writes it: the item, then the list fields, and nothing else the caller's object may carry. */
const exportRecord = (entry: ExportEntry) => ({
  item: entry.item,
  status: entry.status,
  score: entry.score,
  progress: entry.progress,
  notes: entry.notes,
  started_at: entry.started_at,
  finished_at: entry.finished_at,
  created_at: entry.created_at,
  updated_at: entry.updated_at,
  plays: (entry.plays ?? []).map(exportPlay),
});

/** Only the play's own members, in the order of the CSV columns. */
export const exportPlay = (play: ExportPlay): ExportPlay => ({
  season: play.season,
  number: play.number,
  watched_at: play.watched_at,
  precision: play.precision,
  cycle: play.cycle,
  source: play.source,
});

async function* jsonParts(
  entries: AsyncIterable<ExportEntry>,
  options: ExportOptions,
): AsyncGenerator<string> {
  const exportedAt = (options.exportedAt ?? new Date()).toISOString();
  // format and category first: an importer can refuse a wrong file before reading its entries.
  yield `{"format":${JSON.stringify(EXPORT_FORMAT)},"category":${JSON.stringify(options.category)},"exported_at":${JSON.stringify(exportedAt)},"entries":[`;
  let first = true;
  for await (const entry of entries) {
    yield `${first ? '\n' : ',\n'}${JSON.stringify(exportRecord(entry))}`;
    first = false;
  }
  yield first ? ']}\n' : '\n]}\n';
}

/**
 * The JSON export (`media-tracker/list@1`, docs/api.md "Your list in a category") of `entries`, as a byte stream: one entry per line
 * inside `entries`, pulled from `entries` only as fast as the stream is read, so memory does not grow
 * with the list.
 */
export function jsonExport(entries: AsyncIterable<ExportEntry>, options: ExportOptions): Readable {
  return Readable.from(batched(jsonParts(entries, options)), { objectMode: false });
}
