import { failedRow, type FailedRow } from '../model';
import { unreadableFile } from '../import-file-error';
import type { ImportLimits } from '../limits';
import type { ImportInput } from './byte-chunks';
import { readCsvRecords } from './csv-records';

/** A data row of a CSV file whose header names its columns. */
export interface CsvRow {
  readonly row: number;
  /** The cell under the named column (matched ignoring case and surrounding space); '' when there is none. */
  cell(column: string): string;
}

export interface CsvTable {
  /** The header's column names, as written (trimmed). */
  readonly columns: readonly string[];
  has(column: string): boolean;
  /** The data rows; a row whose cell count differs from the header's is a failed row (its columns would be shifted). */
  readonly rows: AsyncIterable<CsvRow | FailedRow>;
}

const columnKey = (name: string): string => name.trim().toLowerCase();

/** Reads the header row (the file's first record) and returns the table; an empty file is unreadable. */
export async function openCsvTable(input: ImportInput, limits: ImportLimits): Promise<CsvTable> {
  const records = readCsvRecords(input, limits);
  const first = await records.next();
  if (first.done) throw unreadableFile('the file is empty');
  const columns = first.value.values.map((name) => name.trim());
  const index = new Map<string, number>();
  columns.forEach((name, position) => {
    if (!index.has(columnKey(name))) index.set(columnKey(name), position);
  });

  async function* rows(): AsyncGenerator<CsvRow | FailedRow> {
    try {
      for await (const record of { [Symbol.asyncIterator]: () => records }) {
        // Spreadsheets save rows they once touched as ",,,,": nothing there, not a row.
        if (record.values.every((value) => value.trim() === '')) continue;
        if (record.values.length !== columns.length) {
          yield failedRow(
            record.row,
            `the row has ${record.values.length} cell(s) but the header has ${columns.length} columns`,
          );
          continue;
        }
        yield {
          row: record.row,
          cell: (column) => {
            const position = index.get(columnKey(column));
            return position === undefined ? '' : (record.values[position] ?? '');
          },
        };
      }
    } finally {
      await records.return(undefined);
    }
  }

  return { columns, has: (column) => index.has(columnKey(column)), rows: rows() };
}

export const isCsvRow = (row: CsvRow | FailedRow): row is CsvRow => !('ok' in row);
