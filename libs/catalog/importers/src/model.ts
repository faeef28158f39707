import { MEDIA_CATEGORIES, type ListStatus, type MediaCategoryId } from '@mt/domain';

export type { ListStatus };

/** The categories whose lists can be imported and exported: the shipped ones (@mt/domain). */
export const CATEGORIES: readonly MediaCategoryId[] = MEDIA_CATEGORIES.map((category) => category.id);
export type Category = MediaCategoryId;

type KeysOf<T> = T extends unknown ? keyof T & string : never;
/** The external id keys of the shipped categories, all together. */
export type ExternalIdName = KeysOf<(typeof MEDIA_CATEGORIES)[number]['externalIds']>;
export type ExternalIds = Partial<Record<ExternalIdName, string>>;

/**
 * The catalog side of a parsed row. `title`, `year` and `external_ids` are always there (`title` is null only
 * when the row has external ids to match by); the other fields are present only when the source knows
 * them, so a field the source is silent about is absent, not null.
 */
export interface ImportItem {
  title: string | null;
  year: number | null;
  external_ids: ExternalIds;
  description?: string | null;
  genres?: string[];
  runtime_minutes?: number | null;
  director?: string | null;
  seasons?: number | null;
  episodes?: number | null;
  network?: string | null;
  authors?: string[];
  /** Digits only: an ISBN-13 when the source has one, else the ISBN-10. */
  isbn?: string | null;
  pages?: number | null;
}

/** The list side of a parsed row; dates are `YYYY-MM-DD`. */
export interface ImportEntry {
  status: ListStatus;
  score: number | null;
  progress: number | null;
  notes: string | null;
  started_at: string | null;
  finished_at: string | null;
}

/** How precisely a play's time is known (docs/api.md "Plays"). */
export const PLAY_PRECISIONS = ['exact', 'day', 'unknown', 'release'] as const;
export type PlayPrecision = (typeof PLAY_PRECISIONS)[number];

/** One viewing (or reading) of the row's work: a play of the list entry (docs/api.md "Plays"). */
export interface ImportPlay {
  /** The episode of a show (season 0: specials); both null for a movie, a book or a whole show. */
  season: number | null;
  number: number | null;
  /** An ISO date-time in UTC (`day`: 00:00 UTC of the day); null exactly when `precision` is `unknown`. */
  watched_at: string | null;
  precision: PlayPrecision;
  /** The rewatch cycle, only when the source knows it (our exports, Letterboxd's Rewatch flag). */
  cycle?: number;
  /** The play's own source as exported (`manual`, `import:trakt` …): our own formats only. */
  source?: string;
}

/**
 * One row of an import file, numbered as a person counts the rows of that file: a CSV's header is row 1 (as
 * in a spreadsheet), a JSON array's first element is row 1. A row that is `ok` may carry warnings (a value
 * that was dropped, a note that was shortened); a row that is not `ok` is either `skipped` (it belongs to
 * another category, e.g. a TV series in an IMDb file imported into movies) or failed.
 */
export type ImportRow =
  | {
      readonly row: number;
      readonly ok: true;
      readonly item: ImportItem;
      /** null: the file has only plays (our CSV `rows=plays`), and says nothing of the entry's fields. */
      readonly entry: ImportEntry | null;
      /** The plays the source records for this work, oldest first where the source orders them; often none. */
      readonly plays: readonly ImportPlay[];
      /**
       * The source does not say the status, only what was played (Trakt's watched shows): the plays decide it,
       * as they do on the list (a show whose aired episodes are all played is completed).
       */
      readonly playsDecideStatus?: true;
      readonly warnings: readonly string[];
    }
  | { readonly row: number; readonly ok: false; readonly skipped: boolean; readonly message: string };

export type FailedRow = Extract<ImportRow, { ok: false }>;

export const failedRow = (row: number, message: string): FailedRow => ({
  row,
  ok: false,
  skipped: false,
  message,
});
export const skippedRow = (row: number, message: string): FailedRow => ({
  row,
  ok: false,
  skipped: true,
  message,
});
