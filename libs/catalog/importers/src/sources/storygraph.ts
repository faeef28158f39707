import { normaliseIsbn, type ListStatus } from '@mt/domain';
import { unreadableFile } from '../import-file-error';
import type { ImportRow } from '../model';
import { optionalDate } from '../normalise/dates';
import { completeRow, entryWith } from '../normalise/row';
import { scoreFromStars } from '../normalise/scores';
import { commaList, multiLine } from '../normalise/text';
import { isCsvRow, openCsvTable, type CsvRow } from '../reading/csv-table';
import type { ImportInput } from '../reading/byte-chunks';
import type { ImportSourceParser, ParseContext } from './source';

/** StoryGraph's "Read Status" values. */
export const STORYGRAPH_STATUSES: Readonly<Record<string, ListStatus>> = {
  read: 'completed',
  'currently-reading': 'watching',
  'to-read': 'plan_to_watch',
  'did-not-finish': 'dropped',
  paused: 'on_hold',
};

const DAY = String.raw`\d{4}[/-]\d{1,2}[/-]\d{1,2}`;
/** One reading in "Dates Read": a day, or a range `2023/01/02-2023/01/20`. */
const READING = new RegExp(`(${DAY})(?:\\s*-\\s*(${DAY}))?`, 'g');

/**
 * The latest reading of "Dates Read" ("2022/01/02, 2023/01/02-2023/01/20"): a range gives its start and end;
 * a single day is the end of a finished reading, and the start of one still going on.
 */
function latestReading(raw: string, finished: boolean): { start: string | null; end: string | null } {
  const readings = [...raw.matchAll(READING)];
  const last = readings[readings.length - 1];
  if (!last) return { start: null, end: null };
  const [, first = null, second] = last;
  if (second !== undefined) return { start: first, end: second };
  return finished ? { start: null, end: first } : { start: first, end: null };
}

function rowOf(row: CsvRow, context: ParseContext): ImportRow {
  const warnings: string[] = [];
  const readStatus = row.cell('Read Status').trim().toLowerCase();
  let status = STORYGRAPH_STATUSES[readStatus];
  if (!status) {
    if (readStatus !== '')
      warnings.push(`read status '${readStatus.slice(0, 40)}' is unknown and was imported as plan_to_watch`);
    status = 'plan_to_watch';
  }
  // A finish date only for books that were finished (or given up on): a current reading has only begun.
  const ended = status === 'completed' || status === 'dropped';
  const reading = latestReading(row.cell('Dates Read'), ended);
  const started = optionalDate(reading.start, 'Dates Read', warnings);
  const finished = ended
    ? optionalDate(reading.end ?? row.cell('Last Date Read'), 'Last Date Read', warnings)
    : null;
  const entry = entryWith(status, {
    score: scoreFromStars(row.cell('Star Rating'), warnings),
    started_at: started,
    finished_at: finished,
    notes: multiLine(row.cell('Review')),
  });
  // "ISBN/UID" holds an ISBN, or StoryGraph's own id for editions without one (not an external id the catalog knows).
  const isbnOrUid = row.cell('ISBN/UID').trim();
  const looksLikeIsbn = /^[\d-]{9,17}[\dXx]$/.test(isbnOrUid);
  if (looksLikeIsbn && normaliseIsbn(isbnOrUid) === undefined)
    warnings.push(`ISBN '${isbnOrUid}' is not valid and was dropped`);
  return completeRow(
    row.row,
    context.category,
    {
      title: row.cell('Title'),
      year: null,
      externalIds: {},
      fields: {
        authors: commaList(row.cell('Authors')),
        ...(looksLikeIsbn && normaliseIsbn(isbnOrUid) !== undefined ? { isbn: isbnOrUid } : {}),
      },
    },
    entry,
    warnings,
  );
}

async function* parseStorygraph(input: ImportInput, context: ParseContext): AsyncGenerator<ImportRow> {
  const table = await openCsvTable(input, context.limits);
  if (!table.has('Title') || !table.has('Read Status') || !table.has('Authors')) {
    throw unreadableFile('not a StoryGraph export: expected the columns Title, Authors and Read Status');
  }
  for await (const row of table.rows) yield isCsvRow(row) ? rowOf(row, context) : row;
}

export const storygraphSource: ImportSourceParser = {
  id: 'storygraph',
  categories: ['books'],
  mediaType: 'text/csv',
  parse: parseStorygraph,
};
