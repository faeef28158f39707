import type { ImportLimits } from '../limits';
import type { Category, ImportRow } from '../model';
import type { ImportInput } from '../reading/byte-chunks';

export const SOURCE_IDS = [
  'media-tracker',
  'csv',
  'letterboxd',
  'trakt',
  'imdb',
  'goodreads',
  'storygraph',
] as const;
export type SourceId = (typeof SOURCE_IDS)[number];

export interface ParseContext {
  readonly category: Category;
  readonly limits: ImportLimits;
  /**
   * The uploaded file's name, when the client gives it. Only needed where a service writes two files with
   * the same header: Letterboxd's watched.csv and watchlist.csv.
   */
  readonly fileName?: string;
}

/** One import source: which categories it serves, what it reads, and its parser. */
export interface ImportSourceParser {
  readonly id: SourceId;
  readonly categories: readonly Category[];
  /** The body's media type the import endpoint expects for this source. */
  readonly mediaType: 'text/csv' | 'application/json';
  parse(input: ImportInput, context: ParseContext): AsyncIterable<ImportRow>;
}
