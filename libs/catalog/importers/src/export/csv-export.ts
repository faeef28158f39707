import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { Category } from '../model';
import { catalogColumns, csvHeader, guardFormula, joinList, LIST_COLUMNS } from '../own-format/csv-columns';
import type { ExportEntry, ExportOptions } from '../own-format/export-entry';
import { batched } from './batch';

const CSV_OPTIONS = {
  // RFC 4180: CRLF between records, and any field with a line break quoted (bare \n included).
  record_delimiter: 'windows',
  quoted_match: /[\r\n]/,
} as const;

function cellOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return guardFormula(joinList(value.map(String)));
  if (typeof value === 'string') return guardFormula(value);
  return String(value);
}

function recordOf(entry: ExportEntry, category: Category): string[] {
  const item = entry.item as Record<string, unknown>;
  const externalIds = entry.item.external_ids as Record<string, string | undefined>;
  return [
    ...catalogColumns(category).map((column) =>
      cellOf(column.kind === 'external_id' ? externalIds[column.key] : item[column.field]),
    ),
    ...LIST_COLUMNS.map((column) => cellOf(entry[column])),
  ];
}

async function* csvParts(entries: AsyncIterable<ExportEntry>, category: Category): AsyncGenerator<string> {
  yield stringify([csvHeader(category)], CSV_OPTIONS);
  for await (const entry of entries) yield stringify([recordOf(entry, category)], CSV_OPTIONS);
}

/**
 * The CSV export of `entries` (API.md §12): RFC 4180, UTF-8 without BOM, one header row (`csvHeader`), the
 * catalog fields flattened (lists as `a; b`, one column per external id), then the list fields. Streamed
 * like the JSON export.
 */
export function csvExport(entries: AsyncIterable<ExportEntry>, options: ExportOptions): Readable {
  return Readable.from(batched(csvParts(entries, options.category)), { objectMode: false });
}
