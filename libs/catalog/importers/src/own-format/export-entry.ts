import type { Category, ExternalIds, ImportEntry, PlayPrecision } from '../model';

/** The format name and version of this API's JSON export (docs/api.md "Your list in a category"). */
export const EXPORT_FORMAT = 'media-tracker/list@1';

/**
 * A catalog entry as the API returns it (docs/api.md "The catalog of a category"): the common fields, `external_ids`, and the
 * category's own fields as further members.
 */
export interface ExportItem {
  id: string;
  title: string;
  year: number | null;
  description?: string | null;
  genres?: string[];
  external_ids: ExternalIds;
  created_by?: string | null;
  created_at?: string;
  updated_at?: string;
  [field: string]: unknown;
}

/** One play as the exports write it (docs/api.md "Plays"): what a re-import needs to make it again. */
export interface ExportPlay {
  season: number | null;
  number: number | null;
  /** ISO date-time; null when the precision is `unknown`. */
  watched_at: string | null;
  precision: PlayPrecision;
  cycle: number;
  source: string;
}

/** One list entry of an export: the full catalog entry, the list fields and its plays (docs/api.md "Your list in a category"). */
export interface ExportEntry extends ImportEntry {
  item: ExportItem;
  /** Oldest first; absent is none. */
  plays?: readonly ExportPlay[];
  created_at: string;
  updated_at: string;
}

export interface ExportOptions {
  readonly category: Category;
  /** Defaults to now. */
  readonly exportedAt?: Date;
}
