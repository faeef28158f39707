import { unreadableFile } from '../import-file-error';
import { skippedRow, type Category, type ImportRow } from '../model';
import { completeRow, entryWith } from '../normalise/row';
import { scoreFromTenPoints } from '../normalise/scores';
import { commaList } from '../normalise/text';
import { isCsvRow, openCsvTable, type CsvRow } from '../reading/csv-table';
import type { ImportInput } from '../reading/byte-chunks';
import type { ImportSourceParser, ParseContext } from './source';

/**
 * IMDb's "Title Type" in its two spellings (the export's "TV Mini Series", the datasets' "tvMiniSeries"),
 * folded to lower-case letters. Movies take feature films, TV movies, shorts and direct-to-video films;
 * TV shows take series and mini series. Everything else (episodes, specials, games, podcasts) is skipped.
 */
const TITLE_TYPES: Readonly<Record<string, Category>> = {
  movie: 'movies',
  feature: 'movies',
  tvmovie: 'movies',
  short: 'movies',
  video: 'movies',
  tvseries: 'tvshows',
  tvminiseries: 'tvshows',
};

const foldTitleType = (raw: string): string => raw.toLowerCase().replace(/[^a-z]/g, '');

function rowOf(row: CsvRow, file: 'ratings' | 'watchlist', context: ParseContext): ImportRow {
  const titleType = row.cell('Title Type').trim();
  const belongsTo = TITLE_TYPES[foldTitleType(titleType)];
  if (belongsTo !== context.category) {
    return skippedRow(row.row, `a "${titleType || 'untyped'}" row is not imported into ${context.category}`);
  }
  const warnings: string[] = [];
  const score = scoreFromTenPoints(row.cell('Your Rating'), warnings);
  // Rated titles were seen; the date a rating was given is not when, so no finish date.
  const entry =
    file === 'ratings' ? entryWith('completed', { score }) : entryWith('plan_to_watch', { score });
  const movieFields =
    context.category === 'movies'
      ? { runtime_minutes: row.cell('Runtime (mins)'), director: row.cell('Directors') || null }
      : {};
  return completeRow(
    row.row,
    context.category,
    {
      title: row.cell('Title'),
      year: row.cell('Year'),
      externalIds: { imdb: row.cell('Const') },
      fields: { genres: commaList(row.cell('Genres')), ...movieFields },
    },
    entry,
    warnings,
  );
}

async function* parseImdb(input: ImportInput, context: ParseContext): AsyncGenerator<ImportRow> {
  const table = await openCsvTable(input, context.limits);
  if (!table.has('Const') || !table.has('Title') || !table.has('Title Type')) {
    throw unreadableFile(
      'not an IMDb export file: expected the columns Const, Title and Title Type (ratings.csv or watchlist.csv)',
    );
  }
  // watchlist.csv (and every IMDb list export) numbers its rows in Position; ratings.csv has Date Rated.
  const file = table.has('Position') ? 'watchlist' : 'ratings';
  for await (const row of table.rows) {
    yield isCsvRow(row) ? rowOf(row, file, context) : row;
  }
}

export const imdbSource: ImportSourceParser = {
  id: 'imdb',
  categories: ['movies', 'tvshows'],
  mediaType: 'text/csv',
  parse: parseImdb,
};
