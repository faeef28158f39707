import type { NewListEntryFields } from './list-entry';

/** What an import does with an entry already on the list: leave it (`skip_existing`, default) or replace its fields. */
export const IMPORT_MODES = ['skip_existing', 'overwrite'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/** What importing one row did to the list. */
export type ImportOutcome = 'added' | 'updated' | 'unchanged' | 'skipped';

const FIELDS = ['status', 'score', 'progress', 'notes', 'started_at', 'finished_at'] as const;

export const sameListFields = (a: NewListEntryFields, b: NewListEntryFields): boolean => FIELDS.every((field) => a[field] === b[field]);

/**
 * The outcome of importing `fields` onto `current` (undefined: not on the list). An entry equal to the row
 * is `unchanged` in either mode, so re-importing a file reports every row `unchanged`; one that differs is
 * replaced (`overwrite`) or left as it is and reported `skipped` (`skip_existing`).
 */
export function importOutcome(current: NewListEntryFields | undefined, fields: NewListEntryFields, mode: ImportMode): ImportOutcome {
  if (!current) return 'added';
  if (sameListFields(current, fields)) return 'unchanged';
  return mode === 'overwrite' ? 'updated' : 'skipped';
}

/** Only the list fields of an entry (a stored document carries more). */
export const listFieldsOf = (entry: NewListEntryFields): NewListEntryFields => ({
  status: entry.status,
  score: entry.score,
  progress: entry.progress,
  notes: entry.notes,
  started_at: entry.started_at,
  finished_at: entry.finished_at,
});

/** What an import job counts, as its record shows it. */
export const IMPORT_COUNT_KEYS = ['rows', 'matched', 'catalog_created', 'added', 'updated', 'unchanged', 'skipped', 'failed'] as const;
export type ImportCounts = Record<(typeof IMPORT_COUNT_KEYS)[number], number>;
export type ImportJobStatus = 'queued' | 'running' | 'completed' | 'failed';
export interface RowError {
  row: number;
  message: string;
}

/** At most this many row errors are kept per job; `counts.failed` still counts them all. */
export const MAX_KEPT_ERRORS = 1000;
/** One kept row error or warning message, in UTF-8 bytes (longer ones are cut, with `…`). */
export const MAX_ROW_MESSAGE_BYTES = 256;
/** What one job keeps of its errors, and of its warnings: their stored size (BSON) all together. */
export const MAX_KEPT_ROW_BYTES = 32 * 1024;

export const zeroCounts = (): ImportCounts => Object.fromEntries(IMPORT_COUNT_KEYS.map((key) => [key, 0])) as ImportCounts;
