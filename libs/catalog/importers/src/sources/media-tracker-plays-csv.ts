import { failedRow, type ImportRow } from '../model';
import { completeRow } from '../normalise/row';
import { workKey } from '../normalise/text';
import { unguardFormula } from '../own-format/formula-guard';
import { OWN_PLAY_FIELDS, ownPlay } from '../own-format/own-plays';
import { isCsvRow, type CsvRow, type CsvTable } from '../reading/csv-table';
import { latestPerWork, type RepeatableRow } from './latest-per-work';
import type { ParseContext } from './source';

/** Our CSV export of plays (`?format=csv&rows=plays`) is recognised by these columns, and has no `status`. */
export const isPlaysTable = (table: CsvTable): boolean =>
  table.has('watched_at') && table.has('precision') && !table.has('status');

function playRow(row: CsvRow, context: ParseContext): RepeatableRow | ImportRow {
  const cell = (column: string) => unguardFormula(row.cell(column));
  const play = ownPlay(
    Object.fromEntries(OWN_PLAY_FIELDS.map((field) => [field, cell(field)])) as Record<
      (typeof OWN_PLAY_FIELDS)[number],
      string
    >,
  );
  if (typeof play === 'string') return failedRow(row.row, play);
  const parsed = completeRow(
    row.row,
    context.category,
    { title: cell('title'), year: cell('year'), externalIds: {}, verbatim: true },
    null,
    [],
    [play],
  );
  if (!parsed.ok) return parsed;
  // The exporting list's item id keeps apart two works of the same title and year.
  const key = cell('item_id').trim() || workKey(parsed.item.title ?? '', parsed.item.year);
  return { key, date: null, row: parsed };
}

/**
 * One row per work, numbered by its first CSV row, with all its plays (one per CSV row, in file order); the entry's fields are not in the
 * file, so the row's `entry` is null. Matched by title and year, as the file has no external ids.
 */
export async function* parsePlaysTable(table: CsvTable, context: ParseContext): AsyncGenerator<ImportRow> {
  async function* rows(): AsyncGenerator<RepeatableRow | ImportRow> {
    for await (const row of table.rows) yield isCsvRow(row) ? playRow(row, context) : row;
  }
  // Nothing of the work changes from row to row: it keeps the number of its first row.
  yield* latestPerWork(rows(), { maxRowPlays: context.limits.maxRowPlays, merge: (_later, first) => first });
}
