import { unreadableFile } from '../import-file-error';
import { failedRow, type ImportRow } from '../model';
import { completeRow } from '../normalise/row';
import { catalogColumns, foreignColumns, splitList } from '../own-format/csv-columns';
import { unguardFormula } from '../own-format/formula-guard';
import { ownEntry } from '../own-format/own-entry';
import { isCsvRow, openCsvTable, type CsvRow } from '../reading/csv-table';
import type { ImportInput } from '../reading/byte-chunks';
import { isPlaysTable, parsePlaysTable } from './media-tracker-plays-csv';
import type { ImportSourceParser, ParseContext } from './source';

function rowOf(row: CsvRow, context: ParseContext, present: (column: string) => boolean): ImportRow {
  const cell = (column: string) => unguardFormula(row.cell(column));
  const entry = ownEntry({
    status: cell('status'),
    score: cell('score'),
    progress: cell('progress'),
    notes: cell('notes'),
    started_at: cell('started_at'),
    finished_at: cell('finished_at'),
  });
  if (typeof entry === 'string') return failedRow(row.row, entry);
  const externalIds: Record<string, string> = {};
  const fields: Record<string, unknown> = {};
  for (const column of catalogColumns(context.category)) {
    // A column the file does not have is a field it is silent about, not an empty one.
    if (!present(column.name)) continue;
    if (column.kind === 'external_id') externalIds[column.key] = cell(column.name);
    else if (typeof column.rule === 'object')
      fields[column.field] = column.rule.kind === 'list' ? splitList(cell(column.name)) : cell(column.name);
  }
  return completeRow(
    row.row,
    context.category,
    { title: cell('title'), year: cell('year'), externalIds, fields, verbatim: true },
    entry,
  );
}

/** This API's CSV export: the columns of `csvHeader(category)`, in any order; unknown columns are ignored. */
async function* parseMediaTrackerCsv(input: ImportInput, context: ParseContext): AsyncGenerator<ImportRow> {
  const table = await openCsvTable(input, context.limits);
  if (table.has('title') && isPlaysTable(table)) {
    yield* parsePlaysTable(table, context);
    return;
  }
  if (!table.has('title') || !table.has('status')) {
    throw unreadableFile(
      'not a media-tracker CSV export: expected at least the columns title and status (a list) or title, watched_at and precision (its plays)',
    );
  }
  const foreign = foreignColumns(context.category);
  const other = table.columns.find((column) => foreign.has(column.toLowerCase()));
  if (other)
    throw unreadableFile(
      `this is a ${foreign.get(other.toLowerCase())} export (column '${other}'), not ${context.category}`,
    );
  for await (const row of table.rows) yield isCsvRow(row) ? rowOf(row, context, table.has) : row;
}

export const mediaTrackerCsvSource: ImportSourceParser = {
  id: 'csv',
  categories: ['movies', 'tvshows', 'books'],
  mediaType: 'text/csv',
  parse: parseMediaTrackerCsv,
};
