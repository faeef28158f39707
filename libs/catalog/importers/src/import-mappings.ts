import { IMPORT_LIMITS, formatSize } from './limits';
import type { ListStatus } from '@mt/domain';
import type { Category } from './model';
import { GOODREADS_SHELVES } from './sources/goodreads';
import { sourcesFor } from './sources/registry';
import type { SourceId } from './sources/source';
import { STORYGRAPH_STATUSES } from './sources/storygraph';

/** How a source's own state becomes a list status. */
export interface StatusMapping {
  readonly from: string;
  readonly to: ListStatus;
}

/** What an import from one source reads and how it maps it: data for clients and the OpenAPI text. */
export interface SourceMapping {
  readonly source: SourceId;
  readonly name: string;
  readonly files: string;
  readonly statuses: readonly StatusMapping[];
  readonly score: string;
  readonly dates: string;
  readonly externalIds: string;
  /** Which plays (viewings, readings: docs/api.md "Plays") a file of the source gives. */
  readonly plays: string;
  readonly notes: readonly string[];
}

const fromRecord = (record: Readonly<Record<string, ListStatus>>, quote = true): StatusMapping[] =>
  Object.entries(record).map(([from, to]) => ({ from: quote ? `\`${from}\`` : from, to }));

export const IMPORT_MAPPINGS: Readonly<Record<SourceId, SourceMapping>> = {
  'media-tracker': {
    source: 'media-tracker',
    name: 'media-tracker (this API, JSON)',
    files: '`GET …/list/export?format=json` of the same category (`media-tracker/list@1`)',
    statuses: [],
    score: 'as exported (1–10)',
    dates: 'as exported (`started_at`, `finished_at`)',
    externalIds: 'every external-id key of the category in `item.external_ids`',
    plays: "every entry's `plays` as exported (season, number, watched_at, precision, cycle, source)",
    notes: [
      'Every field is taken as exported; a value that breaks a list entry rule (docs/api.md) fails its row. An export of another category is refused (400).',
    ],
  },
  csv: {
    source: 'csv',
    name: 'CSV (this API)',
    files:
      '`GET …/list/export?format=csv` of the same category; columns may be reordered, unknown columns are ignored',
    statuses: [],
    score: 'as exported (1–10)',
    dates: 'as exported (`YYYY-MM-DD`)',
    externalIds: 'the `external_ids.<key>` columns',
    plays:
      "the plays file, `GET …/list/export?format=csv&rows=plays` (columns `item_id, title, year, season, number, watched_at, precision, cycle, source`), one row per play, matched by title and year; its rows leave the entry's fields as they are",
    notes: [
      'Lists (genres, authors) are written `a; b` (a `;` or `\\` inside a value escaped with `\\`).',
      "Text that a spreadsheet could run as a formula (`=`, `+`, `-`, `@`, their full-width forms, a tab or CR, also after spaces or quotes), at the start of a cell or after a `;` or a line break inside it, is exported with a `'` there (spreadsheets would run it as a formula); the import removes it.",
    ],
  },
  letterboxd: {
    source: 'letterboxd',
    name: 'Letterboxd',
    files:
      'one CSV of the account export: `diary.csv`, `reviews.csv`, `watched.csv`, `ratings.csv` or `watchlist.csv`, recognised by its header (send the file name for watched.csv and watchlist.csv, whose headers are the same)',
    statuses: [
      { from: 'diary.csv, reviews.csv, watched.csv, ratings.csv', to: 'completed' },
      { from: 'watchlist.csv', to: 'plan_to_watch' },
    ],
    score: '0.5–5 stars → stars × 2 rounded up (½ → 1, 3½ → 7); no rating → none',
    dates:
      'diary: `Watched Date` → `finished_at`; watched.csv: the day it was marked watched (`Date`) → `finished_at`; ratings and watchlist: none',
    externalIds: 'none (Letterboxd ids are not external-id keys): matched by title and year',
    plays:
      "every diary.csv or reviews.csv row is a play on its `Watched Date` (day precision; unknown when it is not a date); a film's first viewing opens cycle 1 and every later one flagged `Rewatch` the next; ratings, watched and watchlist files have none",
    notes: [
      'A diary repeats a film for every viewing: it becomes one row with every viewing as a play, the latest viewing winning (its date, its rating — or the latest earlier rating when it has none). Its row number is that of the latest viewing.',
      'reviews.csv: the review text → `notes`.',
    ],
  },
  trakt: {
    source: 'trakt',
    name: 'Trakt',
    files:
      'one JSON file of the export: `watched-movies.json`, `watched-shows.json`, `ratings-movies.json`, `ratings-shows.json`, `lists-watchlist.json` / `watchlist-*.json`, `watched-history.json`',
    statuses: [
      { from: 'watched movie, rated movie or show, played (history) movie', to: 'completed' },
      { from: 'watched show (`progress` = episodes seen, specials excluded)', to: 'watching' },
      { from: 'watchlist', to: 'plan_to_watch' },
    ],
    score: 'Trakt rating 1–10 as it is',
    dates: '`last_watched_at` / `watched_at` → `finished_at` (UTC day)',
    externalIds: '`ids.imdb`, `ids.tmdb` (and `ids.tvdb` for shows)',
    plays:
      "a watched movie's `plays` and a watched show's episodes' `plays` (specials included), each count with one date: the latest play at its `last_watched_at`, the others with an unknown date; every history element is a play (an episode's is a play of its show, into tvshows)",
    notes: [
      "Movies and shows may be mixed in a file: the other category's rows, and episode or season rows (but an episode's history element into tvshows), are counted as skipped.",
      'History has one element per play: the plays of a movie become one row, the latest winning, with all of its plays.',
    ],
  },
  imdb: {
    source: 'imdb',
    name: 'IMDb',
    files: '`ratings.csv` or `watchlist.csv` (any IMDb list export)',
    statuses: [
      { from: 'ratings.csv', to: 'completed' },
      { from: 'watchlist.csv', to: 'plan_to_watch' },
    ],
    score: '`Your Rating` 1–10 as it is',
    dates: 'none (`Date Rated` is when the rating was given, not when the title was seen)',
    externalIds: '`Const` → `imdb`',
    plays: 'none (IMDb exports no viewings)',
    notes: [
      'By `Title Type`: movies take Movie, TV Movie, Short and Video; tvshows take TV Series and TV Mini Series; every other row (episodes, specials, games…) is counted as skipped.',
      'Movies also get `runtime_minutes` (`Runtime (mins)`), `director` (`Directors`); both categories `genres`.',
    ],
  },
  goodreads: {
    source: 'goodreads',
    name: 'Goodreads',
    files: 'the library export CSV (`goodreads_library_export.csv`)',
    statuses: [
      ...fromRecord(GOODREADS_SHELVES),
      { from: 'a custom exclusive shelf named like did-not-finish, dnf, abandoned', to: 'dropped' },
      { from: 'a custom exclusive shelf named like on-hold, paused', to: 'on_hold' },
      { from: 'any other shelf (with a warning)', to: 'plan_to_watch' },
    ],
    score: '1–5 stars → stars × 2; 0 (not rated) → none',
    dates: '`Date Read` → `finished_at` (Goodreads exports no start date)',
    externalIds: '`Book Id` → `goodreads`; `ISBN13` (else `ISBN`, written `="…"`) → `isbn` and `isbn13`',
    plays:
      '`Read Count` readings (at least one on the read shelf), the latest on `Date Read` (day precision), the others with an unknown date',
    notes: [
      'The series suffix Goodreads adds to titles ("Dune (Dune Chronicles, #1)") is removed.',
      '`Private Notes` → `notes`, else `My Review` as plain text; notes longer than 2000 characters are shortened with a warning.',
      'Authors: `Author` and `Additional Authors`; `Number of Pages` → `pages`; `Original Publication Year` (else `Year Published`) → `year`.',
    ],
  },
  storygraph: {
    source: 'storygraph',
    name: 'StoryGraph',
    files: 'the library export CSV',
    statuses: fromRecord(STORYGRAPH_STATUSES),
    score: '0.25–5 stars → stars × 2 rounded up (3.75 → 8)',
    dates:
      'the latest reading of `Dates Read` (`2024/01/02-2024/01/20`) → `started_at` and, for read or did-not-finish books, `finished_at` (else `Last Date Read`)',
    externalIds: "`ISBN/UID` → `isbn` and `isbn13` when it is an ISBN (StoryGraph's own ids are ignored)",
    plays: 'none yet (its `Dates Read` are read for the entry dates only)',
    notes: ['`Review` → `notes`; `Authors` → `authors`.'],
  },
};

