import { unreadableFile } from '../import-file-error';
import type { ImportEntry, ImportPlay, ImportRow } from '../model';
import { optionalDate } from '../normalise/dates';
import { NO_EPISODE, playTime } from '../normalise/plays';
import { completeRow, entryWith } from '../normalise/row';
import { scoreFromStars } from '../normalise/scores';
import { multiLine, singleLine, wholeNumber, workKey } from '../normalise/text';
import { isCsvRow, openCsvTable, type CsvRow, type CsvTable } from '../reading/csv-table';
import type { ImportInput } from '../reading/byte-chunks';
import { latestPerWork, type RepeatableRow } from './latest-per-work';
import type { ImportSourceParser, ParseContext } from './source';

/** The files of a Letterboxd account export this source reads. */
export type LetterboxdFile = 'diary' | 'reviews' | 'ratings' | 'watched' | 'watchlist';

/**
 * Which file a header belongs to. diary.csv: Date, Name, Year, Letterboxd URI, Rating, Rewatch, Tags, Watched
 * Date; reviews.csv adds Review; ratings.csv: Date, Name, Year, Letterboxd URI, Rating; watched.csv and
 * watchlist.csv: Date, Name, Year, Letterboxd URI — the same header, so the file name decides.
 */
export function letterboxdFileOf(table: CsvTable, fileName: string | undefined): LetterboxdFile {
  if (!table.has('Name') || !table.has('Letterboxd URI')) {
    throw unreadableFile(
      'not a Letterboxd export file: expected the columns Date, Name, Year, Letterboxd URI (diary.csv, watched.csv, ratings.csv or watchlist.csv)',
    );
  }
  if (table.has('Watched Date')) return table.has('Review') ? 'reviews' : 'diary';
  if (table.has('Rating')) return 'ratings';
  const name = (fileName ?? '').toLowerCase();
  if (name.includes('watchlist')) return 'watchlist';
  if (name.includes('watched')) return 'watched';
  throw unreadableFile(
    "Letterboxd's watched.csv and watchlist.csv have the same columns: give the file's name (watched.csv or watchlist.csv) with the upload",
  );
}

function entryOf(file: LetterboxdFile, row: CsvRow, warnings: string[]): ImportEntry {
  switch (file) {
    case 'watchlist':
      return entryWith('plan_to_watch');
    case 'watched':
      // The day the film was marked watched: the best finish date this file has.
      return entryWith('completed', { finished_at: optionalDate(row.cell('Date'), 'Date', warnings) });
    case 'ratings':
      // A rating's date is when it was given, not when the film was seen: no finish date.
      return entryWith('completed', { score: scoreFromStars(row.cell('Rating'), warnings) });
    case 'diary':
    case 'reviews':
      return entryWith('completed', {
        score: scoreFromStars(row.cell('Rating'), warnings),
        finished_at: optionalDate(row.cell('Watched Date') || row.cell('Date'), 'Watched Date', warnings),
        notes: file === 'reviews' ? multiLine(row.cell('Review')) : null,
      });
  }
}

/** A later viewing without a rating (or review) keeps the one given at an earlier viewing. */
function keepEarlierRating(winner: ImportRow, earlier: ImportRow): ImportRow {
  if (!winner.ok || !earlier.ok || !winner.entry || !earlier.entry) return winner;
  return {
    ...winner,
    entry: {
      ...winner.entry,
      score: winner.entry.score ?? earlier.entry.score,
      notes: winner.entry.notes ?? earlier.entry.notes,
    },
  };
}

/** Plays whose diary row has the Rewatch flag, until their work's cycles are numbered. */
const rewatches = new WeakSet<ImportPlay>();

/** One diary row's viewing: a play on its Watched Date (the day it was logged when there is none). */
function diaryPlay(row: CsvRow): ImportPlay {
  const play: ImportPlay = { ...NO_EPISODE, ...playTime(row.cell('Watched Date') || row.cell('Date')) };
  if (row.cell('Rewatch').trim().toLowerCase() === 'yes') rewatches.add(play);
  return play;
}

/**
 * A film's viewings oldest first (unknown dates first), numbered in cycles: the first viewing opens cycle 1
 * and every later one flagged Rewatch opens the next, as a rewatch does on the list (docs/api.md "Plays").
 */
function withCycles(row: ImportRow): ImportRow {
  if (!row.ok) return row;
  const ordered = [...row.plays].sort((a, b) => (a.watched_at ?? '').localeCompare(b.watched_at ?? ''));
  let cycle = 1;
  const plays = ordered.map((play, index) => {
    if (index > 0 && rewatches.has(play)) cycle += 1;
    return { ...play, cycle };
  });
  return { ...row, plays };
}

async function* diaryRows(
  table: CsvTable,
  context: ParseContext,
  file: LetterboxdFile,
): AsyncGenerator<RepeatableRow | ImportRow> {
  for await (const row of table.rows) {
    if (!isCsvRow(row)) {
      yield row;
      continue;
    }
    const warnings: string[] = [];
    const title = row.cell('Name');
    const year = row.cell('Year');
    const parsed = completeRow(
      row.row,
      context.category,
      { title, year, externalIds: {} },
      entryOf(file, row, warnings),
      warnings,
      [diaryPlay(row)],
    );
    if (!parsed.ok) {
      yield parsed;
      continue;
    }
    yield {
      key: workKey(singleLine(title) ?? '', wholeNumber(year) ?? null),
      date: parsed.entry?.finished_at ?? null,
      row: parsed,
    };
  }
}

async function* parseLetterboxd(input: ImportInput, context: ParseContext): AsyncGenerator<ImportRow> {
  const table = await openCsvTable(input, context.limits);
  const file = letterboxdFileOf(table, context.fileName);
  if (file === 'diary' || file === 'reviews') {
    // One row per film: a diary repeats a film for every viewing, and the latest viewing wins.
    yield* latestPerWork(diaryRows(table, context, file), {
      maxRowPlays: context.limits.maxRowPlays,
      merge: keepEarlierRating,
      finish: withCycles,
    });
    return;
  }
  for await (const row of table.rows) {
    if (!isCsvRow(row)) {
      yield row;
      continue;
    }
    const warnings: string[] = [];
    yield completeRow(
      row.row,
      context.category,
      { title: row.cell('Name'), year: row.cell('Year'), externalIds: {} },
      entryOf(file, row, warnings),
      warnings,
    );
  }
}

export const letterboxdSource: ImportSourceParser = {
  id: 'letterboxd',
  categories: ['movies'],
  mediaType: 'text/csv',
  parse: parseLetterboxd,
};
