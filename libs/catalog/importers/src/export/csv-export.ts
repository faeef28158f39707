import { Readable } from 'node:stream';
import type { Category } from '../model';
import {
  catalogColumns,
  csvHeader,
  joinList,
  LIST_COLUMNS,
  type CatalogColumn,
} from '../own-format/csv-columns';
import { guardFormula } from '../own-format/formula-guard';
import { OWN_PLAY_FIELDS } from '../own-format/own-plays';
import type { ExportEntry, ExportOptions } from '../own-format/export-entry';
import { batched } from './batch';

/**
 * RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled; records end with CRLF.
 * A `;` is quoted too, for readers that take both `,` and `;` as separators.
 */
const NEEDS_QUOTES = /[",;\r\n]/;
const field = (cell: string): string => (NEEDS_QUOTES.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
const csvLine = (cells: readonly string[]): string => `${cells.map(field).join(',')}\r\n`;

function cellOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return guardFormula(joinList(value.map(String)));
  if (typeof value === 'string') return guardFormula(value);
  // A number is a number to a spreadsheet, a negative one included, never a formula.
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : guardFormula(String(value));
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

/** The columns of the plays CSV (`rows=plays`): the work, then the play's own members. */
export const PLAYS_CSV_HEADER = ['item_id', 'title', 'year', ...OWN_PLAY_FIELDS] as const;

async function* csvPlayParts(entries: AsyncIterable<ExportEntry>): AsyncGenerator<string> {
  yield csvLine(PLAYS_CSV_HEADER);
  for await (const entry of entries) {
    const work = [entry.item.id, entry.item.title, entry.item.year].map(cellOf);
    for (const play of entry.plays ?? [])
      yield csvLine([...work, ...OWN_PLAY_FIELDS.map((field) => cellOf(play[field]))]);
  }
}

/**
 * The plays of `entries` as CSV (`?format=csv&rows=plays`, docs/api.md "Plays"), one row per play, written
 * like the list's CSV (RFC 4180, formula guard) and streamed the same way.
 */
export function csvPlaysExport(entries: AsyncIterable<ExportEntry>): Readable {
  return Readable.from(batched(csvPlayParts(entries)), { objectMode: false });
}

/**
 * The CSV export of `entries` (docs/api.md "Your list in a category"): RFC 4180, UTF-8 without BOM, one header row (`csvHeader`), the
 * catalog fields flattened (lists as `a; b`, one column per external id), then the list fields. Streamed
 * like the JSON export.
 */
export function csvExport(entries: AsyncIterable<ExportEntry>, options: ExportOptions): Readable {
  return Readable.from(batched(csvParts(entries, options.category)), { objectMode: false });
}
