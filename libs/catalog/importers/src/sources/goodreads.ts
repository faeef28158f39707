import { normaliseIsbn, type ListStatus } from '@mt/domain';
import { unreadableFile } from '../import-file-error';
import type { ImportRow } from '../model';
import { optionalDate } from '../normalise/dates';
import { NO_EPISODE, playTime, RowPlays } from '../normalise/plays';
import { completeRow, entryWith } from '../normalise/row';
import { scoreFromStars } from '../normalise/scores';
import { commaList, multiLine, wholeNumber } from '../normalise/text';
import { isCsvRow, openCsvTable, type CsvRow } from '../reading/csv-table';
import type { ImportInput } from '../reading/byte-chunks';
import type { ImportSourceParser, ParseContext } from './source';

/** Goodreads' three built-in exclusive shelves. */
export const GOODREADS_SHELVES: Readonly<Record<string, ListStatus>> = {
  read: 'completed',
  'currently-reading': 'watching',
  'to-read': 'plan_to_watch',
};

/** Custom exclusive shelves people make for the other two states, recognised by name. */
const CUSTOM_SHELVES: ReadonlyArray<readonly [RegExp, ListStatus]> = [
  [/did-?not-?finish|\bdnf\b|abandon|dropped|gave-?up/, 'dropped'],
  [/on-?hold|paused|hiatus/, 'on_hold'],
];

function statusOf(shelf: string, warnings: string[]): ListStatus {
  const name = shelf.trim().toLowerCase();
  const known = GOODREADS_SHELVES[name] ?? CUSTOM_SHELVES.find(([pattern]) => pattern.test(name))?.[1];
  if (known) return known;
  if (name !== '')
    warnings.push(
      `shelf '${shelf.trim().slice(0, 40)}' has no matching status and was imported as plan_to_watch`,
    );
  return 'plan_to_watch';
}

/** Goodreads writes ISBNs as spreadsheet formulas, `="0441478123"`, and an empty one as `=""`. */
const unwrapFormula = (raw: string): string => raw.trim().replace(/^="?(.*?)"?$/, '$1');

/** The series part Goodreads appends to titles, "Dune (Dune Chronicles, #1)": not part of the book's title. */
const SERIES_SUFFIX = /\s*\([^()]*#\s*\d+(\.\d+)?\)\s*$/;

/** Reviews are HTML fragments: line breaks kept, other tags removed. */
const plainText = (html: string): string =>
  html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

/**
 * Goodreads keeps how many times a book was read (`Read Count`) and one date, the latest `Date Read`: n
 * readings, the latest on that date and the others' dates unknown. A book on the read shelf was read at
 * least once, even when an older export says 0.
 */
function readingsOf(row: CsvRow, status: ListStatus, context: ParseContext): RowPlays {
  const plays = new RowPlays(context.limits.maxRowPlays);
  const count = Math.max(wholeNumber(row.cell('Read Count')) ?? 0, status === 'completed' ? 1 : 0);
  plays.addCounted(count, NO_EPISODE, playTime(row.cell('Date Read')));
  return plays;
}

function rowOf(row: CsvRow, context: ParseContext): ImportRow {
  const warnings: string[] = [];
  const isbn13 = unwrapFormula(row.cell('ISBN13'));
  const isbn10 = unwrapFormula(row.cell('ISBN'));
  const isbn =
    [isbn13, isbn10].find((candidate) => candidate !== '' && normaliseIsbn(candidate) !== undefined) ??
    (isbn13 || isbn10 || null);
  const status = statusOf(row.cell('Exclusive Shelf'), warnings);
  const entry = entryWith(status, {
    score: scoreFromStars(row.cell('My Rating'), warnings),
    finished_at: optionalDate(row.cell('Date Read'), 'Date Read', warnings),
    // Private notes are the user's own notes; the review stands in when there are none.
    notes: multiLine(row.cell('Private Notes')) ?? multiLine(plainText(row.cell('My Review'))),
  });
  return completeRow(
    row.row,
    context.category,
    {
      title: row.cell('Title').replace(SERIES_SUFFIX, ''),
      year: row.cell('Original Publication Year') || row.cell('Year Published'),
      externalIds: { goodreads: row.cell('Book Id') },
      fields: {
        authors: [row.cell('Author'), ...commaList(row.cell('Additional Authors'))],
        isbn,
        pages: row.cell('Number of Pages') || null,
      },
    },
    entry,
    warnings,
    readingsOf(row, status, context),
  );
}

async function* parseGoodreads(input: ImportInput, context: ParseContext): AsyncGenerator<ImportRow> {
  const table = await openCsvTable(input, context.limits);
  if (!table.has('Book Id') || !table.has('Title') || !table.has('Exclusive Shelf')) {
    throw unreadableFile(
      'not a Goodreads library export: expected the columns Book Id, Title and Exclusive Shelf',
    );
  }
  for await (const row of table.rows) yield isCsvRow(row) ? rowOf(row, context) : row;
}

export const goodreadsSource: ImportSourceParser = {
  id: 'goodreads',
  categories: ['books'],
  mediaType: 'text/csv',
  parse: parseGoodreads,
};
