import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import { fileTooLarge, isImportFileError, unreadableFile } from '../import-file-error';
import { formatSize, type ImportLimits } from '../limits';
import { countedChunks, type ImportInput } from './byte-chunks';

/** One CSV record; `row` counts records as a spreadsheet numbers its rows (the header is row 1). */
export interface CsvRecord {
  readonly row: number;
  readonly values: readonly string[];
}

const CSV_PROBLEMS: Readonly<Record<string, string>> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is never closed',
  CSV_INVALID_CLOSING_QUOTE: 'a closing quote is followed by other characters',
  CSV_INVALID_OPENING_QUOTE: 'a field has a quote in an unexpected place',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'a closing quote is followed by other characters',
};

function fileErrorOf(error: unknown, limits: ImportLimits): unknown {
  if (isImportFileError(error) || !(error instanceof CsvError)) return error;
  const where = typeof error.lines === 'number' ? ` (near line ${error.lines})` : '';
  if (error.code === 'CSV_MAX_RECORD_SIZE') {
    return fileTooLarge(
      `a row is longer than ${formatSize(limits.maxRecordChars)} characters${where}`,
      'maxRecordChars',
    );
  }
  return unreadableFile(`not a readable CSV file: ${CSV_PROBLEMS[error.code] ?? 'malformed CSV'}${where}`);
}

/**
 * The records of a CSV file (RFC 4180; UTF-8 with or without BOM; CRLF or LF; quoted commas, quotes and
 * line breaks), streamed: the byte, row, record and field limits fail the read as soon as they are crossed.
 * Blank lines are not records. Quotes inside an unquoted field are kept as characters (Goodreads writes
 * `="0441478123"`).
 */
export async function* readCsvRecords(input: ImportInput, limits: ImportLimits): AsyncGenerator<CsvRecord> {
  const parser = parse({
    bom: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: limits.maxRecordChars,
  });
  const source = Readable.from(countedChunks(input, limits), { objectMode: false });
  // A failure anywhere in the pipe destroys the parser with it, so the loop below sees it.
  const piping = pipeline(source, parser).catch(() => undefined);
  let row = 0;
  try {
    for await (const values of parser as AsyncIterable<string[]>) {
      row += 1;
      if (row - 1 > limits.maxRows)
        throw fileTooLarge(`the file has more than ${limits.maxRows} rows`, 'maxRows');
      if (values.some((value) => value.length > limits.maxFieldChars)) {
        throw fileTooLarge(
          `row ${row} has a field longer than ${formatSize(limits.maxFieldChars)} characters`,
          'maxFieldChars',
        );
      }
      yield { row, values };
    }
  } catch (error) {
    throw fileErrorOf(error, limits);
  } finally {
    parser.destroy();
    source.destroy();
    await piping;
  }
}
