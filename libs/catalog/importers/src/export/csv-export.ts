import { Readable } from 'node:stream';
import type { Category } from '../model';
import {
  catalogColumns,
  csvHeader,
  guardFormula,
  joinList,
  LIST_COLUMNS,
  type CatalogColumn,
} from '../own-format/csv-columns';
import type { ExportEntry, ExportOptions } from '../own-format/export-entry';
import { batched } from './batch';

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled; records end with CRLF. */
const NEEDS_QUOTES = /[",\r\n]/;
const field = (cell: string): string => (NEEDS_QUOTES.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
const csvLine = (cells: readonly string[]): string => `${cells.map(field).join(',')}\r\n`;

function cellOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return guardFormula(joinList(value.map(String)));
  if (typeof value === 'string') return guardFormula(value);
  return String(value);
}

function recordOf(entry: ExportEntry, columns: readonly CatalogColumn[]): string[] {
  const item = entry.item as Record<string, unknown>;
  const externalIds = entry.item.external_ids as Record<string, string | undefined>;
  return [
    ...columns.map((column) =>
      cellOf(column.kind === 'external_id' ? externalIds[column.key] : item[column.field]),
    ),
    ...LIST_COLUMNS.map((column) => cellOf(entry[column])),
  ];
}

async function* csvParts(entries: AsyncIterable<ExportEntry>, category: Category): AsyncGenerator<string> {
  yield csvLine(csvHeader(category));
  const columns = catalogColumns(category);
  for await (const entry of entries) yield csvLine(recordOf(entry, columns));
}

/**
 * The CSV export of `entries` (docs/api.md "Your list in a category"): RFC 4180, UTF-8 without BOM, one header row (`csvHeader`), the
 * catalog fields flattened (lists as `a; b`, one column per external id), then the list fields. Streamed
 * like the JSON export.
 */
export function csvExport(entries: AsyncIterable<ExportEntry>, options: ExportOptions): Readable {
  return Readable.from(batched(csvParts(entries, options.category)), { objectMode: false });
}