function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The Markdown section of one source: the file to upload, the status table, score, dates, ids, notes. */
export function describeImportSource(source: SourceId): string {
  const mapping = IMPORT_MAPPINGS[source];
  const parts = [`#### \`${mapping.source}\` — ${mapping.name}`, '', `File: ${mapping.files}.`, ''];
  if (mapping.statuses.length > 0) {
    parts.push(
      table(
        ['From', 'status'],
        mapping.statuses.map((status) => [status.from, `\`${status.to}\``]),
      ),
      '',
    );
  } else {
    parts.push('Status: as exported.', '');
  }
  parts.push(
    `- Score: ${mapping.score}.`,
    `- Dates: ${mapping.dates}.`,
    `- External ids: ${mapping.externalIds}.`,
    `- Plays: ${mapping.plays}.`,
  );
  for (const note of mapping.notes) parts.push(`- ${note}`);
  return parts.join('\n');
}

/**
 * The Markdown the import endpoint's OpenAPI description includes: how each source of `category` is read
 * and mapped to list statuses, and the limits.
 */
export function describeImportSources(category: Category): string {
  const limits = IMPORT_LIMITS;
  const intro = [
    `### Import sources for ${category}`,
    '',
    `The body is the file as the service exports it (up to ${formatSize(limits.maxBytes)} and ${limits.maxRows.toLocaleString('en')} rows, a field up to ${formatSize(limits.maxFieldChars)} characters, JSON nested at most ${limits.maxJsonDepth} levels; over a limit: 413). A file that is not the source's format, not UTF-8, a ZIP archive, or not valid CSV/JSON is a 400.`,
    'Rows are numbered as a person counts them: a CSV header is row 1 (as in a spreadsheet), the first element of a JSON array is row 1.',
    'An invalid external id, year or other value is dropped with a warning and the row goes on; a row with neither a title nor an external id fails.',
    '',
  ];
  return [...intro, ...sourcesFor(category).map(describeImportSource)]
    .join('\n\n')
    .replace(/\n{3,}/g, '\n\n');
}
